import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { createEmptyTree, fold, type ThoughtTree } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { externalSearchLog, followEvent } from '../engine/testing';
import { createRunStore } from './run-store';

const plain = (tree: ThoughtTree) => JSON.parse(JSON.stringify(tree)) as unknown;

async function recordRun() {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor().explore(
    { name: 't', model: createSimulatedModel({ seed: 3 }) },
    '4 9 10 13',
    {
      task: getTaskEntry('game24').task,
      onEvent: (e) => events.push(e),
    },
  );
  return { events, result };
}

describe('run store', () => {
  it('applies events once per frame, ignores duplicates and waits for a gap to fill', async () => {
    const { events, result } = await recordRun();
    const frames: (() => void)[] = [];
    const store = createRunStore(result.runId, (cb) => frames.push(cb));
    store.getState().receiveMany(events.slice(0, 10));
    store.getState().receiveMany(events.slice(5, 10)); // duplicates
    expect(frames).toHaveLength(1);
    expect(store.getState().tree.lastSeq).toBe(0);
    frames.shift()?.();
    expect(store.getState().tree.lastSeq).toBe(10);
    expect(store.getState().version).toBe(1);
    store.getState().receiveMany(events.slice(15)); // early
    frames.shift()?.();
    expect(store.getState().tree.lastSeq).toBe(10);
    store.getState().receiveMany(events.slice(10, 15));
    frames.shift()?.();
    expect(store.getState().tree.lastSeq).toBe(events.length);
    expect(store.getState().events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(JSON.parse(JSON.stringify(store.getState().tree))).toEqual(JSON.parse(JSON.stringify(result.tree)));
  });

  it('hands a selector a new node object only when that node changed', async () => {
    const { events } = await recordRun();
    const store = createRunStore('r', () => {});
    store.getState().receiveMany(events.slice(0, 12));
    store.getState().flush();
    const root = store.getState().tree.nodes.n0;
    const ids = Object.keys(store.getState().tree.nodes);
    const before = Object.fromEntries(ids.map((id) => [id, store.getState().tree.nodes[id]]));
    const next = events.slice(12, 14);
    store.getState().receiveMany(next);
    store.getState().flush();
    const touched = new Set(next.map((e) => (e.payload as { nodeId?: string }).nodeId));
    for (const id of ids) {
      if (!touched.has(id)) expect(store.getState().tree.nodes[id]).toBe(before[id]);
    }
    expect(store.getState().tree.nodes.n0 === root).toBe(!touched.has('n0'));
  });

  it('skips no-op writes', () => {
    const store = createRunStore('r', () => {});
    let calls = 0;
    store.subscribe(() => calls++);
    store.getState().select(null);
    store.getState().flush();
    expect(calls).toBe(0);
    store.getState().select('n1');
    expect(calls).toBe(1);
  });
});

describe('time travel in the store', () => {
  it('shows any past step, keeps receiving underneath, and goes back to live', async () => {
    const { events } = await recordRun();
    const store = createRunStore(events[0]?.runId as string, () => {});
    store.getState().receiveMany(events.slice(0, 60));
    store.getState().flush();
    const liveAt60 = JSON.parse(JSON.stringify(store.getState().tree));
    store.getState().seek(20);
    expect(store.getState().viewSeq).toBe(20);
    expect(store.getState().tree.lastSeq).toBe(20);
    expect(JSON.parse(JSON.stringify(store.getState().tree))).toEqual(
      JSON.parse(JSON.stringify(fold(events.slice(0, 20), createEmptyTree(events[0]?.runId)))),
    );
    // more events arrive while looking at the past: the screen stays at step 20
    store.getState().receiveMany(events.slice(60));
    store.getState().flush();
    expect(store.getState().tree.lastSeq).toBe(20);
    expect(store.getState().lastSeq).toBe(events.length);
    store.getState().seek(null);
    expect(store.getState().viewSeq).toBeNull();
    expect(store.getState().tree.lastSeq).toBe(events.length);
    expect(liveAt60.lastSeq).toBe(60);
  });

  it('derives the marks of the step on screen (a backtrack not yet happened is not drawn)', async () => {
    const { events } = await recordRun();
    const firstBacktrack = events.find((e) => e.type === 'backtrack') as ExplorationEvent;
    const store = createRunStore('r', () => {});
    store.getState().receiveMany(events);
    store.getState().flush();
    expect(store.getState().lastBacktrack).not.toBeNull();
    store.getState().seek(firstBacktrack.seq - 1);
    expect(store.getState().lastBacktrack).toBeNull();
    store.getState().seek(firstBacktrack.seq);
    expect(store.getState().lastBacktrack?.seq).toBe(firstBacktrack.seq);
  });
});

describe('a long run opened from its latest tree', () => {
  it('draws the latest tree at once, takes live events after it, and fills the history behind without redrawing', async () => {
    const { events, result } = await recordRun();
    const runId = result.runId;
    const n = events.length - 20;
    const store = createRunStore(runId, () => {});
    store.getState().startFrom(fold(events.slice(0, n), createEmptyTree(runId)));
    expect(store.getState().lastSeq).toBe(n);
    expect(store.getState().eventCount).toBe(0);
    // live events after the snapshot arrive before any history (twice, and one the snapshot already holds)
    store.getState().receiveMany(events.slice(n - 1, n + 10));
    store.getState().receiveMany(events.slice(n, n + 10));
    store.getState().flush();
    expect(store.getState().lastSeq).toBe(n + 10);
    expect(plain(store.getState().tree)).toEqual(plain(fold(events.slice(0, n + 10), createEmptyTree(runId))));

    // the first history page: the index grows, the tree on screen is untouched and the canvas is not told to redraw
    const version = store.getState().version;
    const tree = store.getState().tree;
    store.getState().receiveMany(events.slice(0, 40));
    store.getState().flush();
    expect(store.getState().eventCount).toBe(40);
    expect(store.getState().version).toBe(version);
    expect(store.getState().tree).toBe(tree);
    store.getState().seek(30);
    expect(plain(store.getState().tree)).toEqual(plain(fold(events.slice(0, 30), createEmptyTree(runId))));
    store.getState().seek(null);
    // a step the history has not reached is shown once it has
    store.getState().seek(n - 3);
    expect(store.getState().viewSeq).toBeNull();
    expect(store.getState().pendingSeq).toBe(n - 3); // what the address bar keeps meanwhile
    // the person goes elsewhere before the history arrives: the earlier request is forgotten, not applied later
    store.getState().seek(null);
    expect(store.getState().pendingSeq).toBeNull();
    store.getState().seek(n - 3);

    // the rest of the history, and the end of the run live: each event is applied exactly once
    store.getState().receiveMany(events.slice(40, n));
    store.getState().receiveMany(events.slice(n + 10));
    store.getState().flush();
    expect(store.getState().eventCount).toBe(events.length);
    expect(store.getState().events.map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    expect(store.getState().viewSeq).toBe(n - 3);
    expect(store.getState().pendingSeq).toBeNull();
    expect(plain(store.getState().tree)).toEqual(plain(fold(events.slice(0, n - 3), createEmptyTree(runId))));
    store.getState().seek(null);
    expect(plain(store.getState().tree)).toEqual(plain(result.tree));
    // once the history has caught up, the marks are those of the whole log
    const backtrack = events.filter((e) => e.type === 'backtrack').at(-1);
    expect(store.getState().lastBacktrack?.seq).toBe(backtrack?.seq);
    store.getState().seek(n - 5);
    expect(plain(store.getState().tree)).toEqual(plain(fold(events.slice(0, n - 5), createEmptyTree(runId))));
  });

  it('ignores a snapshot older than what it already shows', async () => {
    const { events, result } = await recordRun();
    const store = createRunStore(result.runId, () => {});
    store.getState().receiveMany(events.slice(0, 50));
    store.getState().flush();
    store.getState().startFrom(fold(events.slice(0, 30), createEmptyTree(result.runId)));
    expect(store.getState().tree.lastSeq).toBe(50);
  });
  it('never lets go of a linked step: no state between "waiting for the history" and "shown" holds neither', async () => {
    const { events, result } = await recordRun();
    const store = createRunStore(result.runId, () => {});
    store.getState().startFrom(fold(events, createEmptyTree(result.runId)));
    store.getState().seek(60); // the history is not in yet
    expect(store.getState().pendingSeq).toBe(60);
    // every state the address bar is written from while the history arrives names step 60
    const seen: (number | null)[] = [];
    const unsubscribe = store.subscribe((s) => seen.push(s.viewSeq ?? s.pendingSeq));
    store.getState().receiveMany(events);
    store.getState().flush();
    unsubscribe();
    expect(store.getState().viewSeq).toBe(60);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((step) => step === 60)).toBe(true);
  });

  it("keeps a step at a running run's live end as that step while the run goes on (a finished run's end is live)", async () => {
    const { events, result } = await recordRun();
    const store = createRunStore(result.runId, () => {});
    store.getState().receiveMany(events.slice(0, 50));
    store.getState().flush();
    store.getState().seek(50);
    expect(store.getState().viewSeq).toBe(50);
    store.getState().receiveMany(events.slice(50));
    store.getState().flush();
    expect(store.getState().viewSeq).toBe(50);
    expect(store.getState().tree.lastSeq).toBe(50);
    // the run is finished now: its last step is the live end
    store.getState().seek(events.length);
    expect(store.getState().viewSeq).toBeNull();
  });
});

describe('a command sent to a search Arborist does not run', () => {
  it('stops showing as sent once the log has its request: the tree’s commands tell the rest', () => {
    const log = externalSearchLog('ext');
    const requested = log.findIndex((e) => e.type === 'steer.requested');
    const store = createRunStore('ext', () => {});
    store.getState().receiveMany(log.slice(0, requested));
    store.getState().flush();
    store.getState().markPending('b', 'prune');
    expect(store.getState().pendingCommands).toEqual({ b: 'prune' });
    store.getState().receiveMany(log.slice(requested, requested + 1));
    store.getState().flush();
    // a refusal brings no steer.prune: the mark must not wait for one forever
    expect(store.getState().pendingCommands).toEqual({});
    expect(store.getState().tree.commands.map((c) => c.outcome)).toEqual(['requested']);
  });
});

describe('the next node of a search Arborist does not run', () => {
  it('is never guessed from the engine config its run stores: its own program decides what runs next', () => {
    const log = externalSearchLog('ext');
    // the client queued a node (canonical events): the engine's strategy would pick it as "next"
    log.push(followEvent(log, 'node.queued', { nodeId: 'a', mode: 'execute', urgent: false }));
    const store = createRunStore('ext', () => {});
    store.getState().receiveMany(log);
    store.getState().flush();
    expect(Object.keys(store.getState().tree.frontier)).toEqual(['a']);
    expect(store.getState().nextNodeId).toBeNull();
  });
});

describe('the calls in flight', () => {
  it('keep the stream’s newest figure apart from the log, a repeated figure changing nothing', () => {
    const store = createRunStore('r', () => {});
    expect(store.getState().callsInFlight).toBeNull();
    let writes = 0;
    store.subscribe(() => writes++);
    store.getState().setCallsInFlight(3);
    store.getState().setCallsInFlight(3);
    expect(store.getState().callsInFlight).toBe(3);
    expect(writes).toBe(1);
    expect(store.getState().version).toBe(0); // not an event: the tree and the history are as they were
    expect(store.getState().eventCount).toBe(0);
  });
});
