/**
 * Team mode's first start: the first admin comes from ARBORIST_ADMIN_EMAIL / ARBORIST_ADMIN_PASSWORD, or, when those
 * are unset, from the setup page, which asks for a one-time code printed in the server's log (so whoever reaches
 * the port first cannot make themselves admin; the operator can read the log). The code is kept in the database as
 * its HMAC with ARBORIST_SECRET (a SetupCode row), so any instance of a cluster accepts a code another printed, and
 * a read of the database alone cannot try the 10^12 codes offline; every code goes when the first admin is made.
 * Not responsible for users themselves (users.ts).
 */
import { createHmac, randomInt } from 'node:crypto';
import { type Db, databaseKindOf } from '../db/client';
import { ConflictError, ForbiddenError } from '../core/errors';
import { countUsers, createUser, ensureFirstAdmin, type UserRecord } from './users';

function codeHash(secret: string, code: string): string {
  return createHmac('sha256', secret).update(`arborist.setup.v1:${code}`).digest('hex');
}

/**
 * Makes the first admin from the environment or announces a setup code; called once as the services start. Each start
 * that finds no user prints a code of its own. On PostgreSQL the codes other instances printed stay good (they are
 * running, and their operator may be reading their log); SQLite is one process, so a code an earlier start printed is
 * a dead process's and goes, as it did when the code lived in memory.
 */
export async function prepareTeamMode(
  db: Db,
  env: { ARBORIST_ADMIN_EMAIL?: string; ARBORIST_ADMIN_PASSWORD?: string; ARBORIST_SECRET?: string },
  log: (message: string) => void,
): Promise<void> {
  const outcome = await ensureFirstAdmin(db, env);
  if (outcome === 'created') log(`team mode: created the first admin, ${env.ARBORIST_ADMIN_EMAIL}`);
  if (outcome !== 'setup-needed') return;
  // env.ts refuses team mode without a secret: this is only for a caller that skipped it
  if (!env.ARBORIST_SECRET) throw new Error('team mode needs ARBORIST_SECRET');
  const code = Array.from({ length: 3 }, () => String(randomInt(0, 10_000)).padStart(4, '0')).join('-');
  if (databaseKindOf(db) === 'sqlite') await db.setupCode.deleteMany();
  await db.setupCode.create({ data: { hash: codeHash(env.ARBORIST_SECRET, code) }, select: { hash: true } });
  log(`team mode: no user yet. Open /setup and enter the code ${code} to make the first admin.`);
}

export async function setupNeeded(db: Db): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

/** Makes the first admin when `code` is a stored setup code; `secret` is ARBORIST_SECRET (the code's HMAC key). */
export async function completeSetup(
  db: Db,
  secret: string,
  code: string,
  input: { email: string; name?: string; password: string },
): Promise<UserRecord> {
  if (!(await setupNeeded(db))) throw new ConflictError('setup is done: sign in instead');
  // One statement takes every code when the one given is among them, so a code is used once and two setups at once
  // (with one code, or with the codes of two instances) make one admin: on PostgreSQL the second DELETE waits on the
  // rows the first deleted and, once that commits, finds them gone (0 rows); SQLite runs one write at a time.
  const taken = await db.$executeRaw`
    DELETE FROM "SetupCode" WHERE EXISTS (SELECT 1 FROM "SetupCode" WHERE "hash" = ${codeHash(secret, code.trim())})`;
  if (taken === 0) {
    // a setup that won meanwhile left no code: say so rather than "wrong code"
    if (!(await setupNeeded(db))) throw new ConflictError('setup is done: sign in instead');
    throw new ForbiddenError('that is not the setup code printed in the server log');
  }
  // the codes are gone before the admin exists: a failure here leaves neither, and the next start prints a new code
  return createUser(db, { ...input, role: 'admin' });
}
