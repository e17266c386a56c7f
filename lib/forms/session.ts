/**
 * The sign-in and sharing pages' small rules, free of React: where sign-in may send a person afterwards (this
 * site's own paths only, so a crafted `?next=` cannot bounce them to another site), the sign-in address that brings
 * them back, a share link's state as its list shows it, and the expiry field's parsing.
 * Not responsible for who may do what (lib/contract/access.ts) nor for signing links (the server).
 */

/** Where sign-in goes next: a path of this site (one leading slash, no scheme, no `//host`, no backslash), or `/`. */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || raw.length > 2_000) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  // a control character could hide a scheme or a host from the checks above
  if ([...raw].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return '/';
  // URL resolution is the judge: the result must stay on the placeholder origin
  const base = 'http://same.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return '/';
  }
  if (url.origin !== base) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The pages a person who is not signed in may still see. */
export const PUBLIC_PATHS = ['/signin', '/setup'] as const;

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** The sign-in page, asked to come back to the page now open (path and query). */
export function signInPath(pathname: string, search: string): string {
  const here = `${pathname}${search && !search.startsWith('?') ? `?${search}` : search}`;
  return here === '/' ? '/signin' : `/signin?next=${encodeURIComponent(here)}`;
}

export type ShareLinkState = 'active' | 'expired' | 'revoked';

/** A link's state: revoked wins over expired (a person revoked it on purpose). */
export function shareLinkState(
  link: { expiresAt: Date | string; revokedAt: Date | string | null },
  now: number,
): ShareLinkState {
  if (link.revokedAt !== null) return 'revoked';
  return new Date(link.expiresAt).getTime() <= now ? 'expired' : 'active';
}

/** The share dialog's expiry bounds (the server's: lib/server/auth/share-links.ts MAX_SHARE_DAYS). */
export const SHARE_DAYS = { min: 1, max: 90, default: 7 } as const;

/** The expiry field as typed: whole days within the bounds, or the words saying what is wrong. */
export function parseShareDays(text: string): { days: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return { error: `a whole number of days, ${SHARE_DAYS.min} to ${SHARE_DAYS.max}` };
  const days = Number(trimmed);
  if (days < SHARE_DAYS.min || days > SHARE_DAYS.max)
    return { error: `between ${SHARE_DAYS.min} and ${SHARE_DAYS.max} days` };
  return { days };
}
