/**
 * Spend: what a user's runs have cost on a day, for the daily budget (lib/server/runs/daily-budget.ts).
 * - `sumOwnerCostSince`: the committed cost of their runs created since a moment (the runs' own rows). Runs they
 *   imported are not counted (importing spends nothing of the operator's), nor are runs staged by an import.
 * - The ledger (`DailySpend`, `SpendHold`): each model call of their runs holds its estimate before it is made
 *   (`holdSpend`, refused past the caps) and adds what it cost when it settles (`settleSpend`), on any instance. A
 *   hold is decided in a transaction that PostgreSQL serialises per person and day with an advisory lock (two
 *   instances cannot both read "room for one more" and both take it); SQLite's one connection runs its
 *   transactions one at a time.
 * Not responsible for the caps, the day's boundary or the estimates (daily-budget.ts, lib/engine/budget.ts).
 */
import { type Db, type PrismaClient, databaseKindOf } from '../db/client';

/** The sum of Run.cost of `ownerId`'s own runs created at or after `since` (0 when none). */
export async function sumOwnerCostSince(db: Db, ownerId: string, since: Date): Promise<number> {
  const result = await db.run.aggregate({
    where: { ownerId, createdAt: { gte: since }, importTag: null, importJobId: null },
    _sum: { cost: true },
  });
  return result._sum.cost ?? 0;
}

/** A person's day in the ledger: settled calls, and the holds of calls in flight (lapsed holds not counted). */
export interface DayLedger {
  usd: number;
  tokens: number;
  heldUsd: number;
  heldTokens: number;
}

export async function dayLedger(db: Db, ownerId: string, day: string, now: Date): Promise<DayLedger> {
  const [settled, held] = await Promise.all([
    db.dailySpend.findUnique({ where: { ownerId_day: { ownerId, day } } }),
    db.spendHold.aggregate({ where: { ownerId, day, expiresAt: { gt: now } }, _sum: { usd: true, tokens: true } }),
  ]);
  return {
    usd: settled?.usd ?? 0,
    tokens: settled?.tokens ?? 0,
    heldUsd: held._sum.usd ?? 0,
    heldTokens: Number(held._sum.tokens ?? 0),
  };
}

export interface HoldRequest {
  id: string;
  ownerId: string;
  day: string;
  usd: number;
  tokens: number;
  now: Date;
  expiresAt: Date;
  /**
   * Whether the hold fits, given the day's ledger as it is inside the lock (settled, held, and anything else the
   * caller counts): the caps' rule is daily-budget.ts's.
   */
  fits: (ledger: DayLedger) => boolean;
}

/** Holds `usd` and `tokens` against the person's day when `fits` says so; the ledger it decided on either way. */
export async function holdSpend(
  prisma: PrismaClient,
  request: HoldRequest,
): Promise<{ held: boolean; ledger: DayLedger }> {
  const { id, ownerId, day, usd, tokens, now, expiresAt } = request;
  return prisma.$transaction(async (tx) => {
    if (databaseKindOf(prisma) === 'postgresql') {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`spend:${ownerId}:${day}`}, 0))`;
    }
    // lapsed holds (their instance died mid-call) go while the lock is held: nothing else reads them
    await tx.spendHold.deleteMany({ where: { ownerId, expiresAt: { lte: now } } });
    const ledger = await dayLedger(tx, ownerId, day, now);
    if (!request.fits(ledger)) return { held: false, ledger };
    await tx.spendHold.create({ data: { id, ownerId, day, usd, tokens, expiresAt } });
    return { held: true, ledger };
  });
}

/** Replaces a hold by what its call cost: the hold deleted and the cost added to its day, in one transaction. */
export async function settleSpend(
  prisma: PrismaClient,
  settle: { id: string; ownerId: string; day: string; usd: number; tokens: number },
): Promise<void> {
  const { id, ownerId, day, usd, tokens } = settle;
  await prisma.$transaction([
    prisma.spendHold.deleteMany({ where: { id } }),
    // one statement either way: an UPDATE adds to the row, so concurrent settles never lose one another's cost
    prisma.$executeRaw`INSERT INTO "DailySpend" ("ownerId", "day", "usd", "tokens") VALUES (${ownerId}, ${day}, ${usd}, ${tokens})
      ON CONFLICT ("ownerId", "day") DO UPDATE SET "usd" = "DailySpend"."usd" + excluded."usd",
      "tokens" = "DailySpend"."tokens" + excluded."tokens"`,
  ]);
}
