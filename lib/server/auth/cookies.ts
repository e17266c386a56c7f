/**
 * The two cookies: the session (a signed-in user) and the share (a share link opened in this browser). Both
 * HTTP-only (no script reads them), SameSite=Lax (a cross-site POST does not carry them), Path=/, and Secure when
 * the request came over HTTPS (directly or through a proxy that says so), since a Secure cookie over plain HTTP is
 * dropped by the browser and local mode runs on http://localhost.
 * Not responsible for what the tokens open (sessions.ts, share-links.ts).
 */
import { parseCookie, stringifySetCookie } from 'cookie';

export const SESSION_COOKIE = 'arborist_session';
export const SHARE_COOKIE = 'arborist_share';

export function readCookie(headers: Headers, name: string): string | null {
  const header = headers.get('cookie');
  if (!header) return null;
  return parseCookie(header)[name] ?? null;
}

export function isSecureRequest(request: Pick<Request, 'url' | 'headers'>): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}

export function setCookieHeader(name: string, value: string, expires: Date, secure: boolean): string {
  return stringifySetCookie({ name, value, expires, httpOnly: true, sameSite: 'lax', path: '/', secure });
}

export function clearCookieHeader(name: string, secure: boolean): string {
  return stringifySetCookie({
    name,
    value: '',
    expires: new Date(0),
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
  });
}
