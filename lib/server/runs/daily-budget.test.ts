/**
 * The daily budget on real SQLite and PostgreSQL (the day's boundary is a DateTime comparison in each): a person's runs created since UTC midnight are summed (another person's, the
 * day before's, imported and staged runs are not), the remainder never goes below 0, and no cap means null.
 */
import { describe, expect, it } from 'vitest';
import { capAtRemainder, remainingDailyBudget, utcMidnight } from './daily-budget';
import { createRun } from '../run-log/run-rows';
import { BACKENDS, sampleRunInput, sharedTestDb } from '../testing/db';

const NOW = new Date('2026-11-30T18:30:00Z');

describe.each(BACKENDS)('remainingDailyBudget (%s)', (backend) => {
  const db = sharedTestDb(backend);

  async function run(id: string, fields: { ownerId: string; cost: number; createdAt: string; importTag?: string }) {
    await createRun(
      db.prisma,
      sampleRunInput(id, { createdAt: new Date(fields.createdAt), importTag: fields.importTag }),
    );
    await db.prisma.run.update({ where: { id }, data: { ownerId: fields.ownerId, cost: fields.cost } });
  }

  it("subtracts the cost of the person's own runs created since UTC midnight from the cap", async () => {
    const env = { ARBORIST_DAILY_BUDGET_USD: 5 };
    expect(await remainingDailyBudget(db.prisma, 'ann', NOW, env)).toBe(5);
    await run('r1', { ownerId: 'ann', cost: 1.25, createdAt: '2026-11-30T00:00:00Z' }); // midnight counts
    await run('r2', { ownerId: 'ann', cost: 0.5, createdAt: '2026-11-30T18:00:00Z' });
    await run('r3', { ownerId: 'ann', cost: 9, createdAt: '2026-11-29T23:59:59Z' }); // yesterday
    await run('r4', { ownerId: 'bob', cost: 3, createdAt: '2026-11-30T10:00:00Z' }); // someone else
    await run('r5', { ownerId: 'ann', cost: 4, createdAt: '2026-11-30T10:00:00Z', importTag: 'imported' });
    expect(await remainingDailyBudget(db.prisma, 'ann', NOW, env)).toBeCloseTo(3.25, 10);
    expect(await remainingDailyBudget(db.prisma, 'bob', NOW, env)).toBeCloseTo(2, 10);
    // the next UTC day starts afresh
    expect(await remainingDailyBudget(db.prisma, 'ann', new Date('2026-12-01T00:00:01Z'), env)).toBe(5);
  });

  it('never goes below 0, and is null when no cap is set', async () => {
    await run('r1', { ownerId: 'ann', cost: 7, createdAt: '2026-11-30T09:00:00Z' });
    expect(await remainingDailyBudget(db.prisma, 'ann', NOW, { ARBORIST_DAILY_BUDGET_USD: 5 })).toBe(0);
    expect(await remainingDailyBudget(db.prisma, 'ann', NOW, { ARBORIST_DAILY_BUDGET_USD: undefined })).toBeNull();
  });
});

describe('the daily budget without a database', () => {
  it('counts a day from UTC midnight whatever the local zone', () => {
    expect(utcMidnight(new Date('2026-11-30T23:59:59.999Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(utcMidnight(new Date('2026-12-01T00:00:00.000Z')).toISOString()).toBe('2026-12-01T00:00:00.000Z');
  });

  it("caps a new run's config at the remainder, keeps a lower cap of its own, and refuses when nothing is left", () => {
    expect(capAtRemainder({ maxTotalNodes: 9, maxCostUsd: null }, 2)).toEqual({ maxTotalNodes: 9, maxCostUsd: 2 });
    expect(capAtRemainder({ maxCostUsd: 0.5 }, 2)).toEqual({ maxCostUsd: 0.5 });
    expect(capAtRemainder({ maxCostUsd: 5 }, 2)).toEqual({ maxCostUsd: 2 });
    expect(capAtRemainder({}, null)).toEqual({});
    expect(() => capAtRemainder({}, 0)).toThrow(/today's model budget is spent/);
    const refusal = (() => {
      try {
        capAtRemainder({}, 0);
      } catch (error) {
        return error as Error;
      }
      return null;
    })();
    expect(refusal?.name).toBe('ForbiddenError');
  });
});
