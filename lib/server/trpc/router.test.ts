// The API through createCaller against a temporary database, SQLite and PostgreSQL alike: create, list, pages,
// commands, errors, streams, restarts.
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import type { EventOf, ExplorationEvent } from '../../contract/events';
import { fold } from '../../engine/index';
import { eventOfHistoryLine, type HistoryLine, SNAPSHOT_SEQ_HEADER } from '../../contract/run';
import { historyResponse, snapshotResponse } from '../http/run-reads';
import { BACKENDS } from '../testing/db';
import { servicesPerTest } from '../testing/services';
import { testContext } from '../testing/context';
import { createCaller } from './routers/root';

const testServices = servicesPerTest();

const game = (seed = 3, latencyMs = 0) => ({
  taskId: 'game24',
  goal: '4 9 10 13',
  model: { provider: 'simulated' as const, seed, latencyMs },
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}`;
  }
}

/** Collects a subscription (createCaller yields [id, data, symbol] tuples) until it ends or `until` says stop. */
async function collect(iterable: AsyncIterable<unknown>, until?: (events: ExplorationEvent[]) => boolean) {
  const events: ExplorationEvent[] = [];
  const ids: string[] = [];
  for await (const item of iterable) {
    const [id, event] = item as [string, ExplorationEvent];
    ids.push(id);
    events.push(event);
    if (until?.(events)) break;
  }
  return { events, ids };
}

describe.each(BACKENDS)('the API (%s)', (backend) => {
  async function setup(options: Parameters<typeof testServices.create>[0] = {}) {
    const s = await testServices.open(backend, options);
    return { s, api: createCaller(testContext(s, { actor: 'alice' })) };
  }

  describe('run.create, byId, list', () => {
    it('creates a run that runs to the end and is stored with its summary', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game());
      await s.manager.settled(id);
      const run = await api.run.byId({ id });
      expect(run).toMatchObject({
        status: 'finished',
        taskId: 'game24',
        goal: '4 9 10 13',
        modelLabel: 'simulated',
        seed: 3,
      });
      expect(run.finishReason).toBe('terminated'); // seed 3 reaches a verified answer
      expect(run.exploredNodes).toBeGreaterThan(0);
      const { events, lastSeq } = await api.run.events({ id });
      expect(lastSeq).toBe(run.lastSeq);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(fold(events).stats.exploredNodes).toBe(run.exploredNodes);
      const nodes = await api.node.list({ runId: id });
      expect(nodes.length).toBe(fold(events).nodeOrder.length);
    });

    it('gives the latest tree of a finished run (stored by the manager) as the fold of its log', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game());
      await s.manager.settled(id);
      const { events } = await api.run.events({ id, limit: 10_000 });
      const snapshot = await snapshotResponse(s, id);
      expect(snapshot.headers.get(SNAPSHOT_SEQ_HEADER)).toBe(String(events.length));
      expect(await snapshot.json()).toEqual(JSON.parse(JSON.stringify(fold(events))));
      const row = await s.prisma.runSnapshot.findUnique({ where: { runId: id }, select: { seq: true } });
      expect(row?.seq).toBe(events.length);
      expect((await snapshotResponse(s, 'nope')).status).toBe(404);
    });

    it('pages light history (model calls without prompts, responses kept) and gives one event whole', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game());
      await s.manager.settled(id);
      const full = (await api.run.events({ id, limit: 10_000 })).events;
      const light = (await api.run.events({ id, limit: 10_000, light: true })).events;
      expect(light.map((e) => e.seq)).toEqual(full.map((e) => e.seq));
      const call = full.find(
        (e): e is EventOf<'model.called'> => e.type === 'model.called' && e.payload.messages.length > 0,
      ) as EventOf<'model.called'>;
      const lightCall = light[call.seq - 1] as EventOf<'model.called'>;
      expect(lightCall.payload.messages).toEqual([]);
      expect({ ...lightCall.payload, messages: null }).toEqual({ ...call.payload, messages: null });
      expect(light.filter((e) => e.type !== 'model.called')).toEqual(full.filter((e) => e.type !== 'model.called'));
      // the page's history: the same light log, one event per line without its runId, for the range asked
      const history = async (query: string) => {
        const res = await historyResponse(
          s,
          { id, lastSeq: full.length },
          new Request(`http://localhost/history.ndjson${query}`),
        );
        return (await res.text())
          .trimEnd()
          .split('\n')
          .map((line) => eventOfHistoryLine(id, JSON.parse(line) as HistoryLine));
      };
      expect(await history('?after=3&until=8')).toEqual(light.slice(3, 8));
      expect(await history('')).toEqual(light);
      expect(await api.run.event({ id, seq: call.seq })).toEqual(call);
      expect(await codeOf(api.run.event({ id, seq: full.length + 1 }))).toBe('NOT_FOUND');
    });

    it('lists runs newest first in cursor pages, filtered by status and task', async () => {
      const { s, api } = await setup();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { id } = await api.run.create(i % 2 ? { ...game(i), taskId: 'open-goal', goal: `goal ${i}` } : game(i));
        ids.push(id);
        await s.manager.settled(id);
      }
      const first = await api.run.list({ limit: 2 });
      expect(first.items.map((r) => r.id)).toEqual([ids[4], ids[3]]);
      const second = await api.run.list({ limit: 2, cursor: first.nextCursor });
      expect(second.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
      const last = await api.run.list({ limit: 2, cursor: second.nextCursor });
      expect(last.items.map((r) => r.id)).toEqual([ids[0]]);
      expect(last.nextCursor).toBeNull();
      expect((await api.run.list({ limit: 10, taskId: 'open-goal' })).items).toHaveLength(2);
      expect((await api.run.list({ limit: 10, status: 'queued' })).items).toHaveLength(0);
    });

    it('refuses bad input with BAD_REQUEST naming the field, and writes nothing', async () => {
      const { api } = await setup();
      await expect(api.run.create({ ...game(), goal: '1 2 3' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      expect(await codeOf(api.run.create({ ...game(), taskId: 'chess' }))).toBe('BAD_REQUEST');
      expect(await codeOf(api.run.create({ ...game(), config: { beamWidth: 0 } }))).toBe('BAD_REQUEST');
      expect(await codeOf(api.run.create({ ...game(), config: { beamWidth: 5, branchFactor: 3 } }))).toBe(
        'BAD_REQUEST',
      );
      expect(await codeOf(api.run.create({ ...game(), config: { maxDepth: 'deep' as never } }))).toBe('BAD_REQUEST');
      expect((await api.run.list({ limit: 10 })).items).toHaveLength(0);
    });

    it('says NOT_FOUND for a missing run', async () => {
      const { api } = await setup();
      expect(await codeOf(api.run.byId({ id: 'nope' }))).toBe('NOT_FOUND');
      expect(await codeOf(api.run.pause({ id: 'nope' }))).toBe('NOT_FOUND');
      expect(await codeOf(api.node.prune({ runId: 'nope', nodeId: 'n1' }))).toBe('NOT_FOUND');
      expect(await codeOf(api.run.delete({ id: 'nope' }))).toBe('NOT_FOUND');
    });
  });

  describe('commands', () => {
    it('pauses, steps and resumes a live run, each command in the log with its actor', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game(3, 30));
      await api.run.pause({ id });
      const paused = collect(await api.run.onEvents({ runId: id }), (ev) => ev.some((e) => e.type === 'steer.pause'));
      const { events } = await paused;
      expect(events.find((e) => e.type === 'steer.pause')?.payload).toEqual({ actor: 'alice' });
      expect(await codeOf(api.run.pause({ id }))).toBe('CONFLICT');
      await api.run.step({ id });
      const stepped = await collect(await api.run.onEvents({ runId: id }), (ev) =>
        ev.some((e) => e.type === 'run.paused'),
      );
      const afterStep = stepped.events.slice(stepped.events.findIndex((e) => e.type === 'steer.step'));
      expect(afterStep.filter((e) => e.type === 'node.started')).toHaveLength(1); // one step, then paused again
      expect((await api.run.byId({ id })).status).toBe('paused');
      await api.run.resume({ id });
      await s.manager.settled(id);
      const all = (await api.run.events({ id })).events;
      expect(all.filter((e) => e.type === 'steer.step')).toHaveLength(1);
      expect((await api.run.byId({ id })).status).toBe('finished');
    });

    it('stops a run created with a breakpoint at the hit, takes a live change of the list, and refuses a bad one', async () => {
      const { s, api } = await setup();
      const failed = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' as const } };
      const { id } = await api.run.create({ ...game(3, 5), breakpoints: [failed] });
      const stopped = await collect(await api.run.onEvents({ runId: id }), (ev) =>
        ev.some((e) => e.type === 'run.paused'),
      );
      const pause = stopped.events.find((e): e is EventOf<'run.paused'> => e.type === 'run.paused');
      // the hit names the first failed verification of the log, the event the person will be shown
      const firstFailed = stopped.events.find((e) => e.type === 'node.verified' && !e.payload.passed);
      expect(pause?.payload).toMatchObject({
        reason: 'breakpoint',
        hit: { breakpointId: 'vf', seq: firstFailed?.seq },
      });
      expect(stopped.events.find((e) => e.type === 'breakpoints.set')?.payload).toEqual({
        breakpoints: [failed],
        actor: 'alice',
      });
      expect((await api.run.byId({ id })).status).toBe('paused');

      // a catastrophic pattern is refused by the schema, before the run hears of it
      const bad = {
        id: 'x',
        enabled: true,
        condition: { kind: 'text-match', field: 'response', pattern: '(a+)+$', regex: true, caseSensitive: false },
      } as const;
      expect(await codeOf(api.run.setBreakpoints({ id, breakpoints: [bad] }))).toBe('BAD_REQUEST');
      expect(
        await codeOf(
          api.run.setBreakpoints({
            id,
            breakpoints: [{ id: 'r', enabled: true, condition: { kind: 'node-runs', nodeId: 'n999' } }],
          }),
        ),
      ).toBe('CONFLICT');
      await api.run.setBreakpoints({ id, breakpoints: [{ ...failed, enabled: false }] });
      await api.run.resume({ id });
      await s.manager.settled(id);
      const all = (await api.run.events({ id })).events;
      expect(all.filter((e) => e.type === 'run.paused')).toHaveLength(1); // switched off: never stopped again
      expect(fold(all).breakpoints).toEqual([{ ...failed, enabled: false }]);
      expect(await codeOf(api.run.setBreakpoints({ id, breakpoints: [] }))).toBe('CONFLICT'); // finished
    });

    it('gives CONFLICT for a command the state forbids, never a 500', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game());
      await s.manager.settled(id);
      expect(await codeOf(api.run.step({ id }))).toBe('CONFLICT');
      expect(await codeOf(api.run.resume({ id }))).toBe('CONFLICT');
      expect(await codeOf(api.node.expand({ runId: id, nodeId: 'n1' }))).toBe('CONFLICT');
      const live = await api.run.create(game(3, 50));
      await collect(await api.run.onEvents({ runId: live.id }), (ev) => ev.some((e) => e.type === 'node.created'));
      expect(await codeOf(api.node.prune({ runId: live.id, nodeId: 'n0' }))).toBe('CONFLICT'); // the root
      expect(await codeOf(api.node.prune({ runId: live.id, nodeId: 'n999' }))).toBe('CONFLICT');
      await api.run.abort({ id: live.id });
      await s.manager.settled(live.id);
      expect((await api.run.byId({ id: live.id })).finishReason).toBe('aborted');
    });

    it('queues runs beyond the concurrency limit and starts them as slots free', async () => {
      const { s, api } = await setup({ maxConcurrentRuns: 1 });
      const a = await api.run.create(game(3, 20));
      const b = await api.run.create(game(4, 0));
      expect((await api.run.byId({ id: b.id })).status).toBe('queued');
      expect(await codeOf(api.run.pause({ id: b.id }))).toBe('CONFLICT');
      await s.manager.settled(a.id);
      await new Promise((r) => setTimeout(r, 50));
      await s.manager.settled(b.id);
      expect((await api.run.byId({ id: b.id })).status).toBe('finished');
    });

    it('prunes a node: it and its subtree never run afterwards', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create({ ...game(3, 40), config: { beamWidth: 2 } });
      const { events } = await collect(await api.run.onEvents({ runId: id }), (ev) =>
        ev.some((e) => e.type === 'node.expanded' && e.payload.nodeId === 'n0'),
      );
      const queued = events.filter((e) => e.type === 'node.queued' && e.payload.mode === 'execute');
      const target = (queued.at(-1)?.payload as { nodeId: string }).nodeId;
      await api.node.prune({ runId: id, nodeId: target });
      await s.manager.settled(id);
      const log = (await api.run.events({ id, limit: 10_000 })).events;
      const pruneSeq = log.find((e) => e.type === 'steer.prune')?.seq ?? Infinity;
      const tree = fold(log);
      const subtree = new Set([target, ...(tree.nodes[target]?.childIds ?? [])]);
      expect(log.filter((e) => e.seq > pruneSeq && e.type === 'node.started' && subtree.has(e.payload.nodeId))).toEqual(
        [],
      );
      expect(tree.nodes[target]).toMatchObject({ status: 'pruned', prunedBy: 'alice' });
    });

    it('deletes a run with its events and nodes', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game());
      await s.manager.settled(id);
      await api.run.delete({ id });
      expect(await codeOf(api.run.byId({ id }))).toBe('NOT_FOUND');
      expect(await s.prisma.event.count({ where: { runId: id } })).toBe(0);
      expect(await s.prisma.node.count({ where: { runId: id } })).toBe(0);
    });
  });

  describe('run.onEvents', () => {
    it('delivers catch-up then live events, each seq once and in order, and ends with the run', async () => {
      const { api } = await setup();
      const { id } = await api.run.create(game(3, 10));
      await new Promise((r) => setTimeout(r, 60)); // some events are stored before we subscribe
      const { events, ids } = await collect(await api.run.onEvents({ runId: id }));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(ids).toEqual(events.map((e) => String(e.seq)));
      expect(events.at(-1)?.type).toBe('run.finished');
    });

    it('resumes from lastEventId after a reconnect without a gap or a duplicate', async () => {
      const { api } = await setup();
      const { id } = await api.run.create(game(3, 10));
      const first = await collect(await api.run.onEvents({ runId: id }), (ev) => ev.length >= 15);
      const lastEventId = first.ids.at(-1) as string;
      const rest = await collect(await api.run.onEvents({ runId: id, lastEventId }));
      const seqs = [...first.events, ...rest.events].map((e) => e.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
      expect(rest.events.at(-1)?.type).toBe('run.finished');
    });

    it('carries a slow run’s calls in flight between its events when asked, tracked by the last seq, never stored', async () => {
      const { s, api } = await setup();
      const limit = 4;
      const { id } = await api.run.create({ ...game(3, 150), config: { maxConcurrentCalls: limit } });
      // a follower that did not ask sees events only, whatever the run says about itself meanwhile
      const plain = collect(await api.run.onEvents({ runId: id }));
      const figures: { id: string; callsInFlight: number }[] = [];
      let lastSeq = 0;
      for await (const item of await api.run.onEvents({ runId: id, live: true })) {
        const [trackedId, data] = item as unknown as [string, ExplorationEvent | { live: { callsInFlight: number } }];
        if (!('live' in data)) {
          lastSeq = data.seq;
          continue;
        }
        // a figure resumes a reconnect after the events sent so far, never past them
        expect(trackedId).toBe(String(lastSeq));
        figures.push({ id: trackedId, callsInFlight: data.live.callsInFlight });
        if (data.live.callsInFlight > 0) break;
      }
      expect(figures.at(-1)?.callsInFlight).toBeGreaterThan(0);
      expect(figures.every((f) => f.callsInFlight <= limit)).toBe(true);
      await api.run.abort({ id });
      await s.manager.settled(id);
      const { events } = await plain;
      expect(events.every((e) => typeof e.seq === 'number' && typeof e.type === 'string')).toBe(true);
      expect(events.at(-1)?.type).toBe('run.finished');
      const stored = (await api.run.events({ id })).events;
      expect(stored.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    });
  });

  describe('restart', () => {
    it('marks runs left running as interrupted and continues them from their log', async () => {
      // A server that dies mid-run: its manager stops writing (no run.finished), the row still says running.
      const first = await testServices.open(backend, { resumeMode: 'auto' });
      const api = createCaller(testContext(first));
      const { id } = await api.run.create(game(3, 30));
      await collect(await api.run.onEvents({ runId: id }), (ev) => ev.length >= 20);
      // simulate the crash: freeze the writer, then start a second manager on the same database
      (first.manager as unknown as { live: Map<string, { pending: unknown[]; abort: AbortController }> }).live.forEach(
        (run) => {
          run.pending.push = () => 0; // nothing more reaches the database
        },
      );
      const stored = (await api.run.events({ id })).lastSeq;
      const second = first.restart({ resumeMode: 'auto' });
      testServices.track(second);
      const { interrupted, resumed } = await second.manager.recover();
      expect(interrupted).toEqual([id]);
      expect(resumed).toEqual([id]);
      await second.manager.settled(id);
      const api2 = createCaller(testContext(second));
      const log = (await api2.run.events({ id, limit: 10_000 })).events;
      expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
      // the restart is in the log: interrupted, queued again, resumed where the dead server stopped writing
      expect(log.slice(stored, stored + 3).map((e) => e.type)).toEqual([
        'run.interrupted',
        'run.queued',
        'run.resumed',
      ]);
      expect(log.at(-1)?.type).toBe('run.finished');
      expect((await api2.run.byId({ id })).status).toBe('finished');
      // the same answer as an uninterrupted run of the same seed
      const { s: clean, api: cleanApi } = await setup();
      const again = await cleanApi.run.create(game(3, 0));
      await clean.manager.settled(again.id);
      expect((await api2.run.byId({ id })).output).toBe((await cleanApi.run.byId({ id: again.id })).output);
    });

    it('waits for a person in manual mode', async () => {
      const { s, api } = await setup();
      const { id } = await api.run.create(game(3, 30));
      await collect(await api.run.onEvents({ runId: id }), (ev) => ev.length >= 10);
      (s.manager as unknown as { live: Map<string, { pending: unknown[] }> }).live.forEach((run) => {
        run.pending.push = () => 0;
      });
      const second = s.restart({ resumeMode: 'manual' });
      testServices.track(second);
      await second.manager.recover();
      const api2 = createCaller(testContext(second));
      expect((await api2.run.byId({ id })).status).toBe('interrupted');
      expect(await codeOf(api2.run.pause({ id }))).toBe('CONFLICT');
      await api2.run.resume({ id });
      await new Promise((r) => setTimeout(r, 20));
      await second.manager.settled(id);
      expect((await api2.run.byId({ id })).status).toBe('finished');
    });
  });

  describe('run.fork', () => {
    it('starts a run from a node with an edited thought and its own config, linked to its parent', async () => {
      const { s, api } = await setup();
      const parent = await api.run.create(game());
      await s.manager.settled(parent.id);
      const edited = '10 - 4 = 6 (left: 6 9 13)';
      const { id } = await api.run.fork({
        runId: parent.id,
        nodeId: 'n1',
        thought: edited,
        config: { explorationStrategy: 'dfs' },
      });
      await new Promise((r) => setTimeout(r, 20));
      await s.manager.settled(id);
      const fork = await api.run.byId({ id });
      expect(fork).toMatchObject({ status: 'finished', parentRunId: parent.id, parentNodeId: 'n1', goal: '4 9 10 13' });
      expect(fork.config.explorationStrategy).toBe('dfs');
      const tree = fold((await api.run.events({ id })).events);
      expect(tree.nodes.n1?.branch?.thought).toBe(edited);
      expect(tree.nodes.n1?.status).not.toBe('pending'); // it ran, with the new thought
      // its seed, then its wait for a slot (with who forked it), then its start from the seed (nothing was rolled back)
      const log = (await api.run.events({ id })).events;
      const waited = log.findIndex((e) => e.type === 'run.queued');
      expect(log[waited]?.payload).toEqual({ reason: 'fork', actor: 'alice' });
      expect(log[waited + 1]).toMatchObject({ type: 'run.resumed', payload: { rolledBackNodeId: null } });
      expect(log.filter((e) => e.type === 'run.resumed')).toHaveLength(1);
      expect((await api.run.forks({ id: parent.id })).map((r) => r.id)).toEqual([id]);
    });

    it("names the fork's own copy of the node (ids are renumbered) and keeps the parent's model", async () => {
      const { s, api } = await setup();
      const parent = await api.run.create(game(5, 0));
      await s.manager.settled(parent.id);
      const parentTree = fold((await api.run.events({ id: parent.id })).events);
      const deep = parentTree.nodeOrder.map((id) => parentTree.nodes[id]).find((n) => n && n.depth === 2);
      expect(deep).toBeDefined();
      const forked = await api.run.fork({ runId: parent.id, nodeId: deep?.id ?? '' });
      await new Promise((r) => setTimeout(r, 20));
      await s.manager.settled(forked.id);
      const restored = (await api.run.events({ id: forked.id })).events.find(
        (e): e is EventOf<'node.restored'> => e.type === 'node.restored' && e.payload.from?.nodeId === deep?.id,
      );
      expect(restored?.payload.nodeId).toBe('n2');
      expect(forked.nodeId).toBe(restored?.payload.nodeId);
      expect(forked.nodeId).not.toBe(deep?.id);
      const fork = await api.run.byId({ id: forked.id });
      expect(fork.modelSettings).toEqual((await api.run.byId({ id: parent.id })).modelSettings);
      expect(fork.modelLabel).toBe((await api.run.byId({ id: parent.id })).modelLabel);
    });

    it('refuses a missing node or an empty thought, and a missing run', async () => {
      const { s, api } = await setup();
      const parent = await api.run.create(game());
      await s.manager.settled(parent.id);
      expect(await codeOf(api.run.fork({ runId: parent.id, nodeId: 'n999' }))).toBe('BAD_REQUEST');
      expect(await codeOf(api.run.fork({ runId: parent.id, nodeId: 'n1', thought: '   ' }))).toBe('BAD_REQUEST');
      expect(await codeOf(api.run.fork({ runId: 'nope', nodeId: 'n1' }))).toBe('NOT_FOUND');
      expect((await api.run.list({ limit: 10 })).items).toHaveLength(1);
    });
  });
});
