/**
 * The browser's state of one run: events in, tree out, through the same reduce() as the server. Streamed events
 * are buffered and applied once per animation frame, idempotently by seq (a duplicate is ignored, one that
 * arrives early waits for the missing ones). reduce() replaces only the node objects an event changes, so a
 * component selecting one node re-renders only when that node changed.
 * A store per run page (createRunStore), never a module-global store. Not responsible for fetching (the page).
 */
import { createStore } from 'zustand/vanilla';
import type { ExplorationEvent } from '../engine/events';
import { selectNext } from '../engine/frontier';
import { createEmptyTree, findBestNode, reduce } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';

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

export interface RunViewState {
  runId: string;
  tree: ThoughtTree;
  /** Bumped on every applied batch: the signal for views derived from the whole tree. */
  version: number;
  /** Every applied event, in seq order. */
  events: ExplorationEvent[];
  selectedNodeId: string | null;
  /** What people did to each node (prune, expand again), so it stays visible on the node. */
  personActions: Record<string, PersonAction[]>;
  /** Commands sent but not yet seen in the log: shown at once on the node. */
  pendingCommands: Record<string, 'prune' | 'expand'>;
  lastBacktrack: BacktrackMark | null;
  /** The node the strategy runs next, and the best node so far (the winner once finished). */
  nextNodeId: string | null;
  bestNodeId: string | null;
  /** Canvas view options. */
  foldDeadEnds: boolean;
  showDropped: boolean;
  openFolds: ReadonlySet<string>;
  followLive: boolean;
  receive(event: ExplorationEvent): void;
  receiveMany(events: readonly ExplorationEvent[]): void;
  /** Applies what is buffered now (the frame callback; tests call it directly). */
  flush(): void;
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

export function createRunStore(runId: string, schedule: Scheduler = nextFrame) {
  let buffer: ExplorationEvent[] = [];
  let scheduled = false;

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
      tree: createEmptyTree(runId),
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
        const { tree } = get();
        const pending = buffer.sort((a, b) => a.seq - b.seq);
        buffer = [];
        const applied: ExplorationEvent[] = [];
        for (let i = 0; i < pending.length; i++) {
          const event = pending[i] as ExplorationEvent;
          if (event.seq <= tree.lastSeq) continue; // already applied: delivered twice
          if (event.seq !== tree.lastSeq + 1) {
            buffer = pending.slice(i); // a gap: wait for the events in between
            break;
          }
          reduce(tree, event);
          applied.push(event);
        }
        if (applied.length === 0) return;
        let { personActions, pendingCommands, lastBacktrack } = get();
        for (const event of applied) {
          if (event.type === 'steer.prune' || event.type === 'steer.expand') {
            const { nodeId, actor } = event.payload;
            const type = event.type === 'steer.prune' ? 'prune' : 'expand';
            personActions = {
              ...personActions,
              [nodeId]: [...(personActions[nodeId] ?? []), { type, actor, seq: event.seq }],
            };
            if (pendingCommands[nodeId] === type) {
              const { [nodeId]: _done, ...rest } = pendingCommands;
              pendingCommands = rest;
            }
          } else if (event.type === 'backtrack') {
            lastBacktrack = { fromId: event.payload.fromId, toId: event.payload.toId, seq: event.seq };
          }
        }
        set((s) => ({
          version: s.version + 1,
          events: s.events.concat(applied),
          personActions,
          pendingCommands,
          lastBacktrack,
          nextNodeId: tree.status === 'finished' ? null : (selectNext(tree)?.nodeId ?? null),
          bestNodeId: tree.bestNodeId ?? findBestNode(tree)?.id ?? null,
        }));
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
