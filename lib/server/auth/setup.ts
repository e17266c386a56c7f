/**
 * Team mode's first start: the first admin comes from ARBORIST_ADMIN_EMAIL / ARBORIST_ADMIN_PASSWORD, or, when those
 * are unset, from the setup page, which asks for a one-time code printed in the server's log (so whoever reaches
 * the port first cannot make themselves admin; the operator can read the log). The code lives in this process only
 * and dies with the first admin.
 * Not responsible for users themselves (users.ts).
 */
import { randomInt } from 'node:crypto';
import type { Db } from '../db/client';
import { ConflictError, ForbiddenError } from '../core/errors';
import { countUsers, createUser, ensureFirstAdmin, type UserRecord } from './users';

const state = globalThis as typeof globalThis & { arboristSetupCode?: string | null };

/** Makes the first admin from the environment or announces the setup code; called once as the services start. */
export async function prepareTeamMode(
  db: Db,
  env: { ARBORIST_ADMIN_EMAIL?: string; ARBORIST_ADMIN_PASSWORD?: string },
  log: (message: string) => void,
): Promise<void> {
  const outcome = await ensureFirstAdmin(db, env);
  if (outcome === 'created') log(`team mode: created the first admin, ${env.ARBORIST_ADMIN_EMAIL}`);
  if (outcome !== 'setup-needed') return;
  state.arboristSetupCode ??= Array.from({ length: 3 }, () => String(randomInt(0, 10_000)).padStart(4, '0')).join('-');
  log(`team mode: no user yet. Open /setup and enter the code ${state.arboristSetupCode} to make the first admin.`);
}

export async function setupNeeded(db: Db): Promise<boolean> {
  return (await countUsers(db)) === 0;
}

export async function completeSetup(
  db: Db,
  code: string,
  input: { email: string; name?: string; password: string },
): Promise<UserRecord> {
  if (!(await setupNeeded(db))) throw new ConflictError('setup is done: sign in instead');
  if (!state.arboristSetupCode || code.trim() !== state.arboristSetupCode) {
    throw new ForbiddenError('that is not the setup code printed in the server log');
  }
  const user = await createUser(db, { ...input, role: 'admin' });
  state.arboristSetupCode = null;
  return user;
}
