/**
 * Secrets that travel: random tokens (session cookies, API keys), stored only as their sha256, and the signed form
 * of a share link (HMAC-SHA256 with ARBORIST_SECRET), so a link cannot be made up or edited without the secret.
 * Not responsible for what a token opens (sessions.ts, api-keys.ts, share-links.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes as base64url, optionally after a prefix that says what the token is ("ak_" for API keys). */
export function newToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function mac(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(`arborist.share.v1:${body}`).digest();
}

/** "<id>.<signature>": the link's row id, signed. The row holds expiry and revocation. */
export function signShareToken(secret: string, linkId: string): string {
  return `${linkId}.${mac(secret, linkId).toString('base64url')}`;
}

/** The row id a token names, or null when it is malformed or its signature is not ours. */
export function verifyShareToken(secret: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || token.length > 300) return null;
  const linkId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = mac(secret, linkId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? linkId : null;
}
