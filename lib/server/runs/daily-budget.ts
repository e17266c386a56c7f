/**
 * The per-user daily budget of team mode (ARBORIST_DAILY_BUDGET_USD): what one person's runs may cost per UTC day.
 * `remainingDailyBudget` is what run.create, run.fork and run.resume ask before a run spends: the cap minus the
 * cost of that person's runs created since UTC midnight (runs that are still going count what they have spent so
 * far). The caller caps the run's spend at the remainder (the new run's config.maxCostUsd, or on resume the
 * engine's spendAllowanceUsd) and refuses when nothing is left.
 * Not responsible for who the person is (the auth core) nor for stopping a run at its cap (lib/engine/budget.ts).
 */
import type { Db } from '../db/client';
import { formatCost } from '../../contract/format';
import { readEnv, type ServerEnv } from '../core/env';
import { ForbiddenError } from '../core/errors';
import { sumOwnerCostSince } from '../repositories/spend';

/** Midnight UTC of the day `now` falls in. */
export function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * USD `ownerId` may still spend today (never below 0), or null when no daily cap is set.
 * Runs of a model with no price add nothing to the sum: their spend is unknown, and the run's own header says so.
 */
export async function remainingDailyBudget(
  db: Db,
  ownerId: string,
  now: Date,
  env: Pick<ServerEnv, 'ARBORIST_DAILY_BUDGET_USD'> = readEnv(),
): Promise<number | null> {
  const cap = env.ARBORIST_DAILY_BUDGET_USD;
  if (cap === undefined) return null;
  const spent = await sumOwnerCostSince(db, ownerId, utcMidnight(now));
  return Math.max(0, cap - spent);
}

/**
 * A new run's config capped at what is left of the day (run.create, run.fork): its own maxCostUsd when that is
 * lower, else the remainder. Unchanged when there is no daily cap (`remaining` null). Refuses (ForbiddenError) when
 * nothing is left. On resume, pass the remainder to the engine as spendAllowanceUsd instead (the config is in the
 * run's log), after the same refusal.
 */
export function capAtRemainder<T extends { maxCostUsd?: number | null }>(config: T, remaining: number | null): T {
  if (remaining === null) return config;
  refuseWhenSpent(remaining);
  const own = config.maxCostUsd ?? null;
  return { ...config, maxCostUsd: own === null ? remaining : Math.min(own, remaining) };
}

/** Throws when the day's budget is spent (a remainder of 0); null (no cap) passes. */
export function refuseWhenSpent(remaining: number | null): void {
  // below a hundredth of a cent no call can be made anyway
  if (remaining !== null && remaining < 0.0001) {
    throw new ForbiddenError(
      `today's model budget is spent (${formatCost(remaining)} left): runs can start again after 00:00 UTC, or an admin can raise ARBORIST_DAILY_BUDGET_USD`,
    );
  }
}
