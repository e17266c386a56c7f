/**
 * The daily budget while runs go (dailySpendGate), on real SQLite and PostgreSQL: each call's estimate is held in the
 * database before the call, so calls made at once, by runs on one instance or on two, never take the day past its cap;
 * a settled call counts what it cost; a hold whose instance died lapses; a model with no price counts tokens against
 * the token budget or is refused. End to end, three runs of one person started together spend about the cap, not
 * three times it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPrismaClient } from '../db/client';
import { dayLedger } from '../repositories/spend';
import { BACKENDS, sharedTestDb } from '../testing/db';
import { servicesPerTest } from '../testing/services';
import { SPEND_HOLD_MS, dailySpendGate, utcDay } from './daily-budget';

const NOW = new Date('2026-12-07T12:00:00Z');
const DAY = utcDay(NOW);
const usdBudget = (cap: number) => ({ ARBORIST_DAILY_BUDGET_USD: cap, ARBORIST_DAILY_TOKEN_BUDGET: undefined });

/** Tries every hold at once; how many were held and the refusals' messages. */
async function holdAll(holds: Promise<unknown>[]) {
  const results = await Promise.allSettled(holds);
  return {
    held: results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<unknown>).value),
    refused: results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
  };
}

describe.each(BACKENDS)('dailySpendGate (%s)', (backend) => {
  const db = sharedTestDb(backend);

  it('lets calls made at once hold only what the cap has room for, and counts what settled calls cost', async () => {
    const gate = dailySpendGate(db.prisma, 'ann', usdBudget(0.0105), () => NOW);
    expect(gate).not.toBeNull();
    const { held, refused } = await holdAll(Array.from({ length: 25 }, () => gate!.hold({ usd: 0.001, tokens: 500 })));
    expect(held).toHaveLength(10);
    expect(refused).toHaveLength(15);
    expect(refused[0]).toMatch(/today's model budget of \$0\.01\d* is reached: .* on calls in flight/);
    expect(await dayLedger(db.prisma, 'ann', DAY, NOW)).toMatchObject({ usd: 0, heldTokens: 0 });
    expect((await dayLedger(db.prisma, 'ann', DAY, NOW)).heldUsd).toBeCloseTo(0.01, 9);

    // each settles cheaper than its estimate: the day counts the real cost, and room for one more call opens
    for (const hold of held as { settle: (c: { usd: number; tokens: number }) => Promise<void> }[]) {
      await hold.settle({ usd: 0.0009, tokens: 450 });
    }
    const ledger = await dayLedger(db.prisma, 'ann', DAY, NOW);
    expect(ledger.usd).toBeCloseTo(0.009, 9);
    expect(ledger.heldUsd).toBe(0);
    await gate!.hold({ usd: 0.001, tokens: 500 });
    await expect(gate!.hold({ usd: 0.001, tokens: 500 })).rejects.toThrow(/budget .* is reached/);
    // another person's day is their own
    await dailySpendGate(db.prisma, 'bob', usdBudget(0.0105), () => NOW)!.hold({ usd: 0.01, tokens: 1 });
  });

  it('stops counting a hold whose call never settled once it lapses', async () => {
    let now = NOW;
    const gate = dailySpendGate(db.prisma, 'ann', usdBudget(0.001), () => now)!;
    await gate.hold({ usd: 0.001, tokens: 1 }); // its instance dies: never settled
    await expect(gate.hold({ usd: 0.001, tokens: 1 })).rejects.toThrow(/is reached/);
    now = new Date(NOW.getTime() + SPEND_HOLD_MS + 1);
    await gate.hold({ usd: 0.001, tokens: 1 });
    expect(await db.prisma.spendHold.count()).toBe(1); // the lapsed one deleted on the way
  });

  it('counts a model with no price in tokens against the token budget, and refuses it when there is none', async () => {
    const usdOnly = dailySpendGate(db.prisma, 'ann', usdBudget(5), () => NOW)!;
    await expect(usdOnly.hold({ usd: null, tokens: 100 })).rejects.toThrow(
      /this model has no price, so its cost cannot count against the daily budget/,
    );
    const tokens = dailySpendGate(db.prisma, 'ann', { ARBORIST_DAILY_TOKEN_BUDGET: 1_000 }, () => NOW)!;
    const { held, refused } = await holdAll([1, 2, 3].map(() => tokens.hold({ usd: null, tokens: 400 })));
    expect(held).toHaveLength(2);
    expect(refused[0]).toMatch(/today's token budget of 1,000 tokens for models with no price is reached/);
    expect(dailySpendGate(db.prisma, 'ann', {}, () => NOW)).toBeNull();
  });
});

describe('dailySpendGate on two instances (postgresql)', () => {
  const db = sharedTestDb('postgresql');

  it("holds one person's day across two instances' connections: calls made at once on both never pass the cap", async () => {
    const other = createPrismaClient(db.file); // the second instance's own client and connections
    try {
      const gates = [db.prisma, other].map((prisma) => dailySpendGate(prisma, 'ann', usdBudget(0.0105), () => NOW)!);
      const { held } = await holdAll(
        Array.from({ length: 30 }, (_, i) => gates[i % 2]!.hold({ usd: 0.001, tokens: 1 })),
      );
      expect(held).toHaveLength(10);
      expect((await dayLedger(other, 'ann', DAY, NOW)).heldUsd).toBeCloseTo(0.01, 9);
    } finally {
      await other.$disconnect();
    }
  });
});

describe.each(BACKENDS)('a person’s runs started together under a daily budget (%s)', (backend) => {
  const services = servicesPerTest();
  afterEach(() => vi.unstubAllEnvs());

  it('spend about the cap between them, not the cap each', async () => {
    // the simulated model priced high, so a run costs far more than the day's budget
    vi.stubEnv('ARBORIST_PRICES', JSON.stringify({ simulated: { inputPerMillion: 2_000, outputPerMillion: 8_000 } }));
    vi.stubEnv('ARBORIST_DAILY_BUDGET_USD', '2');
    const s = await services.open(backend, { maxConcurrentRuns: 3 });
    const runs = await Promise.all(
      [1, 2, 3].map((seed) =>
        s.manager.create({
          taskId: 'game24',
          goal: '4 9 10 13',
          model: { provider: 'simulated', seed, latencyMs: 20 },
          ownerId: 'ann',
        }),
      ),
    );
    await Promise.all(runs.map((r) => s.manager.settled(r.id)));
    const rows = await s.prisma.run.findMany({ where: { id: { in: runs.map((r) => r.id) } } });
    const total = rows.reduce((sum, r) => sum + r.cost, 0);
    // each call costs a few cents here: the day may pass the cap by what its last calls in flight cost, no more
    expect(total).toBeLessThanOrEqual(2.5);
    expect(total).toBeGreaterThan(1);
    expect(rows.filter((r) => r.finishReason === 'budget').length).toBeGreaterThan(0);
    const ledger = await dayLedger(s.prisma, 'ann', utcDay(new Date()), new Date());
    expect(ledger.usd).toBeCloseTo(total, 6);
    expect(ledger.heldUsd).toBe(0);
  }, 60_000);
});
