/**
 * The browser's state of one run: events in, tree out, through the same reduce() as the server. Streamed events
 * are buffered and applied once per animation frame, idempotently by seq (a duplicate is ignored, one that
 * arrives early waits for the missing ones). reduce() replaces only the node objects an event changes, so a
 * component selecting one node re-renders only when that node changed.
 *
 * Two logs meet here. The live tree is what the newest events say; it may start from a tree folded elsewhere
 * (startFrom: the server's snapshot of a long run) and then takes events after it. The history (`events`, the
 * snapshot index) is the log read from seq 1; it fills in behind, page by page, for time travel, and may lag the
 * live tree (`eventCount` < `lastSeq` while it loads). Only the live tree is drawn live: history pages arriving
 * change `eventCount`, not `tree`.
 *
 * Time travel: `tree` is what is on screen. Live, it is the live tree; after seek(seq) it is the tree as it was
 * right after that seq (from the snapshot index, snapshots.ts), and new events keep arriving underneath until
 * seek(null) goes back to live. A step the history has not reached yet is shown once it has (the last asked).
 * Everything derived (marks, best node, frontier) follows `tree`.
 *
 * Breakpoints: the live tree's list and the hit it is stopped at (what commands act on, whatever step is on screen),
 * and the hits along the log (breakpoints.ts): a running run's stops, or, once it has ended, its list (or the local
 * one the person edits here, never sent) as a query over the whole history, judged once per change of list or log.
 * The running run's calls in flight (callsInFlight) come beside the log on its stream: a transient figure for the
 * header, kept as the newest value, never folded or part of any tree.
 * The run's discussion (comments and labels, issue 34) is kept beside the log as the page last read it
 * (`discussion`, discussion.ts): never folded, never part of any tree, the same at every step.
 * A store per run page (createRunStore), never a module-global store. Not responsible for fetching (the page).
 */
import { createStore } from 'zustand/vanilla';
import type { Breakpoint, BreakpointHit } from '../contract/breakpoints';
import type { ExplorationEvent } from '../contract/events';
import { createEmptyTree, markedBestNode, reduce, selectNext, type ThoughtTree } from '../engine/index';
import { type HitList, NO_HITS, queryHits, StopIndex } from './breakpoints';
import { NO_NOTES, noteEvents, SnapshotIndex, type StepNotes } from './snapshots';
import { type DiscussionIndex, indexDiscussion, NO_DISCUSSION } from './discussion';
import type { NodeLabel, RunComment } from '../contract/discussion';

export type { BacktrackMark, PersonAction } from './snapshots';

/** What is derived from the tree on screen and the events up to it. */
interface Derived extends StepNotes {
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
  /** A step asked for (seek) that the history has not reached yet: shown when it does, unless another seek comes. */
  pendingSeq: number | null;
  /** The last seq of the live tree, and the run's status at that point (what commands act on). */
  lastSeq: number;
  liveStatus: ThoughtTree['status'] | null;
  /** Bumped whenever the tree on screen or the log changes: the signal for whole-tree views. */
  version: number;
  /**
   * The history: every event read from seq 1 on, in seq order (index = seq - 1). Appended in place (copying a
   * 100k-event log on every frame was quadratic), so select `eventCount` to follow it, and never change it.
   */
  events: readonly ExplorationEvent[];
  /** How many events the history holds (events.length); below lastSeq while older pages are still loading. */
  eventCount: number;
  selectedNodeId: string | null;
  /**
   * Commands sent but not yet seen in the log: shown at once on the node. Seen means its effect in the log, or for a
   * search Arborist does not run its steer.requested (from then on tree.commands says where it stands).
   */
  pendingCommands: Record<string, 'prune' | 'expand'>;
  /** The live tree's breakpoints and the hit it is stopped at (null: not stopped at one). */
  liveBreakpoints: readonly Breakpoint[];
  liveHit: BreakpointHit | null;
  /**
   * An ended run's breakpoints as the person edited them here (a query over its history, not sent); null: the run's
   * own list.
   */
  localBreakpoints: readonly Breakpoint[] | null;
  /** The hits along the log: a running run's stops, an ended run's query hits. */
  hits: HitList;
  /** An ended run's query waits for its history to finish loading. */
  hitsPending: boolean;
  /** Canvas view options. */
  foldDeadEnds: boolean;
  showDropped: boolean;
  openFolds: ReadonlySet<string>;
  followLive: boolean;
  /** The running run's model calls in flight, as its stream last said (null: not said on this connection). */
  callsInFlight: number | null;
  /** The run's comments and labels as last read (not part of the log). */
  discussion: DiscussionIndex;
  receive(event: ExplorationEvent): void;
  receiveMany(events: readonly ExplorationEvent[]): void;
  /**
   * Starts the live tree from a tree folded elsewhere (its lastSeq says where it is); the store owns it from now
   * on. Ignored when the live tree is already as far. Events up to its lastSeq then only fill the history.
   */
  startFrom(tree: ThoughtTree): void;
  /** Applies what is buffered now (the frame callback; tests call it directly). */
  flush(): void;
  /**
   * Shows the run as it was right after `seq`; null, a seq past the live end or a finished run's last seq go back
   * to live. A step beyond the history loaded so far is shown as soon as the history reaches it.
   */
  seek(seq: number | null): void;
  select(nodeId: string | null): void;
  markPending(nodeId: string, command: 'prune' | 'expand' | null): void;
  toggleFold(foldId: string): void;
  /** Sets the ended run's local list (null: back to the run's own). */
  setLocalBreakpoints(list: readonly Breakpoint[] | null): void;
  setView(patch: Partial<Pick<RunViewState, 'foldDeadEnds' | 'showDropped' | 'followLive'>>): void;
  setCallsInFlight(count: number | null): void;
  setDiscussion(comments: readonly RunComment[], labels: readonly NodeLabel[]): void;
}

