/**
 * Which queued node runs next (the exploration strategies), and where to go after a dead end (backtracking).
 * Pure functions of the tree, so the engine, a resumed engine and a test agree on the order.
 * Not responsible for putting nodes in the frontier: the executor emits node.queued events.
 */
import type { ExplorationStrategy } from '../contract/vocabulary';
import type { FrontierEntry, ThoughtNode, ThoughtTree } from './types';

/**
 * The entry to run next, or null when the frontier is empty.
 * Urgent entries (backtrack targets, a person's expand) come first, the latest request first.
 * - beam: shallowest first, pending (execute) before completed (expand) at the same depth, then cumulative score;
 * - best-first: the highest own composite score;
 * - dfs: last in, first out (the executor queues the best child of an expansion last, so it is on top).
 */
export function selectNext(tree: ThoughtTree): FrontierEntry | null {
  let chosen: FrontierEntry | null = null;
  for (const entry of Object.values(tree.frontier)) {
    if (!chosen || comesBefore(tree, entry, chosen)) chosen = entry;
  }
  return chosen;
}

/** The strategy's order: true when `a` runs before `b`. A total order (entry orders are unique). */
export function comesBefore(tree: ThoughtTree, a: FrontierEntry, b: FrontierEntry): boolean {
  if (a.urgent !== b.urgent) return a.urgent;
  if (a.urgent) return a.order > b.order;
  const strategy: ExplorationStrategy = tree.config.explorationStrategy;
  const na = tree.nodes[a.nodeId];
  const nb = tree.nodes[b.nodeId];
  if (!na || !nb) return a.order < b.order;
  if (strategy === 'dfs') return a.order > b.order;
  if (strategy === 'best-first') {
    const diff = composite(na) - composite(nb);
    return diff !== 0 ? diff > 0 : a.order < b.order;
  }
  if (na.depth !== nb.depth) return na.depth < nb.depth;
  if (a.mode !== b.mode) return a.mode === 'execute';
  if (na.cumulativeScore !== nb.cumulativeScore) return na.cumulativeScore > nb.cumulativeScore;
  return a.order < b.order;
}

function composite(node: ThoughtNode): number {
  return node.score?.composite ?? Number.POSITIVE_INFINITY;
}

/**
 * The best deferred alternative after `fromId` failed: a pending sibling that is not queued, else a pending
 * sibling of the nearest ancestor that has one. Best means highest composite; ties go to the earlier node.
 */
export function findBacktrackTarget(tree: ThoughtTree, fromId: string): ThoughtNode | null {
  let current = tree.nodes[fromId];
  while (current && current.parentId) {
    const parent = tree.nodes[current.parentId];
    if (!parent) return null;
    let best: ThoughtNode | null = null;
    for (const id of parent.childIds) {
      const sibling = tree.nodes[id];
      if (!sibling || id === current.id || sibling.status !== 'pending' || id in tree.frontier) continue;
      if (!best || (sibling.score?.composite ?? 0) > (best.score?.composite ?? 0)) best = sibling;
    }
    if (best) return best;
    current = parent;
  }
  return null;
}

/**
 * The executor's fast path to selectNext: a binary heap over the frontier in the strategy's order, so a step
 * costs O(log n) instead of a scan. Entries that left the frontier (started, pruned, replaced) are dropped
 * lazily when they reach the top. Always agrees with selectNext (frontier.test.ts).
 */
export class FrontierQueue {
  private heap: FrontierEntry[] = [];

  constructor(private readonly tree: ThoughtTree) {
    for (const entry of Object.values(tree.frontier)) this.push(entry);
  }

  push(entry: FrontierEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!comesBefore(this.tree, heap[i] as FrontierEntry, heap[parent] as FrontierEntry)) break;
      [heap[i], heap[parent]] = [heap[parent] as FrontierEntry, heap[i] as FrontierEntry];
      i = parent;
    }
  }

  /** The entry selectNext would choose, or null. */
  peek(): FrontierEntry | null {
    while (this.heap.length > 0) {
      const top = this.heap[0] as FrontierEntry;
      if (this.tree.frontier[top.nodeId]?.order === top.order) return top;
      this.popTop();
    }
    return null;
  }

  private popTop(): void {
    const heap = this.heap;
    const last = heap.pop() as FrontierEntry;
    if (heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < heap.length && comesBefore(this.tree, heap[left] as FrontierEntry, heap[best] as FrontierEntry))
        best = left;
      if (right < heap.length && comesBefore(this.tree, heap[right] as FrontierEntry, heap[best] as FrontierEntry))
        best = right;
      if (best === i) return;
      [heap[i], heap[best]] = [heap[best] as FrontierEntry, heap[i] as FrontierEntry];
      i = best;
    }
  }
}
