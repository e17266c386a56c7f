// An experiment on a team server (two instances in this process on one PostgreSQL database): its cells spread over
// both instances through the cluster's job queue, and when one dies mid-experiment the other finishes every cell,
// each cell one run, none lost.
import { describe, expect, it } from 'vitest';
import { leaseOwnerOf } from '../run-log/leases';
import { clusterPerTest } from '../testing/cluster';

const clusters = clusterPerTest();

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('experiments on a cluster', () => {
  it('spreads its cells over the instances, and survives one of them dying mid-experiment', async () => {
    const db = await clusters.database();
    const a = await db.start('A', { concurrency: 1 });
    const b = await db.start('B', { concurrency: 1 });
    a.experiments.start();
    b.experiments.start();
    const items = ['4 9 10 13', '1 1 4 6', '2 7 8 8', '1 2 3 4', '3 3 8 8', '1 5 5 5', '2 2 6 6', '4 4 10 10'];
    const { id } = await a.experiments.create(
      {
        taskId: 'game24',
        items,
        configurations: [{ label: 'slow', model: { provider: 'simulated', seed: 1, latencyMs: 30 } }],
      },
      { ownerId: null },
    );

    // who executes each cell's run, seen through its lease while it runs
    const executors = new Map<string, string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const cell of await b.prisma.experimentCell.findMany({
          where: { experimentId: id, NOT: { runId: null } },
        })) {
          const owner = await leaseOwnerOf(b.prisma, cell.runId!);
          if (owner && !executors.has(cell.runId!)) executors.set(cell.runId!, owner);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    await until('both instances to run cells', async () => new Set(executors.values()).size === 2);
    a.experiments.stop();
    await a.manager.crash();
    await until('B to finish the experiment', async () => (await b.experiments.view(id)).status === 'finished', 90_000);
    watching = false;
    await watcher;

    const view = await b.experiments.view(id);
    expect(view.cells).toHaveLength(items.length);
    expect(view.cells.every((c) => c.outcome === 'solved' || c.outcome === 'failed')).toBe(true);
    expect(new Set(view.cells.map((c) => c.runId)).size).toBe(items.length);
    expect(await b.prisma.run.count()).toBe(items.length);
    for (const cell of view.cells) {
      const run = await b.prisma.run.findUniqueOrThrow({ where: { id: cell.runId! } });
      expect(run.goal).toBe(items[cell.item]);
      expect(run.status).toBe('finished');
      const finished = await b.prisma.event.count({ where: { runId: cell.runId!, type: 'run.finished' } });
      expect(finished).toBe(1);
    }
    expect(new Set(executors.values())).toEqual(new Set(['A', 'B']));
  }, 120_000);
});