export type RunStore = ReturnType<typeof createRunStore>;

type Scheduler = (callback: () => void) => void;

const nextFrame: Scheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

function frontierMarks(tree: ThoughtTree): Pick<Derived, 'nextNodeId' | 'bestNodeId'> {
  return {
    // a search Arborist does not run picks its own next node: its run's engine config (the defaults) cannot tell
    nextNodeId: tree.status === 'finished' || tree.external ? null : (selectNext(tree)?.nodeId ?? null),
    bestNodeId: markedBestNode(tree)?.id ?? null,
  };
}

export function createRunStore(runId: string, schedule: Scheduler = nextFrame) {
  let buffer: ExplorationEvent[] = [];
  let scheduled = false;
  let liveTree = createEmptyTree(runId);
  const index = new SnapshotIndex(runId);
  // the notes of the live tree: the index's once the history has caught up, else those of the live events alone
  let liveNotes: StepNotes = NO_NOTES;
  // a step asked for before the history reached it (also in the state, as pendingSeq, for the address bar)
  let wanted: number | null = null;
  const stops = new StopIndex();
  let query: { list: readonly Breakpoint[]; count: number; hits: HitList } | null = null;

  return createStore<RunViewState>()((set, get) => {
    const want = (seq: number | null) => {
      wanted = seq;
      if (get().pendingSeq !== seq) set({ pendingSeq: seq });
    };
    const enqueue = (events: readonly ExplorationEvent[]) => {
      for (const event of events) buffer.push(event);
      if (!scheduled) {
        scheduled = true;
        schedule(() => {
          scheduled = false;
          get().flush();
        });
      }
    };

    /** Applies the buffered events each log can take now; what is early for either stays buffered. */
    const applyBuffer = () => {
      if (buffer.length === 0) return;
      const pending = buffer.sort((a, b) => a.seq - b.seq);
      buffer = [];
      const applied: ExplorationEvent[] = []; // to the live tree
      const history: ExplorationEvent[] = []; // to the index, continuing it
      let historyNext = index.lastSeq + 1;
      for (const event of pending) {
        if (event.seq === liveTree.lastSeq + 1) {
          reduce(liveTree, event);
          applied.push(event);
        }
        if (event.seq === historyNext) {
          history.push(event);
          historyNext++;
        }
        // early for either log (a gap, or history still loading below it): wait for the events in between
        if (event.seq > liveTree.lastSeq || event.seq >= historyNext) buffer.push(event);
      }
      if (applied.length === 0 && history.length === 0) return;
      index.append(history);
      const caughtUp = index.lastSeq === liveTree.lastSeq;
      const notesBefore = liveNotes;
      liveNotes = caughtUp ? index.notes : noteEvents(liveNotes, applied);
      const live = get().viewSeq === null;
      if (applied.length === 0) {
        // history only: the time-travel index grew; the tree on screen did not change
        set({
          eventCount: index.lastSeq,
          ...hitsNow(get().localBreakpoints),
          ...(live && liveNotes !== notesBefore ? liveNotes : {}),
        });
        return;
      }
      let { pendingCommands } = get();
      for (const event of applied) {
        // the log has the command: its effect (steer.prune, steer.expand), or, for a search Arborist does not run,
        // the request to its client, whose life the tree's commands then tell (requested, applied or refused)
        const settled =
          event.type === 'steer.prune' || event.type === 'steer.expand'
            ? { nodeId: event.payload.nodeId, kind: event.type === 'steer.prune' ? 'prune' : 'expand' }
            : event.type === 'steer.requested' && event.payload.nodeId
              ? { nodeId: event.payload.nodeId, kind: event.payload.kind }
              : null;
        if (!settled) continue;
        const { nodeId } = settled;
        if (pendingCommands[nodeId] === settled.kind) {
          const { [nodeId]: _done, ...rest } = pendingCommands;
          pendingCommands = rest;
        }
      }
      set((s) => ({
        version: s.version + 1,
        eventCount: index.lastSeq,
        lastSeq: liveTree.lastSeq,
        liveStatus: liveTree.status,
        pendingCommands,
        ...breakpointView(),
        ...(live ? liveView() : {}),
      }));
    };

    /**
     * The hits as the log and lists stand now. A running run's come from its stops; an ended run's from judging its
     * history against its list, once the history is whole, and again only when the list or the log changed.
     */
    const hitsNow = (local: readonly Breakpoint[] | null): Pick<RunViewState, 'hits' | 'hitsPending'> => {
      if (liveTree.status !== 'finished') return { hits: stops.read(index.events, index.lastSeq), hitsPending: false };
      const list = local ?? liveTree.breakpoints;
      if (!list.some((b) => b.enabled)) return { hits: NO_HITS, hitsPending: false };
      if (index.lastSeq < liveTree.lastSeq) return { hits: NO_HITS, hitsPending: true };
      if (query?.list !== list || query.count !== index.lastSeq) {
        query = { list, count: index.lastSeq, hits: queryHits(index.events, index.lastSeq, list) };
      }
      return { hits: query.hits, hitsPending: false };
    };
    const breakpointView = (): Partial<RunViewState> => ({
      liveBreakpoints: liveTree.breakpoints,
      liveHit: liveTree.breakpointHit,
      ...hitsNow(get().localBreakpoints),
    });

    const liveView = (): Partial<RunViewState> => ({ tree: liveTree, ...liveNotes, ...frontierMarks(liveTree) });

    return {
      runId,
      tree: liveTree,
      viewSeq: null,
      pendingSeq: null,
      lastSeq: 0,
      liveStatus: null,
      version: 0,
      events: index.events,
      eventCount: 0,
      selectedNodeId: null,
      personActions: {},
      pendingCommands: {},
      lastBacktrack: null,
      nextNodeId: null,
      bestNodeId: null,
      liveBreakpoints: liveTree.breakpoints,
      liveHit: null,
      localBreakpoints: null,
      hits: NO_HITS,
      hitsPending: false,
      foldDeadEnds: true,
      showDropped: true,
      openFolds: new Set<string>(),
      followLive: true,
      callsInFlight: null,
      discussion: NO_DISCUSSION,

      receive: (event) => enqueue([event]),
      receiveMany: (events) => enqueue(events),

      startFrom(tree) {
        if (tree.lastSeq <= liveTree.lastSeq) return;
        liveTree = tree;
        liveNotes = index.lastSeq === tree.lastSeq ? index.notes : NO_NOTES;
        set((s) => ({
          version: s.version + 1,
          lastSeq: liveTree.lastSeq,
          liveStatus: liveTree.status,
          ...breakpointView(),
          ...(s.viewSeq === null ? liveView() : {}),
        }));
        get().flush(); // events buffered beyond the snapshot follow it at once
      },

      flush() {
        applyBuffer();
        if (wanted !== null && index.lastSeq >= wanted) get().seek(wanted);
      },

      seek(seq) {
        const state = get();
        // the live end: nothing later, or the last step of a finished run (a running run's last step is a fixed
        // step: a link to it keeps showing it while the run goes on)
        if (seq === null || seq > liveTree.lastSeq || (seq === liveTree.lastSeq && liveTree.status === 'finished')) {
          wanted = null;
          if (state.viewSeq === null && state.pendingSeq === null) return;
          set((s) => ({
            pendingSeq: null,
            ...(s.viewSeq === null ? {} : { viewSeq: null, version: s.version + 1, ...liveView() }),
          }));
          return;
        }
        const target = Math.max(0, Math.floor(seq));
        if (target > index.lastSeq) {
          want(target); // the history has not reached it: shown when it does (flush)
          return;
        }
        wanted = null;
        if (state.viewSeq === target && state.pendingSeq === null) return;
        const { tree, notes } = index.stepAt(target);
        // one write: the step is shown and no longer pending at once (the address bar never sees neither)
        set((s) => ({
          viewSeq: target,
          pendingSeq: null,
          tree,
          version: s.version + 1,
          ...notes,
          ...frontierMarks(tree),
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

      setLocalBreakpoints(list) {
        if (get().localBreakpoints === list) return;
        set({ localBreakpoints: list, ...hitsNow(list) });
      },

      setCallsInFlight(count) {
        if (get().callsInFlight !== count) set({ callsInFlight: count });
      },

      setDiscussion(comments, labels) {
        const now = get().discussion;
        if (now.comments === comments && now.labels === labels) return;
        set({ discussion: indexDiscussion(comments, labels) });
      },

      setView(patch) {
        const state = get();
        if (Object.entries(patch).every(([k, v]) => state[k as keyof typeof patch] === v)) return;
        set(patch);
      },
    };
  });
}
