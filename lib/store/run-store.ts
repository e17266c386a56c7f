/**
 * The browser's state of one run: events in, tree out, through the same reduce() as the server. Streamed events
 * are buffered and applied once per animation frame, idempotently by seq (a duplicate is ignored, one that
 * arrives early waits for the missing ones). reduce() replaces only the node objects an event changes, so a
 * component selecting one node re-renders only when that node changed.
 * A store per run page (createRunStore), never a module-global store. Not responsible for fetching (the page).
 */
import { createStore } from 'zustand/vanilla';
import type { ExplorationEvent } from '../engine/events';
import { createEmptyTree, reduce } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';

export interface RunViewState {
  runId: string;
  tree: ThoughtTree;
  /** Bumped on every applied batch: the signal for views derived from the whole tree. */
  version: number;
  /** Every applied event, in seq order. */
  events: ExplorationEvent[];
  selectedNodeId: string | null;
  receive(event: ExplorationEvent): void;
  receiveMany(events: readonly ExplorationEvent[]): void;
  /** Applies what is buffered now (the frame callback; tests call it directly). */
  flush(): void;
  select(nodeId: string | null): void;
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
        set((s) => ({ version: s.version + 1, events: s.events.concat(applied) }));
      },

      select(nodeId) {
        if (get().selectedNodeId !== nodeId) set({ selectedNodeId: nodeId });
      },
    };
  });
}
