/**
 * Time travel over an event log: the tree as it was after any seq, without folding from the start. Copies of the
 * tree are kept every `interval` events as the log is read; seeking clones the nearest copy at or before the
 * target and folds the few events after it. Seeking is O(tree + interval) instead of O(seq).
 * Pure data, no React. Not responsible for which step is on screen (the run store decides).
 */
import type { ExplorationEvent } from '../engine/events';
import { cloneTree, createEmptyTree, reduce } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';

export const DEFAULT_SNAPSHOT_INTERVAL = 250;

export class SnapshotIndex {
  /** snapshots[i] is the tree after seq (i + 1) * interval. */
  private readonly snapshots: ThoughtTree[] = [];
  private readonly events: ExplorationEvent[] = [];
  private tip: ThoughtTree;

  constructor(
    private readonly runId: string,
    readonly interval = DEFAULT_SNAPSHOT_INTERVAL,
  ) {
    this.tip = createEmptyTree(runId);
  }

  get lastSeq(): number {
    return this.events.length;
  }

  /** Reads the next events of the log (in seq order, continuing it); keeps a copy every `interval` events. */
  append(events: readonly ExplorationEvent[]): void {
    for (const event of events) {
      if (event.seq !== this.events.length + 1) continue; // already read, or not the next one
      this.events.push(event);
      reduce(this.tip, event);
      if (event.seq % this.interval === 0) this.snapshots.push(cloneTree(this.tip));
    }
  }

  /** A new tree: the run as it was right after `seq` (clamped to the log). The caller owns it. */
  treeAt(seq: number): ThoughtTree {
    const target = Math.max(0, Math.min(Math.floor(seq), this.events.length));
    const index = Math.floor(target / this.interval) - 1;
    const base = index >= 0 ? this.snapshots[index] : undefined;
    const tree = base ? cloneTree(base) : createEmptyTree(this.runId);
    for (let s = tree.lastSeq + 1; s <= target; s++) reduce(tree, this.events[s - 1] as ExplorationEvent);
    return tree;
  }
}
