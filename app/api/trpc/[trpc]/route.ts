// The tRPC HTTP handler (queries, mutations, and subscriptions over SSE). Thin: the routers live in lib/server.
import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { actorFromHeader, appRouter, createContextInner, getServices } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async () =>
      createContextInner(await getServices(), actorFromHeader(req.headers.get('x-arborist-actor'))),
    onError({ error, path }) {
      // 5xx details stay in the server log; the error formatter sends the browser a plain message
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`[arborist] tRPC ${path ?? '?'} failed:`, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
