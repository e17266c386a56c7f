// Two instances of a cluster on one real PostgreSQL database, in one process (each with its own connections, queue
// runner, LISTEN connection and instance id; leases of 1 s renewed every 300 ms): a run executes on the instance that
// claimed it and a page on the other follows it exactly once and in order; commands cross instances; a crashed
// instance's run is taken over and finished by the other with a gap-free log; a graceful shutdown hands a run over; a
// dropped LISTEN connection loses no event.
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { fold } from '../../engine/index';
import { sleep } from '../../contract/sleep';
import { streamRunEvents } from '../streaming/event-stream';
import { listEvents } from '../run-log/events';
import { getRun } from '../repositories/runs';
import { leaseOwnerOf } from '../run-log/leases';
import { clusterPerTest, type TestInstance } from '../testing/cluster';

const clusters = clusterPerTest();

/** A game of 24 on the simulated model, slow enough to be caught mid-run. */
const slowGame = (seed = 3, latencyMs = 80) => ({
  taskId: 'game24',
  goal: '4 9 10 13',
  model: { provider: 'simulated' as const, seed, latencyMs },
});

/** Waits for a condition (checked every 20 ms) or fails after `timeoutMs` naming what it waited for. */
async function until<T>(what: string, check: () => Promise<T | null | false> | T | null | false, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every event a page on `instance` sees from seq 1 until the stream ends. */
function watch(instance: TestInstance, runId: string): { seen: ExplorationEvent[]; ended: Promise<void> } {
  const seen: ExplorationEvent[] = [];
  const ended = (async () => {
    for await (const event of streamRunEvents({
      prisma: instance.prisma,
      bus: instance.bus,
      runId,
      afterSeq: 0,
      follow: true,
    })) {
      seen.push(event);
    }
  })();
  return { seen, ended };
}

/** An external run made through `instance`, its client taking `commands`. */
async function externalRun(instance: TestInstance, commands: string[]): Promise<string> {
  const created = await instance.ingest.create(
    { goal: 'make 24 from 4 9 10 13', task: 'my-tot', model: 'llama-3', commands, agent: 'loop' },
    { ownerId: null, actor: 'tester' },
  );
  return created.runId;
}

const seqs = (events: readonly ExplorationEvent[]) => events.map((e) => e.seq);
const oneToN = (events: readonly ExplorationEvent[]) => events.map((_, i) => i + 1);
const types = (events: readonly ExplorationEvent[]) => events.map((e) => e.type);

/** The run's log once it has ended (run.finished or run.failed last). */
async function endedLog(instance: TestInstance, runId: string): Promise<ExplorationEvent[]> {
  return until(`run ${runId} to end`, async () => {
    const run = await getRun(instance.prisma, runId);
    return run && (run.status === 'finished' || run.status === 'failed') ? listEvents(instance.prisma, runId) : null;
  });
}

describe('several instances on one PostgreSQL database behave as one server', () => {
  it('a run created on A executes on A, and a page on B sees every event once, in order, to the end', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(3, 40));
    await until('A to claim the run', async () => (await leaseOwnerOf(a.prisma, run.id)) === 'A');
    const b = await db.start('B');
    const page = watch(b, run.id);
    await page.ended;
    const log = await listEvents(a.prisma, run.id);
    expect(log.at(-1)?.type).toBe('run.finished');
    expect(seqs(log)).toEqual(oneToN(log));
    // exactly once and in order: the page's events are the log
    expect(seqs(page.seen)).toEqual(seqs(log));
    expect(page.seen.map((e) => e.type)).toEqual(types(log));
    // it never ran on B: no run.resumed, one run.started; and the lease is released at the end
    expect(types(log).filter((t) => t === 'run.started')).toHaveLength(1);
    expect(types(log)).not.toContain('run.resumed');
    // A lets the lease go once its search has stopped (the page may see the log's end a moment before)
    await until('A to release the lease', async () => (await leaseOwnerOf(a.prisma, run.id)) === null);
    expect(b.logs.some((line) => line.msg === 'run claimed')).toBe(false);
    expect(a.logs.find((line) => line.msg === 'run claimed')).toMatchObject({ instance: 'A', runId: run.id });
  });

  it('a prune and a pause sent through B reach the search running on A', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(5, 120));
    await until('A to claim the run', async () => (await leaseOwnerOf(a.prisma, run.id)) === 'A');
    const b = await db.start('B');
    expect(b.manager.isLive(run.id)).toBe(false);
    // a node below the root that the search has made and not yet explored
    const target = await until('a node to prune', async () => {
      const tree = fold(await listEvents(b.prisma, run.id));
      return Object.values(tree.nodes).find((n) => n.parentId !== null && n.status === 'pending') ?? null;
    });
    await b.manager.command(run.id, { type: 'prune', nodeId: target.id, actor: 'bob' });
    await b.manager.command(run.id, { type: 'pause', actor: 'bob' });
    await until('the run to pause', async () => (await getRun(b.prisma, run.id))?.status === 'paused');
    // a refusal on A comes back to B as a ConflictError with A's reason
    await expect(b.manager.command(run.id, { type: 'prune', nodeId: 'no-such-node', actor: 'bob' })).rejects.toThrow(
      /no node no-such-node/,
    );
    await b.manager.command(run.id, { type: 'resume', actor: 'bob' });
    const log = await endedLog(b, run.id);
    expect(log.find((e) => e.type === 'steer.prune')).toMatchObject({
      payload: { nodeId: target.id, actor: 'bob' },
    });
    expect(log.find((e) => e.type === 'steer.pause')).toMatchObject({ payload: { actor: 'bob' } });
    expect(fold(log).nodes[target.id]?.status).toBe('pruned');
    expect(seqs(log)).toEqual(oneToN(log));
  });

  it('when A dies mid-run, B takes the run over after its lease and finishes it, every seq once, none lost', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(7, 80));
    await until('A to claim the run', async () => (await leaseOwnerOf(a.prisma, run.id)) === 'A');
    const b = await db.start('B');
    const page = watch(b, run.id);
    await until('the run to be under way', async () => (await getRun(b.prisma, run.id))!.lastSeq > 8);
    await a.manager.crash();
    await page.ended;
    const log = await endedLog(b, run.id);
    expect(seqs(log)).toEqual(oneToN(log));
    expect(log.at(-1)?.type).toBe('run.finished');
    const interrupted = log.findIndex((e) => e.type === 'run.interrupted');
    expect(interrupted).toBeGreaterThan(0);
    expect(log[interrupted]).toMatchObject({ payload: { reason: expect.stringContaining('(A)') } });
    expect(log[interrupted + 1]).toMatchObject({ type: 'run.queued', payload: { reason: 'resume' } });
    expect(types(log.slice(interrupted))).toContain('run.resumed');
    // the page on B saw each seq once, in order, across the failover
    expect(seqs(page.seen)).toEqual(seqs(log));
    expect(b.logs.find((line) => line.msg === 'run taken over')).toMatchObject({ runId: run.id, lostInstance: 'A' });
    expect((await getRun(b.prisma, run.id))?.status).toBe('finished');
  });

  it('a graceful shutdown of A hands its run to B at once, which resumes it to the end', async () => {
    const db = await clusters.database();
    const a = await db.start('A', { leaseMs: 60_000, heartbeatMs: 1_000 });
    const run = await a.manager.create(slowGame(9, 80));
    await until('A to claim the run', async () => (await leaseOwnerOf(a.prisma, run.id)) === 'A');
    // B's lease is long too: only a hand-back (never a lapsed lease) can move the run within this test
    const b = await db.start('B', { leaseMs: 60_000, heartbeatMs: 1_000 });
    const page = watch(b, run.id);
    await until('the run to be under way', async () => (await getRun(b.prisma, run.id))!.lastSeq > 8);
    const { handedBack } = await a.manager.shutdown();
    expect(handedBack).toEqual([run.id]);
    expect(a.manager.executingHere).toBe(0);
    await page.ended;
    const log = await endedLog(b, run.id);
    expect(seqs(log)).toEqual(oneToN(log));
    const interrupted = log.find((e) => e.type === 'run.interrupted');
    expect(interrupted?.payload).toMatchObject({ reason: 'handed back: instance A shutting down' });
    expect(types(log)).toContain('run.resumed');
    expect(log.at(-1)?.type).toBe('run.finished');
    expect(seqs(page.seen)).toEqual(seqs(log));
  });

  it('a dropped LISTEN connection loses no event: the page re-reads the table when it is back', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(11, 40));
    await until('A to claim the run', async () => (await leaseOwnerOf(a.prisma, run.id)) === 'A');
    const b = await db.start('B');
    const page = watch(b, run.id);
    let drops = 0;
    // drop B's connection again and again while A writes: notifications sent in each gap are lost for good
    const dropping = (async () => {
      while ((await getRun(a.prisma, run.id))?.status !== 'finished') {
        b.cluster.dropNotificationConnection();
        drops += 1;
        await until('B to listen again', () => b.logs.filter((l) => /restored/.test(String(l.msg))).length >= drops);
      }
    })();
    await page.ended;
    await dropping;
    const log = await listEvents(a.prisma, run.id);
    expect(drops).toBeGreaterThan(1);
    expect(seqs(page.seen)).toEqual(seqs(log));
    expect(log.at(-1)?.type).toBe('run.finished');
  });

  it('a queued run is aborted from either instance; the job that finds it ended does nothing', async () => {
    const db = await clusters.database();
    const a = await db.start('A', { concurrency: 1 });
    const b = await db.start('B', { concurrency: 1 });
    const first = await a.manager.create(slowGame(3, 60));
    const second = await a.manager.create(slowGame(4, 60));
    const third = await b.manager.create(slowGame(5, 60));
    // two slots in the cluster: one of the three waits queued
    const waiting = await until('a run still queued', async () => {
      for (const run of [first, second, third]) {
        const row = await getRun(a.prisma, run.id);
        if (row?.status === 'queued' && (await leaseOwnerOf(a.prisma, run.id)) === null) return run.id;
      }
      return null;
    });
    await b.manager.command(waiting, { type: 'abort', actor: 'carol' });
    const log = await endedLog(a, waiting);
    expect(types(log)).toEqual(['run.queued', 'steer.abort', 'run.finished']);
    for (const run of [first, second, third].filter((r) => r.id !== waiting)) {
      expect((await endedLog(a, run.id)).at(-1)?.type).toBe('run.finished');
    }
    expect((await endedLog(a, waiting)).length).toBe(3);
  });
});

