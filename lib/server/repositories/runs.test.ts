/** Runs against real SQLite through real Prisma: the record mapping, pages, filters, patches and cascades. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyStats } from '../../engine/tree';
import { type TestDb, createTestDb, sampleEvents, sampleNode, sampleRunInput } from '../db/testkit';
import { appendEvents, countEvents } from './events';
import { listNodes, upsertNodes } from './nodes';
import { type RunRecord, createRun, deleteRun, findRunsByStatus, getRun, listRuns, updateRun } from './runs';

let t: TestDb;
beforeEach(async () => {
  t = await createTestDb();
});
afterEach(async () => {
  await t.cleanup();
});

const ids = (runs: RunRecord[]) => runs.map((r) => r.id);

describe('createRun and getRun', () => {
  it('round-trips every field, with defaults, config parsed', async () => {
    const input = sampleRunInput('r1');
    const created = await createRun(t.prisma, input);
    expect(created).toEqual({
      id: 'r1',
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      taskId: input.taskId,
      goal: input.goal,
      modelId: input.modelId,
      modelLabel: input.modelLabel,
      modelSettings: null,
      config: input.config,
      seed: 7,
      status: 'queued',
      finishReason: null,
      startedAt: null,
      finishedAt: null,
      lastSeq: 0,
      stats: null,
      output: null,
      success: null,
      verified: null,
      bestScore: null,
      cost: 0,
      exploredNodes: 0,
      totalNodes: 0,
      error: null,
      importTag: null,
      parentRunId: null,
      parentNodeId: null,
    } satisfies RunRecord);
    expect(Math.abs(created.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(await getRun(t.prisma, 'r1')).toEqual(created);
  });

  it('keeps a given creation time and fork origin', async () => {
    const createdAt = new Date('2024-05-06T07:08:09.123Z');
    const run = await createRun(
      t.prisma,
      sampleRunInput('fork', {
        createdAt,
        parentRunId: 'r0',
        parentNodeId: 'n3',
        importTag: 'x',
        seed: null,
        modelSettings: { provider: 'simulated', seed: 3, latencyMs: 0 },
      }),
    );
    expect(run).toMatchObject({ createdAt, parentRunId: 'r0', parentNodeId: 'n3', importTag: 'x', seed: null });
    expect(run.modelSettings).toEqual({ provider: 'simulated', seed: 3, latencyMs: 0 });
  });

  it('returns null for a missing run and refuses a duplicate id', async () => {
    expect(await getRun(t.prisma, 'missing')).toBeNull();
    await createRun(t.prisma, sampleRunInput('r1'));
    await expect(createRun(t.prisma, sampleRunInput('r1'))).rejects.toThrow();
  });
});

describe('updateRun', () => {
  it('patches fields, serialises stats, bumps updatedAt, leaves the rest', async () => {
    const before = await createRun(t.prisma, sampleRunInput('r1'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stats = { ...emptyStats(), totalNodes: 12, exploredNodes: 5, cost: 0.25 };
    const finishedAt = new Date('2031-01-02T03:04:05.006Z');
    const after = await updateRun(t.prisma, 'r1', {
      status: 'finished',
      finishReason: 'terminated',
      finishedAt,
      stats,
      output: '24',
      success: true,
      verified: true,
      bestScore: 0.91,
      cost: 0.25,
      exploredNodes: 5,
      totalNodes: 12,
    });
    expect(after).toEqual({
      ...before,
      updatedAt: expect.any(Date),
      status: 'finished',
      finishReason: 'terminated',
      finishedAt,
      stats,
      output: '24',
      success: true,
      verified: true,
      bestScore: 0.91,
      cost: 0.25,
      exploredNodes: 5,
      totalNodes: 12,
    });
    expect(after!.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
    expect(await getRun(t.prisma, 'r1')).toEqual(after);

    const cleared = await updateRun(t.prisma, 'r1', {
      stats: null,
      error: 'boom',
      config: { ...before.config, maxDepth: 9 },
    });
    expect(cleared).toMatchObject({ stats: null, error: 'boom', config: { maxDepth: 9 }, output: '24' });
  });

  it('returns null for a missing run', async () => {
    expect(await updateRun(t.prisma, 'missing', { status: 'failed' })).toBeNull();
  });
});

describe('listRuns', () => {
  // Runs 0..11 created a second apart, two pairs sharing a time (the id breaks the tie); alternating tasks/statuses.
  const statuses = ['finished', 'running', 'failed'] as const;
  beforeEach(async () => {
    for (let i = 0; i < 12; i++) {
      const second = i === 5 || i === 9 ? i - 1 : i;
      await createRun(
        t.prisma,
        sampleRunInput(`run-${String(i).padStart(2, '0')}`, {
          createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, second)),
          taskId: i % 2 === 0 ? 'game24' : 'open-goal',
          status: statuses[i % 3],
        }),
      );
    }
  });

  const newestFirst = Array.from({ length: 12 }, (_, i) => `run-${String(11 - i).padStart(2, '0')}`);

  it('pages newest first with a stable order and a cursor, until nextCursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await listRuns(t.prisma, { cursor, limit: 5 });
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(newestFirst);
  });

  it('a last page that is exactly full has no next cursor', async () => {
    const page = await listRuns(t.prisma, { limit: 12 });
    expect(ids(page.items)).toEqual(newestFirst);
    expect(page.nextCursor).toBeNull();
  });

  it('new runs at the top do not shift the next page', async () => {
    const first = await listRuns(t.prisma, { limit: 4 });
    await createRun(t.prisma, sampleRunInput('run-new', { createdAt: new Date(Date.UTC(2031, 0, 1)) }));
    const second = await listRuns(t.prisma, { cursor: first.nextCursor, limit: 4 });
    expect(ids(second.items)).toEqual(newestFirst.slice(4, 8));
  });

  it('filters by status (one or several) and task, and pages within the filter', async () => {
    const running = await listRuns(t.prisma, { limit: 50, status: 'running' });
    expect(ids(running.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 3 === 1));
    const done = await listRuns(t.prisma, { limit: 50, status: ['finished', 'failed'] });
    expect(ids(done.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 3 !== 1));

    const game24 = newestFirst.filter((id) => Number(id.slice(4)) % 2 === 0);
    const p1 = await listRuns(t.prisma, { limit: 4, taskId: 'game24' });
    const p2 = await listRuns(t.prisma, { limit: 4, taskId: 'game24', cursor: p1.nextCursor });
    expect([...ids(p1.items), ...ids(p2.items)]).toEqual(game24);
    expect(p2.nextCursor).toBeNull();

    const both = await listRuns(t.prisma, { limit: 50, taskId: 'open-goal', status: 'running' });
    expect(ids(both.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 6 === 1));
  });

  it('an unknown cursor gives an empty last page; the limit is clamped', async () => {
    expect(await listRuns(t.prisma, { cursor: 'gone', limit: 5 })).toEqual({ items: [], nextCursor: null });
    expect((await listRuns(t.prisma, { limit: 0 })).items).toHaveLength(1);
  });
});

describe('findRunsByStatus', () => {
  it('finds runs in any of the statuses, oldest first', async () => {
    await createRun(t.prisma, sampleRunInput('b', { status: 'running', createdAt: new Date(2000) }));
    await createRun(t.prisma, sampleRunInput('a', { status: 'paused', createdAt: new Date(3000) }));
    await createRun(t.prisma, sampleRunInput('c', { status: 'finished', createdAt: new Date(1000) }));
    expect(ids(await findRunsByStatus(t.prisma, ['running', 'paused']))).toEqual(['b', 'a']);
    expect(await findRunsByStatus(t.prisma, [])).toEqual([]);
  });
});

describe('deleteRun', () => {
  it('deletes the run with its events and nodes, and nothing of other runs', async () => {
    for (const id of ['keep', 'drop']) {
      await createRun(t.prisma, sampleRunInput(id));
      await appendEvents(t.prisma, id, sampleEvents(id, 1, 30));
      await upsertNodes(t.prisma, id, [sampleNode('n0')]);
    }
    expect(await deleteRun(t.prisma, 'drop')).toBe(true);
    expect(await deleteRun(t.prisma, 'drop')).toBe(false);

    expect(await getRun(t.prisma, 'drop')).toBeNull();
    expect(await countEvents(t.prisma, 'drop')).toBe(0);
    expect(await listNodes(t.prisma, 'drop')).toEqual([]);
    expect(await countEvents(t.prisma, 'keep')).toBe(30);
    expect(await listNodes(t.prisma, 'keep')).toHaveLength(1);
  });
});
