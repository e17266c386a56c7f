/**
 * The browser's tRPC: typed hooks (useTRPC) and the client's links. Subscriptions go over SSE
 * (httpSubscriptionLink, which resends the last tracked id as lastEventId on reconnect); the rest is batched HTTP.
 * The run page's big reads (the latest tree, the history) are plain HTTP, not tRPC (components/run/page/run-reads.ts).
 * Imports only `type AppRouter` from the server; components read server types through RouterOutputs.
 */
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/index';

/** What each procedure returns, as the browser receives it: components take their server types from here. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function makeTrpcClient(getActor: () => string) {
  const headers = () => ({ 'x-arborist-actor': getActor() });
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/api/trpc', transformer: superjson }),
        false: httpBatchLink({ url: '/api/trpc', transformer: superjson, headers }),
      }),
    ],
  });
}
