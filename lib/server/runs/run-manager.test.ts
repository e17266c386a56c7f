// The run manager writes what happens to a run outside its search into the run's log (real SQLite, real Prisma):
// queued, interrupted by a restart, failed, aborted while queued; seqs stay 1, 2, 3 without a gap; the row's status
// is the fold's; and a database written before these events (no lifecycle in its logs) keeps working.
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { fold } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import { createSimulatedModel, getTaskEntry } from '../../tasks/index';
import { sampleRunInput } from '../testing/db';
import { streamRunEvents } from '../streaming/event-stream';
import { appendEvents, listEvents } from '../run-log/events';
import { getRun } from '../repositories/runs';
import { createRun } from '../run-log/run-rows';
import { servicesPerTest, type TestServices } from '../testing/services';

const testServices = servicesPerTest();

function setup(options: Parameters<typeof testServices.create>[0] = {}) {
  const s = testServices.create(options);
  return s;
}

const game = (seed = 3, latencyMs = 0) => ({
  taskId: 'game24',
  goal: '4 9 10 13',
  model: { provider: 'simulated' as const, seed, latencyMs },
});

const types = (events: readonly ExplorationEvent[]) => events.map((e) => e.type);
const gapless = (events: readonly ExplorationEvent[]) => events.map((_, i) => i + 1);

/** Every event the live stream gives a page from seq 1 until it ends. */
async function watch(s: TestServices, runId: string): Promise<ExplorationEvent[]> {
  const seen: ExplorationEvent[] = [];
  for await (const event of streamRunEvents({ prisma: s.prisma, bus: s.bus, runId, afterSeq: 0, follow: true })) {
    seen.push(event);
  }
  return seen;
}

/** Stops a live run's writes reaching the database, as a server that died mid-run. */
function freezeWriter(s: TestServices) {
  (s.manager as unknown as { live: Map<string, { pending: unknown[] }> }).live.forEach((run) => {
    run.pending.push = () => 0;
  });
}

describe("the run manager writes a run's life in its log", () => {
  it('opens every new run with run.queued, and the search follows from seq 2', async () => {
    const s = setup();
    const run = await s.manager.create(game());
    expect(run.lastSeq).toBeGreaterThanOrEqual(1);
    await s.manager.settled(run.id);
    const log = await listEvents(s.prisma, run.id);
    expect(log.map((e) => e.seq)).toEqual(gapless(log));
    expect(log[0]).toMatchObject({ seq: 1, type: 'run.queued', payload: { reason: 'new' } });
    expect(log[1]).toMatchObject({ seq: 2, type: 'run.started' });
    expect(fold(log).status).toBe('finished');
    expect((await getRun(s.prisma, run.id))?.status).toBe('finished');
  });

  it('a page watching a queued run sees it queued, then running, then finished, from the stream alone', async () => {
    const s = setup({ maxConcurrentRuns: 1 });
    const first = await s.manager.create(game(3, 15));
    const second = await s.manager.create(game(4, 0));
    const seen = await watch(s, second.id);
    await s.manager.settled(first.id);
    const statuses = seen.map((_, i) => fold(seen.slice(0, i + 1)).status);
    expect(statuses[0]).toBe('queued');
    expect(statuses).toContain('running');
    expect(statuses.at(-1)).toBe('finished');
  });

  it('aborting a queued run leaves steer.abort and run.finished (aborted), and its stream ends', async () => {
    const s = setup({ maxConcurrentRuns: 1 });
    const first = await s.manager.create(game(3, 20));
    const queued = await s.manager.create(game(4, 0));
    const watching = watch(s, queued.id);
    await s.manager.command(queued.id, { type: 'abort', actor: 'alice' });
    const seen = await watching;
    expect(types(seen)).toEqual(['run.queued', 'steer.abort', 'run.finished']);
    expect(seen[1]?.payload).toEqual({ actor: 'alice' });
    expect(seen[2]?.payload).toMatchObject({ reason: 'aborted', output: '' });
    expect(await getRun(s.prisma, queued.id)).toMatchObject({
      status: 'finished',
      finishReason: 'aborted',
      lastSeq: 3,
    });
    await s.manager.settled(first.id);
    // it never started later either
    expect(types(await listEvents(s.prisma, queued.id))).toEqual(['run.queued', 'steer.abort', 'run.finished']);
  });

  it('a run that fails outside the search ends its log with run.failed; the row says failed, and why', async () => {
    const s = setup({ maxConcurrentRuns: 1 });
    const first = await s.manager.create(game(3, 20));
    const doomed = await s.manager.create(game(4, 0));
    // a stored model spec this version cannot read: the run fails as it starts, before any search event
    await s.prisma.run.update({ where: { id: doomed.id }, data: { modelSettings: '{"provider":"gone"}' } });
    await s.manager.settled(first.id);
    await s.manager.settled(doomed.id);
    const log = await listEvents(s.prisma, doomed.id);
    expect(types(log)).toEqual(['run.queued', 'run.failed']);
    const tree = fold(log);
    expect(tree.status).toBe('failed');
    const row = await getRun(s.prisma, doomed.id);
    expect(row).toMatchObject({ status: 'failed', lastSeq: 2 });
    expect(row?.error).toBe(tree.failure);
    expect(row?.finishedAt).not.toBeNull();
  });

  it('when the database refuses the write loop, the row still says failed and the stream ends', async () => {
    const s = setup();
    const run = await s.manager.create(game(3, 20));
    const watching = watch(s, run.id);
    // another writer moved the log's head: every later append of this run fails its compare-and-set
    await s.prisma.$executeRaw`UPDATE "Run" SET "lastSeq" = "lastSeq" + 100 WHERE "id" = ${run.id}`;
    await s.manager.settled(run.id);
    const seen = await watching;
    const row = await getRun(s.prisma, run.id);
    expect(row?.status).toBe('failed');
    expect(row?.error).toMatch(/seq/);
    // the log could not take run.failed: the page learns it from the row, read again when its stream ends
    expect(types(seen)).not.toContain('run.failed');
  });

  it('a restart writes run.interrupted; resuming writes run.queued, then the engine run.resumed', async () => {
    const s = setup();
    const run = await s.manager.create(game(3, 30));
    for await (const event of streamRunEvents({
      prisma: s.prisma,
      bus: s.bus,
      runId: run.id,
      afterSeq: 0,
      follow: true,
    })) {
      if (event.seq >= 12) break;
    }
    freezeWriter(s);
    const stored = (await getRun(s.prisma, run.id))?.lastSeq ?? 0;
    const second = s.restart({ resumeMode: 'manual' });
    testServices.track(second);
    expect((await second.manager.recover()).interrupted).toEqual([run.id]);
    const interrupted = await listEvents(second.prisma, run.id);
    expect(interrupted.at(-1)).toMatchObject({ seq: stored + 1, type: 'run.interrupted' });
    expect(fold(interrupted).status).toBe('interrupted');
    expect((await getRun(second.prisma, run.id))?.status).toBe('interrupted');

    await second.manager.command(run.id, { type: 'resume', actor: 'bob' });
    await new Promise((r) => setImmediate(r));
    await second.manager.settled(run.id);
    const log = await listEvents(second.prisma, run.id);
    expect(log.map((e) => e.seq)).toEqual(gapless(log));
    expect(types(log.slice(stored, stored + 3))).toEqual(['run.interrupted', 'run.queued', 'run.resumed']);
    expect(fold(log).status).toBe('finished');
  });
});

