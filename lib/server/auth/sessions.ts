/**
 * Browser sessions: a random token in an HTTP-only cookie, its sha256 as the row's id, a fixed lifetime. Server-side
 * rows (not a sealed cookie) so signing out, disabling a user or an admin's reset ends a session at once.
 * Not responsible for the cookie's attributes (cookies.ts) or for who the user is (users.ts).
 */
import type { Db } from '../db/client';
import { newToken, sha256 } from './tokens';
import { toUser, USER_SELECT, type UserRecord } from './users';

export const SESSION_DAYS = 14;

/** A new session: the token goes in the cookie, never anywhere else. */
export async function createSession(
  db: Db,
  userId: string,
  now = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 3600_000);
  await db.session.create({ data: { id: sha256(token), userId, expiresAt } });
  // an expired row is of no use to anyone: sweep the user's old ones while here
  await db.session.deleteMany({ where: { userId, expiresAt: { lt: now } } });
  return { token, expiresAt };
}

/** The active user a session token belongs to, or null (unknown, expired, or the user is disabled). */
export async function userForSession(db: Db, token: string, now = new Date()): Promise<UserRecord | null> {
  // asked on every request of a signed-in browser: the session and its user in one query
  const session = await db.session.findUnique({
    where: { id: sha256(token) },
    select: { expiresAt: true, user: { select: USER_SELECT } },
  });
  if (!session || session.expiresAt < now || session.user.disabledAt) return null;
  return toUser(session.user);
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sha256(token) } });
}
