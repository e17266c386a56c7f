/**
 * The run manager's write path (run-writer.ts) against real SQLite and PostgreSQL: a busy run's groups share
 * transactions, a quiet run's do not wait for others, every event is stored once and in order, the bus sees only
 * committed events in order, and a failed transaction loses nothing it claimed to have written.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { createEmptyTree } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import { createSimulatedModel, getTaskEntry } from '../../tasks/index';
import { EventBus } from './event-bus';
import { appendEvents, EventAppendError, listEvents } from './events';
import { listNodes } from './nodes';
import { getRun } from '../repositories/runs';
import { createRun } from './run-rows';
import { RunLog } from './run-log';
import { silentLogger } from '../core/logger';
import {
  BUSY_WITHIN_MS,
  MAX_BATCH_EVENTS,
  createWriteState,
  drainWrites,
  enqueueWrite,
  type RunWriteState,
} from './live-writer';
import { BACKENDS, sampleRunInput, sharedTestDb } from '../testing/db';

const RUN = 'run-w';

/** The groups a real search commits (onCommit), in order. */
async function searchGroups(): Promise<ExplorationEvent[][]> {
  const groups: ExplorationEvent[][] = [];
  await new ThoughtTreeExecutor({ maxTotalNodes: 40 }).explore(
    { name: 'arborist', model: createSimulatedModel({ seed: 3 }) },
    '4 9 10 13',
    { task: getTaskEntry('game24').task, runId: RUN, onCommit: (group) => groups.push([...group]) },
  );
  return groups;
}

/** The groups of a longer open-goal search that never stops early (thousands of events). */
async function longSearchGroups(): Promise<ExplorationEvent[][]> {
  const groups: ExplorationEvent[][] = [];
  await new ThoughtTreeExecutor({
    maxTotalNodes: 200,
    maxDepth: 12,
    terminationConfidence: 1,
    confidenceThreshold: 0,
  }).explore(
    { name: 'arborist', model: createSimulatedModel({ seed: 3 }) },
    'Reduce the p99 latency of the checkout API',
    { runId: RUN, onCommit: (group) => groups.push([...group]) },
  );
  return groups;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(BACKENDS)('the run writer (%s)', (backend) => {
  const t = sharedTestDb(backend);
  let groups: ExplorationEvent[][];
  let bus: EventBus;
  let published: ExplorationEvent[][];
  let state: RunWriteState;

  beforeEach(async () => {
    await createRun(t.prisma, sampleRunInput(RUN, { goal: '4 9 10 13' }));
    groups ??= await searchGroups();
    bus = new EventBus();
    published = [];
    bus.subscribe(RUN, (message) => {
      if (message.kind === 'events') published.push(message.events);
    });
    state = createWriteState(RUN, createEmptyTree(RUN));
  });

  const deps = () => ({ runLog: new RunLog({ prisma: t.prisma, bus, log: silentLogger }) });
  /** Each published batch ends where a group ends: no transaction holds part of a step. */
  const groupEnds = () => new Set(groups.map((g) => g.at(-1)!.seq));

  it('a burst of groups shares transactions: every event stored once, in order, and published in order', async () => {
    expect(groups.length).toBeGreaterThan(20);
    enqueueWrite(deps(), state, groups[0]!);
    await vi.waitFor(() => expect(published).toHaveLength(1));
    // the run is busy now: the next groups come a turn of the event loop apart, as an engine with a fast model gives them
    for (const group of groups.slice(1)) {
      enqueueWrite(deps(), state, group);
      await nextTurn();
    }
    await drainWrites(state);

    expect(state.writeError).toBeNull();
    expect(published.length).toBeLessThan(groups.length / 2);
    const all = groups.flat();
    expect(published.flat()).toEqual(all);
    for (const batch of published) expect(groupEnds().has(batch.at(-1)!.seq)).toBe(true);
    expect(await listEvents(t.prisma, RUN)).toEqual(all);
    const row = await getRun(t.prisma, RUN);
    expect(row?.lastSeq).toBe(all.length);
    expect(row?.status).toBe(state.tree.status);
    expect(row?.totalNodes).toBe(state.tree.stats.totalNodes);
    expect((await listNodes(t.prisma, RUN)).map((n) => [n.nodeId, n.status])).toEqual(
      Object.values(state.tree.nodes)
        .sort((a, b) => a.createdSeq - b.createdSeq || a.id.localeCompare(b.id))
        .map((n) => [n.id, n.status]),
    );
  });

  it('a quiet run has each group written on its own, without waiting for others', async () => {
    for (const group of groups.slice(0, 6)) {
      // quiet: the last transaction committed longer ago than a busy run's
      await vi.waitFor(() => expect(performance.now() - state.lastWriteEnd).toBeGreaterThan(BUSY_WITHIN_MS));
      const before = published.length;
      enqueueWrite(deps(), state, group);
      await vi.waitFor(() => expect(published).toHaveLength(before + 1));
      expect(published.at(-1)).toEqual(group);
    }
    await drainWrites(state);
    expect(await listEvents(t.prisma, RUN)).toEqual(groups.slice(0, 6).flat());
  });

  it('a busy run with a full batch waiting is written at once, not after the gathering wait', async () => {
    const many = await longSearchGroups();
    expect(many.slice(2).flat().length).toBeGreaterThanOrEqual(MAX_BATCH_EVENTS);
    // turns of the event loop until done, for up to 10 s of real time (performance.now is not faked below)
    const until = async (done: () => boolean) => {
      const start = performance.now();
      while (!done() && performance.now() - start < 10_000) await nextTurn();
    };
    // the gathering wait's timer never fires from here on: only a full batch waiting can end it
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // the second group arrives as the first commits: the run is busy, and the writer waits to gather more
      bus.subscribe(RUN, () => {
        if (published.length === 1) enqueueWrite(deps(), state, many[1]!);
      });
      enqueueWrite(deps(), state, many[0]!);
      await until(() => published.length === 1);
      for (let i = 0; i < 5; i++) await nextTurn();
      expect(published).toHaveLength(1);
      for (const group of many.slice(2)) enqueueWrite(deps(), state, group);
      await until(() => published.length >= 2);
      expect(published.length).toBeGreaterThanOrEqual(2);
    } finally {
      vi.useRealTimers();
    }
    await drainWrites(state);
    expect(published.flat()).toEqual(many.flat());
  });

  it('a failed transaction writes and publishes none of its groups, and what was published is stored', async () => {
    enqueueWrite(deps(), state, groups[0]!);
    await vi.waitFor(() => expect(published).toHaveLength(1));
    // another writer takes the next seqs (a takeover), so the writer's next transaction is refused whole
    await appendEvents(t.prisma, RUN, groups[1]!);
    for (const group of groups.slice(1, 8)) enqueueWrite(deps(), state, group);
    await drainWrites(state);

    expect(state.writeError).toBeInstanceOf(EventAppendError);
    expect(state.abort.signal.aborted).toBe(true);
    expect(published).toEqual([groups[0]]);
    expect(await listEvents(t.prisma, RUN)).toEqual([...groups[0]!, ...groups[1]!]);
    expect((await getRun(t.prisma, RUN))?.lastSeq).toBe(groups[1]!.at(-1)!.seq);
  });
});
