/**
 * What a caller may start here, one place for every producer of engine runs (run.create, run.fork, resume): which
 * goals (a code run on a folder of the server is an admin's), which model servers (the operator's list; custom URLs
 * locally or for admins, public addresses only in team mode), and what budget (team mode's daily budget caps a new
 * run's cost and refuses a start when it is spent). The routers authorise who may act on a run (auth/run-access.ts);
 * this says what the action may contain.
 * Not responsible for who the caller is (auth/), the budget's sum (daily-budget.ts) nor the address rules
 * (model-servers.ts).
 */
import { isAdmin, type Principal } from '../../contract/access';
import { goalNamesFolder } from '../../contract/code';
import type { ModelSpec } from '../../contract/model-spec';
import type { ToTConfig } from '../../contract/vocabulary';
import { type ServerEnv, readEnv } from '../core/env';
import { ForbiddenError } from '../core/errors';
import type { Db } from '../db/client';
import { capAtRemainder, refuseWhenSpent, remainingDailyBudget } from './daily-budget';
import { checkModelSpecAllowed, type ResolveHost } from './model-servers';

/** Who starts a run, as the policy sees them. */
export interface Caller {
  /** Team mode (accounts on). */
  team: boolean;
  /** An admin (the local person is one). */
  admin: boolean;
  /** The signed-in user whose daily budget the run spends; null in local mode (no budget). */
  userId: string | null;
}

export function callerOf(who: Principal, team: boolean): Caller {
  return { team, admin: isAdmin(who), userId: who.kind === 'user' ? who.id : null };
}

/** The environment the policy reads (the model servers' list, the daily budget); tests pass their own. */
export type PolicyEnv = Pick<ServerEnv, 'ARBORIST_MODEL_SERVERS' | 'ARBORIST_DAILY_BUDGET_USD'>;

export interface PolicyOptions {
  env?: PolicyEnv;
  resolve?: ResolveHost;
  now?: Date;
}

/**
 * A code run on a local folder reads that folder on the server: only an admin may start one; anyone else picks a
 * benchmark project. A fork or replay of such a run is a new run on the same folder, checked the same way.
 */
export function checkGoalAllowed(caller: Caller, run: { taskId: string; goal: string }): void {
  if (run.taskId === 'code' && goalNamesFolder(run.goal) && !caller.admin) {
    throw new ForbiddenError(
      'only an admin may point a code run at a folder on the server: pick a benchmark project (project: bench/<id>)',
    );
  }
}

/** A model spec this caller may run here: listed servers, and custom URLs only locally or for admins (SSRF). */
export async function checkModelAllowed(caller: Caller, model: ModelSpec, options: PolicyOptions = {}): Promise<void> {
  await checkModelSpecAllowed(model, {
    team: caller.team,
    admin: caller.admin,
    env: options.env ?? readEnv(),
    ...(options.resolve && { resolve: options.resolve }),
  });
}

/** What the caller may still spend today, null when uncapped or not a user. */
export function remainingToday(db: Db, caller: Caller, options: PolicyOptions = {}): Promise<number | null> {
  if (!caller.userId) return Promise.resolve(null);
  return remainingDailyBudget(db, caller.userId, options.now ?? new Date(), options.env ?? readEnv());
}

/** A new run's config capped at what is left of the caller's day; refused (ForbiddenError) when nothing is left. */
export async function budgetedConfig<T extends Partial<ToTConfig>>(
  db: Db,
  caller: Caller,
  config: T,
  options: PolicyOptions = {},
): Promise<T> {
  return capAtRemainder(config, await remainingToday(db, caller, options));
}

/** A run resumed spends its owner's daily budget, whoever resumes it: refused when the owner's day is spent. */
export async function checkResumeAllowed(
  db: Db,
  run: { ownerId: string | null },
  options: PolicyOptions = {},
): Promise<void> {
  if (!run.ownerId) return;
  refuseWhenSpent(await remainingDailyBudget(db, run.ownerId, options.now ?? new Date(), options.env ?? readEnv()));
}

/**
 * Everything a new run must pass: its goal, its model, and the caller's budget (which caps its config). Returns the
 * config to store.
 */
export async function admitNewRun<T extends Partial<ToTConfig>>(
  db: Db,
  caller: Caller,
  run: { taskId: string; goal: string; model: ModelSpec | null; config: T },
  options: PolicyOptions = {},
): Promise<T> {
  checkGoalAllowed(caller, run);
  if (run.model) await checkModelAllowed(caller, run.model, options);
  return budgetedConfig(db, caller, run.config, options);
}