describe('a graceful shutdown on SQLite', () => {
  it('stops live runs with nothing more written and ends their streams; the next start recovers them', async () => {
    const s = setup();
    const run = await s.manager.create(game(3, 30));
    const seen: ExplorationEvent[] = [];
    const watching = (async () => {
      for await (const event of streamRunEvents({
        prisma: s.prisma,
        bus: s.bus,
        runId: run.id,
        afterSeq: 0,
        follow: true,
      }))
        seen.push(event);
    })();
    while ((await getRun(s.prisma, run.id))!.lastSeq < 8) await new Promise((r) => setTimeout(r, 10));
    const { stopped } = await s.manager.shutdown();
    expect(stopped).toEqual([run.id]);
    await watching; // the stream ended with the shutdown
    expect(s.manager.shuttingDown).toBe(true);
    const log = await listEvents(s.prisma, run.id);
    expect(types(log)).not.toContain('run.finished');
    expect(seen.map((e) => e.seq)).toEqual(log.map((e) => e.seq));
    expect((await getRun(s.prisma, run.id))?.status).toBe('running');
    // a shut-down manager starts nothing more
    await expect(s.manager.create(game(4))).resolves.toMatchObject({ status: 'queued' });
    expect(s.manager.executingHere).toBe(0);
    const next = testServices.track(s.restart({ resumeMode: 'auto' }));
    expect((await next.manager.recover()).resumed).toEqual([run.id]);
    await next.manager.settled(run.id);
    const after = await listEvents(next.prisma, run.id);
    expect(after.map((e) => e.seq)).toEqual(gapless(after));
    expect(types(after)).toContain('run.interrupted');
    expect(after.at(-1)?.type).toBe('run.finished');
  });
});

describe('a database written before lifecycle events', () => {
  /** A run stored the old way: the engine's events only (seq 1 is run.started), the row's status set by hand. */
  async function oldRun(s: TestServices, id: string, status: 'running' | 'queued', cutAt: number) {
    await createRun(s.prisma, { ...sampleRunInput(id, { goal: '4 9 10 13' }), status });
    if (cutAt === 0) return [];
    const events: ExplorationEvent[] = [];
    await new ThoughtTreeExecutor().explore(
      { name: 'arborist', model: createSimulatedModel({ seed: 3 }) },
      '4 9 10 13',
      {
        task: getTaskEntry('game24').task,
        runId: id,
        onEvent: (e) => events.push(e),
      },
    );
    const head = events.slice(0, cutAt);
    await appendEvents(s.prisma, id, head);
    return head;
  }

  it('an old running run is interrupted by the next start and resumes to its end, seqs unbroken', async () => {
    const s = setup();
    const head = await oldRun(s, 'old-running', 'running', 15);
    expect(head[0]?.type).toBe('run.started');
    await s.manager.recover();
    await s.manager.resumeInterrupted('old-running');
    await new Promise((r) => setImmediate(r));
    await s.manager.settled('old-running');
    const log = await listEvents(s.prisma, 'old-running');
    expect(log.map((e) => e.seq)).toEqual(gapless(log));
    expect(types(log.slice(15, 18))).toEqual(['run.interrupted', 'run.queued', 'run.resumed']);
    expect((await getRun(s.prisma, 'old-running'))?.status).toBe('finished');
  });

  it('an old queued run with an empty log starts at seq 1 with run.started', async () => {
    const s = setup();
    await oldRun(s, 'old-queued', 'queued', 0);
    await s.manager.recover();
    await new Promise((r) => setImmediate(r));
    await s.manager.settled('old-queued');
    const log = await listEvents(s.prisma, 'old-queued');
    expect(log[0]).toMatchObject({ seq: 1, type: 'run.started' });
    expect((await getRun(s.prisma, 'old-queued'))?.status).toBe('finished');
  });
});
