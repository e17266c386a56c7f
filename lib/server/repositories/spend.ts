/**
 * Spend: what a user's runs have cost since a moment, for the daily budget (lib/server/daily-budget.ts). Runs they
 * imported are not counted (importing spends nothing of the operator's), nor are runs staged by an import.
 * Not responsible for the cap or the day's boundary (daily-budget.ts).
 */
import type { Db } from '../db/client';

/** The sum of Run.cost of `ownerId`'s own runs created at or after `since` (0 when none). */
export async function sumOwnerCostSince(db: Db, ownerId: string, since: Date): Promise<number> {
  const result = await db.run.aggregate({
    where: { ownerId, createdAt: { gte: since }, importTag: null, importJobId: null },
    _sum: { cost: true },
  });
  return result._sum.cost ?? 0;
}
