/**
 * Time travel over an event log: the step as it was after any seq (its tree, the person actions and the last
 * backtrack up to it), without folding from the start.
 *
 * As the log is read, a compact snapshot is kept every `interval` events. reduce() replaces node objects and never
 * mutates them, and only appends to nodeOrder, deadEnds and exploredThoughts; so a snapshot holds the node
 * objects as one packed array (one pointer per node, aligned with nodeOrder), the lengths of the append-only lists
 * (their prefixes stay valid in the index's own tree), the frontier's entries and the small scalars. That is a few
 * bytes per node per snapshot instead of a deep copy of the tree (structuredClone every 250 events made memory and
 * time quadratic in the run). A seek rebuilds the nearest snapshot at or before the target (O(nodes) pointer
 * copies) and folds at most `interval` events. A few recently sought steps are cached, and a seek may start from
 * one of them when it is nearer, so stepping forward folds only the events in between.
 *
 * Pure data, no React. Not responsible for which step is on screen (the run store decides).
 */
import type { ExplorationEvent } from '../contract/events';
import {
  createEmptyTree,
  type FrontierEntry,
  reduce,
  snapshotTree,
  type ThoughtNode,
  type ThoughtTree,
} from '../engine/index';

export const DEFAULT_SNAPSHOT_INTERVAL = 1_000;
/** Steps kept after a seek (each holds a copy of the tree's containers). */
const CACHED_STEPS = 4;

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

/** What the log says about people and backtracks up to a step (derived alongside the tree). */
export interface StepNotes {
  personActions: Record<string, PersonAction[]>;
  lastBacktrack: BacktrackMark | null;
}

export const NO_NOTES: StepNotes = { personActions: {}, lastBacktrack: null };

/**
 * Folds the person actions and the latest backtrack of some events into `into`. Persistent: returns new objects
 * where something changed and shares the rest, so a snapshot keeps its notes by reference.
 */
export function noteEvents(into: StepNotes, events: Iterable<ExplorationEvent>): StepNotes {
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
  return personActions === into.personActions && lastBacktrack === into.lastBacktrack
    ? into
    : { personActions, lastBacktrack };
}

/** A step of the run: the tree right after `tree.lastSeq` and the notes up to it. Shared: never mutate it. */
export interface Step {
  tree: ThoughtTree;
  notes: StepNotes;
}

/** A step kept by the index: the tree without its big containers, which are rebuilt from the index's tip. */
interface Compact {
  scalars: ThoughtTree;
  nodes: ThoughtNode[];
  frontier: FrontierEntry[];
  deadEnds: number;
  exploredThoughts: number;
  notes: StepNotes;
}

const NO_NODES: ThoughtTree['nodes'] = Object.freeze({});
const NO_IDS: string[] = Object.freeze([]) as unknown as string[];

function compact(tip: ThoughtTree, notes: StepNotes): Compact {
  const nodes = new Array<ThoughtNode>(tip.nodeOrder.length);
  tip.nodeOrder.forEach((id, i) => (nodes[i] = tip.nodes[id] as ThoughtNode));
  return {
    scalars: {
      ...tip,
      nodes: NO_NODES,
      nodeOrder: NO_IDS,
      frontier: NO_NODES as never,
      deadEnds: NO_IDS,
      exploredThoughts: NO_IDS,
      stats: { ...tip.stats, tokenUsage: { ...tip.stats.tokenUsage } },
      usage: { ...tip.usage },
    },
    nodes,
    frontier: Object.values(tip.frontier),
    deadEnds: tip.deadEnds.length,
    exploredThoughts: tip.exploredThoughts.length,
    notes,
  };
}

/** A whole tree again from a compact snapshot and the (later) tip whose append-only lists it is a prefix of. */
function restore(snapshot: Compact, tip: ThoughtTree): ThoughtTree {
  const nodeOrder = tip.nodeOrder.slice(0, snapshot.nodes.length);
  const nodes: ThoughtTree['nodes'] = {};
  nodeOrder.forEach((id, i) => (nodes[id] = snapshot.nodes[i] as ThoughtNode));
  const frontier: ThoughtTree['frontier'] = {};
  for (const entry of snapshot.frontier) frontier[entry.nodeId] = entry;
  const { scalars } = snapshot;
  return {
    ...scalars,
    nodes,
    nodeOrder,
    frontier,
    deadEnds: tip.deadEnds.slice(0, snapshot.deadEnds),
    exploredThoughts: tip.exploredThoughts.slice(0, snapshot.exploredThoughts),
    stats: { ...scalars.stats, tokenUsage: { ...scalars.stats.tokenUsage } },
    usage: { ...scalars.usage },
  };
}

export class SnapshotIndex {
  /** Compact snapshots in seq order, one every `interval` events; the first is the empty tree. */
  private readonly snapshots: Compact[];
  /** Every event read, in seq order (index = seq - 1). Appended in place: read it, never change it. */
  readonly events: ExplorationEvent[] = [];
  private readonly tip: ThoughtTree;
  private tipNotes: StepNotes = NO_NOTES;
  private readonly cache: Step[] = [];

  constructor(
    private readonly runId: string,
    readonly interval = DEFAULT_SNAPSHOT_INTERVAL,
  ) {
    this.tip = createEmptyTree(runId);
    this.snapshots = [compact(this.tip, NO_NOTES)];
  }

  get lastSeq(): number {
    return this.events.length;
  }

  /** The notes of the whole log read so far. */
  get notes(): StepNotes {
    return this.tipNotes;
  }

  /** How many snapshots are kept (for the bench and tests). */
  get snapshotCount(): number {
    return this.snapshots.length;
  }

  /** Reads the next events of the log (in seq order, continuing it); keeps a snapshot every `interval` events. */
  append(events: readonly ExplorationEvent[]): void {
    for (const event of events) {
      if (event.seq !== this.events.length + 1) continue; // already read, or not the next one
      this.events.push(event);
      reduce(this.tip, event);
      this.tipNotes = noteEvents(this.tipNotes, [event]);
      if (event.seq % this.interval === 0) this.snapshots.push(compact(this.tip, this.tipNotes));
    }
  }

  /** The run as it was right after `seq` (clamped to the log). Shared with the index's cache: read it only. */
  stepAt(seq: number): Step {
    const target = Math.max(0, Math.min(Math.floor(seq), this.events.length));
    const snapshot = this.snapshots[Math.floor(target / this.interval)] as Compact;
    let cached: Step | null = null;
    for (const step of this.cache) {
      const at = step.tree.lastSeq;
      if (at === target) return step;
      if (at < target && at > (cached?.tree.lastSeq ?? snapshot.scalars.lastSeq)) cached = step;
    }
    const base = cached ?? { tree: restore(snapshot, this.tip), notes: snapshot.notes };
    const tree = cached ? snapshotTree(cached.tree) : base.tree;
    const from = tree.lastSeq;
    for (let s = from + 1; s <= target; s++) reduce(tree, this.events[s - 1] as ExplorationEvent);
    const step = { tree, notes: noteEvents(base.notes, this.events.slice(from, target)) };
    this.cache.unshift(step);
    if (this.cache.length > CACHED_STEPS) this.cache.pop();
    return step;
  }

  /** The tree right after `seq` (see stepAt). */
  treeAt(seq: number): ThoughtTree {
    return this.stepAt(seq).tree;
  }
}
