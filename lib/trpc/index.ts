/**
 * lib/trpc's front door: the browser's tRPC client (provider, hooks, RouterOutputs) for app/ and components/.
 * Not responsible for anything itself: it names what is public; client.ts holds the definitions.
 */

export { makeTrpcClient, TRPCProvider, useTRPC, useTRPCClient } from './client';
export type { RouterOutputs } from './client';
