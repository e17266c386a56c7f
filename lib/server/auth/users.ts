/**
 * Users of team mode: create, list, change role, disable, sign in by email and password, and the first admin
 * (from ARBORIST_ADMIN_EMAIL / ARBORIST_ADMIN_PASSWORD at start, or the one-time setup page).
 * Not responsible for sessions or keys (sessions.ts, api-keys.ts) nor for who may call these (the routers).
 */
import { randomUUID } from 'node:crypto';
import { MIN_PASSWORD_LENGTH, type Role } from '../../contract/access';
import type { Db } from '../db/client';
import { ConflictError, InputError } from '../core/errors';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  disabledAt: Date | null;
}

export const USER_SELECT = {
  id: true,
  email: true,
  name: true,
  role: true,
  createdAt: true,
  disabledAt: true,
} as const;

export function toUser(row: { role: string } & Omit<UserRecord, 'role'>): UserRecord {
  // written only through createUser/setRole, which take a Role
  return { ...row, role: row.role as Role };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewUser {
  email: string;
  name?: string;
  role: Role;
  password: string;
}

export async function createUser(db: Db, input: NewUser): Promise<UserRecord> {
  if (input.password.length < MIN_PASSWORD_LENGTH)
    throw new InputError('password', `at least ${MIN_PASSWORD_LENGTH} characters`);
  const email = normalizeEmail(input.email);
  if (await db.user.findUnique({ where: { email }, select: { id: true } }))
    throw new ConflictError(`${email} already has an account`);
  const row = await db.user.create({
    data: {
      id: randomUUID(),
      email,
      name: input.name?.trim() || email.split('@')[0]!,
      role: input.role,
      passwordHash: await hashPassword(input.password),
    },
    select: USER_SELECT,
  });
  return toUser(row);
}

export async function countUsers(db: Db): Promise<number> {
  return db.user.count();
}

export async function listUsers(db: Db): Promise<UserRecord[]> {
  return (await db.user.findMany({ orderBy: { createdAt: 'asc' }, select: USER_SELECT })).map(toUser);
}

export async function getUser(db: Db, id: string): Promise<UserRecord | null> {
  const row = await db.user.findUnique({ where: { id }, select: USER_SELECT });
  return row ? toUser(row) : null;
}

/** The emails of these users by id (who made a key or a link); ids of deleted users are left out. */
export async function emailsByUserId(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, email: true } });
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** The user an email and password name, or null (same answer, and about the same time, for either being wrong). */
export async function checkPassword(db: Db, email: string, password: string): Promise<UserRecord | null> {
  const row = await db.user.findUnique({
    where: { email: normalizeEmail(email) },
    select: { ...USER_SELECT, passwordHash: true },
  });
  const ok = await verifyPassword(password, row?.passwordHash ?? (await dummyPasswordHash()));
  if (!row || !ok || row.disabledAt) return null;
  const { passwordHash: _, ...user } = row;
  return toUser(user);
}

/** Admins change roles and disable users; the last active admin cannot be demoted or disabled (nobody could undo it). */
export async function updateUser(db: Db, id: string, change: { role?: Role; disabled?: boolean }): Promise<UserRecord> {
  const user = await getUser(db, id);
  if (!user) throw new InputError('id', `no user ${id}`);
  const losesAdmin =
    user.role === 'admin' && !user.disabledAt && (change.disabled || (change.role && change.role !== 'admin'));
  if (losesAdmin) {
    const admins = await db.user.count({ where: { role: 'admin', disabledAt: null } });
    if (admins <= 1) throw new ConflictError('this is the last admin: make another admin first');
  }
  const row = await db.user.update({
    where: { id },
    data: {
      ...(change.role && { role: change.role }),
      ...(change.disabled !== undefined && { disabledAt: change.disabled ? new Date() : null }),
    },
    select: USER_SELECT,
  });
  if (change.disabled) {
    // a disabled user is signed out everywhere at once
    await db.session.deleteMany({ where: { userId: id } });
  }
  return toUser(row);
}

/**
 * The first admin from the environment, when there is no user yet. Returns what it did, for the start-up log (never
 * the password).
 */
export async function ensureFirstAdmin(
  db: Db,
  env: { ARBORIST_ADMIN_EMAIL?: string; ARBORIST_ADMIN_PASSWORD?: string },
): Promise<'created' | 'exists' | 'setup-needed'> {
  if ((await countUsers(db)) > 0) return 'exists';
  if (!env.ARBORIST_ADMIN_EMAIL || !env.ARBORIST_ADMIN_PASSWORD) return 'setup-needed';
  await createUser(db, {
    email: env.ARBORIST_ADMIN_EMAIL,
    role: 'admin',
    password: env.ARBORIST_ADMIN_PASSWORD,
    name: 'admin',
  });
  return 'created';
}
