/**
 * The browser's tRPC: typed hooks (useTRPC) and the client's links. Subscriptions go over SSE
 * (httpSubscriptionLink, which resends the last tracked id as lastEventId on reconnect); the run page's big answers
 * (the latest tree, the history's pages) one request each, so a page fetched ahead arrives while the one before it
 * is folded instead of in one answer with it; the rest is batched HTTP.
 * Imports only `type AppRouter` from the server; components read server types through RouterOutputs.
 */
import { createTRPCClient, httpBatchLink, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import superjson from 'superjson';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../server/index';

/** What each procedure returns, as the browser receives it: components take their server types from here. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** Megabytes each at 100k events (npm run bench:ui): each its own request. */
const UNBATCHED = new Set(['run.snapshot', 'run.history']);

export function makeTrpcClient(getActor: () => string) {
  const headers = () => ({ 'x-arborist-actor': getActor() });
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/api/trpc', transformer: superjson }),
        false: splitLink({
          condition: (op) => UNBATCHED.has(op.path),
          true: httpLink({ url: '/api/trpc', transformer: superjson, headers }),
          false: httpBatchLink({ url: '/api/trpc', transformer: superjson, headers }),
        }),
      }),
    ],
  });
}
