/**
 * GET /share/<token>: opening a share link. A live link (signed by us, not revoked, not expired) puts the token in
 * the share cookie (HTTP-only, until the link expires) and redirects to the run's page at the pinned step and node
 * (an experiment's link: to the experiment's page);
 * any other goes to the sign-in page, which says the link no longer works. The cookie, not the URL, carries the
 * token from then on, so the run page's own URL is the same one a teammate with an account would see.
 * Not responsible for what the holder may then do (lib/contract/access.ts).
 */
import { isSecureRequest, setCookieHeader, SHARE_COOKIE } from '../auth/cookies';
import { resolveAnyShareToken } from '../auth/share-links';
import type { Admitted } from './admit';

export async function openShareLinkResponse(admitted: Admitted, request: Request, token: string): Promise<Response> {
  const base = new URL(request.url);
  const found = await resolveAnyShareToken(admitted.services.prisma, admitted.settings.secret, token);
  if (!found) return redirect(new URL('/signin?link=gone', base));
  let target: URL;
  let expiresAt: Date;
  if ('run' in found) {
    const link = found.run;
    target = new URL(`/runs/${encodeURIComponent(link.runId)}`, base);
    if (link.step !== null) target.searchParams.set('step', String(link.step));
    if (link.nodeId !== null) target.searchParams.set('node', link.nodeId);
    expiresAt = link.expiresAt;
  } else {
    target = new URL(`/experiments/${encodeURIComponent(found.experiment.experimentId)}`, base);
    expiresAt = found.experiment.expiresAt;
  }
  const response = redirect(target);
  if (admitted.settings.team) {
    response.headers.append('set-cookie', setCookieHeader(SHARE_COOKIE, token, expiresAt, isSecureRequest(request)));
  }
  return response;
}

function redirect(to: URL): Response {
  // a relative Location: behind a proxy the request's own URL may name an inner host
  return new Response(null, {
    status: 303,
    headers: { location: `${to.pathname}${to.search}`, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}