describe('a queued run whose job was lost with a dead instance', () => {
  it('still runs: a sweep gives a queued run nobody holds a job again once it has been idle a lease', async () => {
    const db = await clusters.database();
    const a = await db.start('A', { concurrency: 1 });
    const b = await db.start('B', { concurrency: 1 });
    // both slots busy, so the third run waits queued with its job
    const busy = [await a.manager.create(slowGame(3, 60)), await b.manager.create(slowGame(4, 60))];
    await until('both instances to run one', async () => {
      const owners = await Promise.all(busy.map((run) => leaseOwnerOf(a.prisma, run.id)));
      return owners.every((owner) => owner !== null);
    });
    const lost = await a.manager.create(slowGame(5, 60));
    // the job goes the way an instance dying as it queued the run loses it: the run row stays queued, no job
    await a.prisma.$executeRawUnsafe(`DELETE FROM graphile_worker._private_jobs WHERE key = 'run:${lost.id}'`);
    const log = await endedLog(a, lost.id);
    expect(log.at(-1)?.type).toBe('run.finished');
    expect(seqs(log)).toEqual(oneToN(log));
  });
});

describe('the run record says where a run executes', () => {
  it('executingOn names the instance holding its lease while it runs, and is null once it ended', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(3, 40));
    const b = await db.start('B');
    const seen = await until('the run to execute somewhere', async () => (await getRun(b.prisma, run.id))?.executingOn);
    expect(seen).toBe('A');
    await endedLog(b, run.id);
    // the lease is let go just after the log's last commit, in a statement of its own: a read between the two still
    // names A (CI saw it once), so this waits for the release rather than reading once
    await until('the lease to be let go', async () => (await getRun(b.prisma, run.id))?.executingOn === null);
  });
});

