/**
 * The per-user daily budget of team mode (ARBORIST_DAILY_BUDGET_USD, and ARBORIST_DAILY_TOKEN_BUDGET for models with
 * no price): what one person's runs may spend per UTC day, whichever instance runs them.
 * - `remainingDailyBudget` is what run.create, run.fork and run.resume ask before a run spends: the cap minus the
 *   day's spend. The caller caps the run's spend at the remainder (the new run's config.maxCostUsd, or on resume the
 *   engine's spendAllowanceUsd) and refuses when nothing is left.
 * - `dailySpendGate` holds while the runs go: each model call holds its estimate against the day in the database
 *   before it is made and settles at what it cost (repositories/spend.ts), so runs started together, on one
 *   instance or several, cannot each spend the whole remainder. The day's spend never passes the cap by more than
 *   the calls in flight (estimates are guesses: a call may cost more than its estimate).
 * The day's spend is the larger of the ledger (calls settled and held today) and the cost of the person's runs
 * created today (their rows: what was spent before the ledger, or by a path that does not hold).
 * Not responsible for who the person is (the auth core) nor for stopping a run at its cap (lib/engine/budget.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Db, PrismaClient } from '../db/client';
import { formatCost } from '../../contract/format';
import { BudgetReached, type CallSpend, type SpendGate, type SpendHold } from '../../engine/server';
import { readEnv, type ServerEnv } from '../core/env';
import { ForbiddenError } from '../core/errors';
import { type DayLedger, dayLedger, holdSpend, settleSpend, sumOwnerCostSince } from '../repositories/spend';

type BudgetEnv = Pick<ServerEnv, 'ARBORIST_DAILY_BUDGET_USD' | 'ARBORIST_DAILY_TOKEN_BUDGET'>;

/**
 * How long a call's hold counts if it is never settled (its instance died mid-call): longer than any call may take.
 * A model spec's timeout is at most 10 minutes (lib/contract/model-spec.ts) and a call is retried a few times.
 */
export const SPEND_HOLD_MS = 30 * 60_000;

/** Midnight UTC of the day `now` falls in. */
export function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The UTC day `now` falls in, as the ledger names it (YYYY-MM-DD). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The day's spend in USD: calls settled and held in the ledger, or the runs' rows when they say more. */
async function spentToday(db: Db, ownerId: string, now: Date): Promise<{ usd: number; ledger: DayLedger }> {
  const [ledger, rows] = await Promise.all([
    dayLedger(db, ownerId, utcDay(now), now),
    sumOwnerCostSince(db, ownerId, utcMidnight(now)),
  ]);
  return { usd: Math.max(ledger.usd + ledger.heldUsd, rows), ledger };
}

/**
 * USD `ownerId` may still spend today (never below 0), or null when no daily cap is set.
 * Runs of a model with no price add nothing to it: they count against ARBORIST_DAILY_TOKEN_BUDGET (dailySpendGate).
 */
export async function remainingDailyBudget(
  db: Db,
  ownerId: string,
  now: Date,
  env: Pick<ServerEnv, 'ARBORIST_DAILY_BUDGET_USD'> = readEnv(),
): Promise<number | null> {
  const cap = env.ARBORIST_DAILY_BUDGET_USD;
  if (cap === undefined) return null;
  return Math.max(0, cap - (await spentToday(db, ownerId, now)).usd);
}

/**
 * The gate of `ownerId`'s run (null when no daily budget is set): each call held against the day before it is made.
 * A priced call counts its USD estimate against ARBORIST_DAILY_BUDGET_USD; a call of a model with no price counts
 * its tokens against ARBORIST_DAILY_TOKEN_BUDGET, and is refused when only a USD budget is set (its cost could not
 * be counted, so the budget could not hold).
 */
export function dailySpendGate(
  prisma: PrismaClient,
  ownerId: string,
  env: BudgetEnv = readEnv(),
  clock: () => Date = () => new Date(),
): SpendGate | null {
  const usdCap = env.ARBORIST_DAILY_BUDGET_USD ?? null;
  const tokenCap = env.ARBORIST_DAILY_TOKEN_BUDGET ?? null;
  if (usdCap === null && tokenCap === null) return null;
  return {
    async hold(estimate: CallSpend): Promise<SpendHold> {
      const now = clock();
      const day = utcDay(now);
      if (estimate.usd === null && tokenCap === null) {
        throw new BudgetReached(usdCap ?? 0, 0, 0, 0, unpricedRefusal());
      }
      const usd = estimate.usd ?? 0;
      const tokens = estimate.usd === null ? estimate.tokens : 0;
      const id = randomUUID();
      // what the runs' rows say was spent today, read before the lock: it only ever lags the ledger, except for
      // spend the ledger never saw (before it existed), which must count too
      const rowsUsd = usd > 0 ? await sumOwnerCostSince(prisma, ownerId, utcMidnight(now)) : 0;
      let refusal: BudgetReached | null = null;
      const { held } = await holdSpend(prisma, {
        id,
        ownerId,
        day,
        usd,
        tokens,
        now,
        expiresAt: new Date(now.getTime() + SPEND_HOLD_MS),
        fits: (ledger) => {
          refusal = overCap(ledger, rowsUsd, { usd, tokens }, usdCap, tokenCap);
          return refusal === null;
        },
      });
      if (!held) throw refusal ?? new BudgetReached(usdCap ?? 0, 0, 0, usd);
      return {
        async settle(actual: CallSpend) {
          await settleSpend(prisma, {
            id,
            ownerId,
            day,
            usd: actual.usd ?? 0,
            tokens: actual.usd === null ? actual.tokens : 0,
          }).catch((error: unknown) => {
            // the hold stays and lapses after SPEND_HOLD_MS: the day counts the estimate instead of the cost
            console.error('[arborist] settling a model call against the daily budget failed:', error);
          });
        },
      };
    },
  };
}

/** Why a call would pass a cap, given the day's ledger (null: it fits). */
function overCap(
  ledger: DayLedger,
  rowsUsd: number,
  call: { usd: number; tokens: number },
  usdCap: number | null,
  tokenCap: number | null,
): BudgetReached | null {
  const spent = Math.max(ledger.usd, rowsUsd);
  if (usdCap !== null && call.usd > 0 && spent + ledger.heldUsd + call.usd > usdCap) {
    return new BudgetReached(
      usdCap,
      spent,
      ledger.heldUsd,
      call.usd,
      `today's model budget of ${formatCost(usdCap)} is reached: ${formatCost(spent)} spent and ` +
        `${formatCost(ledger.heldUsd)} on calls in flight, and the next call would cost about ${formatCost(call.usd)}`,
    );
  }
  if (tokenCap !== null && call.tokens > 0 && ledger.tokens + ledger.heldTokens + call.tokens > tokenCap) {
    return new BudgetReached(
      0,
      0,
      0,
      0,
      `today's token budget of ${tokenCap.toLocaleString('en-US')} tokens for models with no price is reached: ` +
        `${ledger.tokens.toLocaleString('en-US')} spent and ${ledger.heldTokens.toLocaleString('en-US')} on calls ` +
        `in flight, and the next call would take about ${call.tokens.toLocaleString('en-US')}`,
    );
  }
  return null;
}

function unpricedRefusal(): string {
  return (
    'this model has no price, so its cost cannot count against the daily budget: an admin can set its price ' +
    '(ARBORIST_PRICES) or a token budget for such models (ARBORIST_DAILY_TOKEN_BUDGET)'
  );
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
