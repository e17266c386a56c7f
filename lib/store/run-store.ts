/**
 * The browser's state of one run: events in, tree out, through the same reduce() as the server. Streamed events
 * are buffered and applied once per animation frame, idempotently by seq (a duplicate is ignored, one that
 * arrives early waits for the missing ones). reduce() replaces only the node objects an event changes, so a
 * component selecting one node re-renders only when that node changed.
 *
 * Time travel: `tree` is what is on screen. Live, it is the tree of every event received; after seek(seq) it is
 * the tree as it was right after that seq (from the snapshot index, snapshots.ts), and new events keep arriving
 * underneath until seek(null) goes back to live. Everything derived (marks, best node, frontier) follows `tree`.
 * A store per run page (createRunStore), never a module-global store. Not responsible for fetching (the page).
 */
import { createStore } from 'zustand/vanilla';
import type { ExplorationEvent } from '../engine/events';
import { selectNext } from '../engine/frontier';
import { createEmptyTree, findBestNode, reduce } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';
import { SnapshotIndex } from './snapshots';

export interface PersonAction {
  type: 'prune' | 'expand';
  actor: string;
  seq: number;
}

export interface BacktrackMark {
  fromId: string;
  toId: string | null;
  seq: number;
}

/** What is derived from the tree on screen and the events up to it. */
interface Derived {
  personActions: Record<string, PersonAction[]>;
  lastBacktrack: BacktrackMark | null;
  /** The node the strategy runs next, and the best node so far (the winner once finished). */
  nextNodeId: string | null;
  bestNodeId: string | null;
}

export interface RunViewState extends Derived {
  runId: string;
  /** The tree on screen: the live one, or the past one being looked at. */
  tree: ThoughtTree;
  /** The seq on screen, or null when following the live end. */
  viewSeq: number | null;
  /** The last seq received, and the run's status at that point (what commands act on). */
  lastSeq: number;
  liveStatus: ThoughtTree['status'] | null;
  /** Bumped whenever the tree on screen or the log changes: the signal for whole-tree views. */
  version: number;
  /** Every event received, in seq order (index = seq - 1). */
  events: ExplorationEvent[];
  selectedNodeId: string | null;
  /** Commands sent but not yet seen in the log: shown at once on the node. */
  pendingCommands: Record<string, 'prune' | 'expand'>;
  /** Canvas view options. */
  foldDeadEnds: boolean;
  showDropped: boolean;
  openFolds: ReadonlySet<string>;
  followLive: boolean;
  receive(event: ExplorationEvent): void;
  receiveMany(events: readonly ExplorationEvent[]): void;
  /** Applies what is buffered now (the frame callback; tests call it directly). */
  flush(): void;
  /** Shows the run as it was right after `seq` (clamped to what has arrived); null goes back to live. */
  seek(seq: number | null): void;
  select(nodeId: string | null): void;
  markPending(nodeId: string, command: 'prune' | 'expand' | null): void;
  toggleFold(foldId: string): void;
  setView(patch: Partial<Pick<RunViewState, 'foldDeadEnds' | 'showDropped' | 'followLive'>>): void;
}

export type RunStore = ReturnType<typeof createRunStore>;

type Scheduler = (callback: () => void) => void;

const nextFrame: Scheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

/** Folds the person actions and the latest backtrack of some events into `into` (new objects where changed). */
function noteEvents(into: Pick<Derived, 'personActions' | 'lastBacktrack'>, events: readonly ExplorationEvent[]) {
  let { personActions, lastBacktrack } = into;
  for (const event of events) {
    if (event.type === 'steer.prune' || event.type === 'steer.expand') {
      const { nodeId, actor } = event.payload;
      const type = event.type === 'steer.prune' ? 'prune' : 'expand';
      personActions = {
        ...personActions,
        [nodeId]: [...(personActions[nodeId] ?? []), { type, actor, seq: event.seq }],
      };
    } else if (event.type === 'backtrack') {
      lastBacktrack = { fromId: event.payload.fromId, toId: event.payload.toId, seq: event.seq };
    }
  }
  return { personActions, lastBacktrack };
}

function frontierMarks(tree: ThoughtTree): Pick<Derived, 'nextNodeId' | 'bestNodeId'> {
  return {
    nextNodeId: tree.status === 'finished' ? null : (selectNext(tree)?.nodeId ?? null),
    bestNodeId: tree.bestNodeId ?? findBestNode(tree)?.id ?? null,
  };
}