describe('an external run (the ingest API) across instances', () => {
  it("a client's command poll on A wakes when a person steers the run through B", async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const b = await db.start('B');
    const runId = await externalRun(a, ['prune']);
    await a.ingest.append(runId, [
      { seq: 1, op: 'node', id: 'root', parent: null, thought: 'start' },
      { seq: 2, op: 'node', id: 'b', parent: 'root', thought: 'b' },
    ]);
    // the poll would wait 25 s; the test's own limit (10 s) fails it if only the poll's time ended it
    const poll = a.ingest.commands(runId, 0, 25_000);
    await b.ingest.request(runId, { type: 'prune', nodeId: 'b', actor: 'bob' });
    const { commands } = await poll;
    expect(commands).toEqual([expect.objectContaining({ kind: 'prune', nodeId: 'b', actor: 'bob' })]);
  }, 10_000);
});

describe('an external run written by two instances at once', () => {
  it("the client's batches through B and people's commands through A interleave: no batch refused, the log gap-free", async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const b = await db.start('B');
    const runId = await externalRun(a, ['prune']);
    await b.ingest.append(runId, [{ seq: 1, op: 'node', id: 'root', parent: null, thought: 'start' }]);
    const BATCHES = 30;
    // the client streams through B; meanwhile a person's prune requests go through A, each a write into the same log
    const client = (async () => {
      for (let i = 0; i < BATCHES; i++) {
        await b.ingest.append(runId, [{ seq: i + 2, op: 'node', id: `n${i}`, parent: 'root', thought: `t${i}` }]);
        await sleep(25); // ten times the SDK's pace (a batch every 250 ms)
      }
    })();
    const people = (async () => {
      for (let i = 0; i < 10; i++) {
        const nodeId = `n${i * 3}`;
        const created = (e: ExplorationEvent) => e.type === 'node.created' && e.payload.nodeId === nodeId;
        await until(`node ${nodeId} to exist`, async () => (await listEvents(a.prisma, runId)).some(created), 10_000);
        await a.ingest.request(runId, { type: 'prune', nodeId, actor: 'bob' });
      }
    })();
    // a lost race must not reach the client (nor the person): both finish without an error
    await Promise.all([client, people]);
    const log = await listEvents(a.prisma, runId);
    expect(seqs(log)).toEqual(oneToN(log));
    expect(log.filter((e) => e.type === 'node.created')).toHaveLength(BATCHES + 1);
    expect(log.filter((e) => e.type === 'steer.requested')).toHaveLength(10);
  }, 60_000);
});

