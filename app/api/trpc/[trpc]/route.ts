// The tRPC HTTP handler (queries, mutations, and subscriptions over SSE). Thin: the origin guard and the principal
// come from lib/server/http/admit.ts, the routers live in lib/server.
import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { actorFromHeader, admit, appRouter, createContextInner, isSecureRequest } from '@/lib/server/index';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

async function handler(req: Request) {
  const admitted = await admit(req);
  if (admitted instanceof Response) return admitted;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: ({ resHeaders }) =>
      createContextInner(admitted.services, {
        who: admitted.who,
        auth: admitted.settings,
        actor: actorFromHeader(req.headers.get('x-arborist-actor')),
        requestHeaders: req.headers,
        resHeaders,
        secure: isSecureRequest(req),
      }),
    onError({ error, path }) {
      // 5xx details stay in the server log; the error formatter sends the browser a plain message
      if (error.code === 'INTERNAL_SERVER_ERROR')
        console.error(`[arborist] tRPC ${path ?? '?'} failed:`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
