/**
 * API keys for scripts and the CLI (`Authorization: Bearer ak_...`): shown once when made, stored as their sha256,
 * listed by name and prefix, revocable. A key acts as its user, with the user's role.
 * Not responsible for reading the header (principal.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client';
import { InputError, NotFoundError } from '../core/errors';
import { newToken, sha256 } from './tokens';
import { toUser, USER_SELECT, type UserRecord } from './users';

export const API_KEY_PREFIX = 'ak_';
/** How much of a key lists show: enough to tell keys apart, far too little to use. */
const SHOWN = API_KEY_PREFIX.length + 6;

export interface ApiKeyRecord {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const KEY_SELECT = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/** A new key; `key` is the only time the whole key exists outside the caller's hands. */
export async function createApiKey(
  db: Db,
  userId: string,
  name: string,
): Promise<{ key: string; record: ApiKeyRecord }> {
  const trimmed = name.trim();
  if (!trimmed) throw new InputError('name', 'name the key (what script uses it?)');
  const key = newToken(API_KEY_PREFIX);
  const record = await db.apiKey.create({
    data: { id: randomUUID(), userId, name: trimmed, prefix: key.slice(0, SHOWN), hash: sha256(key) },
    select: KEY_SELECT,
  });
  return { key, record };
}

/** A user's keys (null: everyone's, for admins), newest first. */
export async function listApiKeys(db: Db, userId: string | null): Promise<ApiKeyRecord[]> {
  return db.apiKey.findMany({
    where: userId ? { userId } : {},
    orderBy: { createdAt: 'desc' },
    select: KEY_SELECT,
  });
}

/** Revokes a key; `ownerId` limits it to that user's keys (null: any key, for admins). */
export async function revokeApiKey(db: Db, id: string, ownerId: string | null, now = new Date()): Promise<void> {
  const key = await db.apiKey.findUnique({ where: { id }, select: { userId: true } });
  if (!key || (ownerId && key.userId !== ownerId)) throw new NotFoundError(`no key ${id}`);
  await db.apiKey.update({ where: { id }, data: { revokedAt: now } });
}

/** The active user a key belongs to, or null; marks the key used (at most once a minute, to spare writes). */
export async function userForApiKey(db: Db, key: string, now = new Date()): Promise<UserRecord | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null;
  // asked on every request of a script: the key and its user in one query
  const row = await db.apiKey.findUnique({
    where: { hash: sha256(key) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: USER_SELECT } },
  });
  if (!row || row.revokedAt || row.user.disabledAt) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return toUser(row.user);
}