describe('a client that retries a batch on another instance while the first still writes it', () => {
  it('is answered by both: one stores the items, the other counts them as duplicates', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const b = await db.start('B');
    const runId = await externalRun(a, []);
    const batch = [
      { seq: 1, op: 'node' as const, id: 'root', parent: null, thought: 'start' },
      ...Array.from({ length: 20 }, (_, i) => ({ seq: i + 2, op: 'node' as const, id: `n${i}`, parent: 'root' })),
    ];
    const answers = await Promise.all([a.ingest.append(runId, batch), b.ingest.append(runId, batch)]);
    expect(answers.map((r) => r.accepted + r.duplicates)).toEqual([21, 21]);
    expect(answers.map((r) => r.accepted).sort((x, y) => x - y)).toEqual([0, 21]);
    const log = await listEvents(a.prisma, runId);
    expect(seqs(log)).toEqual(oneToN(log));
    expect(log.filter((e) => e.type === 'node.created')).toHaveLength(21);
  }, 30_000);
});

describe('an instance that lost a run writes nothing more of it', () => {
  it('a batch written after the lease was taken fails the fence: the run stops there, with no run.failed', async () => {
    const db = await clusters.database();
    // a heartbeat far away: only the write fence can notice the lease is gone
    const a = await db.start('A', { leaseMs: 60_000, heartbeatMs: 30_000 });
    const run = await a.manager.create(slowGame(3, 60));
    await until('A to run it', async () => (await getRun(a.prisma, run.id))?.status === 'running');
    // another instance (Z) takes the lease, as after A stalled past it
    await a.prisma.$executeRaw`UPDATE "Run" SET "leaseOwner" = 'Z' WHERE "id" = ${run.id}`;
    await until('A to let the run go', () => !a.manager.isLive(run.id));
    const log = await listEvents(a.prisma, run.id);
    expect(types(log)).not.toContain('run.failed');
    expect(types(log)).not.toContain('run.finished');
    expect(seqs(log)).toEqual(oneToN(log));
    expect((await getRun(a.prisma, run.id))?.status).toBe('running');
    expect(a.logs.some((l) => l.runId === run.id && /no longer this instance/.test(String(l.msg)))).toBe(true);
  });

  it('a renewal that finds the lease gone detaches the run; once the thief is silent, the cluster resumes it', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const run = await a.manager.create(slowGame(5, 60));
    await until('A to run it', async () => (await getRun(a.prisma, run.id))?.status === 'running');
    // Z takes the lease for a second and then says nothing more: A lets go, and the sweep takes the run back from Z
    await a.prisma.$executeRaw`UPDATE "Run" SET "leaseOwner" = 'Z',
      "leaseExpiresAt" = (clock_timestamp() AT TIME ZONE 'UTC') + interval '1 second' WHERE "id" = ${run.id}`;
    const log = await endedLog(a, run.id);
    expect(a.logs.some((l) => l.runId === run.id && /lease lost|no longer this/.test(String(l.msg)))).toBe(true);
    expect(seqs(log)).toEqual(oneToN(log));
    expect(types(log)).not.toContain('run.failed');
    expect(log.find((e) => e.type === 'run.interrupted')?.payload).toMatchObject({
      reason: expect.stringContaining('(Z)'),
    });
    expect(log.filter((e) => e.type === 'run.finished')).toHaveLength(1);
    expect(types(log)).toContain('run.resumed');
  });
});