export function createRunStore(runId: string, schedule: Scheduler = nextFrame) {
  let buffer: ExplorationEvent[] = [];
  let scheduled = false;
  const liveTree = createEmptyTree(runId);
  const index = new SnapshotIndex(runId);
  let liveDerived: Pick<Derived, 'personActions' | 'lastBacktrack'> = { personActions: {}, lastBacktrack: null };

  return createStore<RunViewState>()((set, get) => {
    const enqueue = (events: readonly ExplorationEvent[]) => {
      buffer.push(...events);
      if (!scheduled) {
        scheduled = true;
        schedule(() => {
          scheduled = false;
          get().flush();
        });
      }
    };

    return {
      runId,
      tree: liveTree,
      viewSeq: null,
      lastSeq: 0,
      liveStatus: null,
      version: 0,
      events: [],
      selectedNodeId: null,
      personActions: {},
      pendingCommands: {},
      lastBacktrack: null,
      nextNodeId: null,
      bestNodeId: null,
      foldDeadEnds: true,
      showDropped: true,
      openFolds: new Set<string>(),
      followLive: true,

      receive: (event) => enqueue([event]),
      receiveMany: (events) => enqueue(events),

      flush() {
        if (buffer.length === 0) return;
        const pending = buffer.sort((a, b) => a.seq - b.seq);
        buffer = [];
        const applied: ExplorationEvent[] = [];
        for (let i = 0; i < pending.length; i++) {
          const event = pending[i] as ExplorationEvent;
          if (event.seq <= liveTree.lastSeq) continue; // already applied: delivered twice
          if (event.seq !== liveTree.lastSeq + 1) {
            buffer = pending.slice(i); // a gap: wait for the events in between
            break;
          }
          reduce(liveTree, event);
          applied.push(event);
        }
        if (applied.length === 0) return;
        index.append(applied);
        liveDerived = noteEvents(liveDerived, applied);
        let { pendingCommands } = get();
        for (const event of applied) {
          if (event.type !== 'steer.prune' && event.type !== 'steer.expand') continue;
          const { nodeId } = event.payload;
          if (pendingCommands[nodeId] === (event.type === 'steer.prune' ? 'prune' : 'expand')) {
            const { [nodeId]: _done, ...rest } = pendingCommands;
            pendingCommands = rest;
          }
        }
        const live = get().viewSeq === null;
        set((s) => ({
          version: s.version + 1,
          events: s.events.concat(applied),
          lastSeq: liveTree.lastSeq,
          liveStatus: liveTree.status,
          pendingCommands,
          ...(live ? { tree: liveTree, ...liveDerived, ...frontierMarks(liveTree) } : {}),
        }));
      },

      seek(seq) {
        const state = get();
        if (seq === null || seq >= liveTree.lastSeq) {
          if (state.viewSeq === null) return;
          set((s) => ({
            viewSeq: null,
            tree: liveTree,
            version: s.version + 1,
            ...liveDerived,
            ...frontierMarks(liveTree),
          }));
          return;
        }
        const target = Math.max(0, Math.floor(seq));
        if (state.viewSeq === target) return;
        const tree = index.treeAt(target);
        const derived = noteEvents({ personActions: {}, lastBacktrack: null }, state.events.slice(0, target));
        set((s) => ({ viewSeq: target, tree, version: s.version + 1, ...derived, ...frontierMarks(tree) }));
      },

      select(nodeId) {
        if (get().selectedNodeId !== nodeId) set({ selectedNodeId: nodeId });
      },

      markPending(nodeId, command) {
        const { [nodeId]: previous, ...rest } = get().pendingCommands;
        if (previous === (command ?? undefined)) return;
        set({ pendingCommands: command ? { ...rest, [nodeId]: command } : rest });
      },

      toggleFold(foldId) {
        const openFolds = new Set(get().openFolds);
        if (!openFolds.delete(foldId)) openFolds.add(foldId);
        set({ openFolds });
      },

      setView(patch) {
        const state = get();
        if (Object.entries(patch).every(([k, v]) => state[k as keyof typeof patch] === v)) return;
        set(patch);
      },
    };
  });
}
