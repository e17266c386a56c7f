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
  const strategy = tree.config.explorationStrategy;
  let chosen: OrderKey | null = null;
  for (const entry of Object.values(tree.frontier)) {
    const key = orderKey(tree, entry);
    if (!chosen || keyBefore(strategy, key, chosen)) chosen = key;
  }
  return chosen?.entry ?? null;
}

/**
 * The frontier's first `limit` entries in the order the strategy runs them (selectNext's is the first), each read
 * once: a page keeps them in view without sorting a breadth-first frontier of thousands.
 */
export function nextInLine(tree: ThoughtTree, limit: number): FrontierEntry[] {
  const strategy = tree.config.explorationStrategy;
  const first: OrderKey[] = [];
  for (const entry of Object.values(tree.frontier)) {
    const key = orderKey(tree, entry);
    if (first.length === limit && !keyBefore(strategy, key, first[limit - 1] as OrderKey)) continue;
    let at = first.length;
    while (at > 0 && keyBefore(strategy, key, first[at - 1] as OrderKey)) at--;
    first.splice(at, 0, key);
    if (first.length > limit) first.pop();
  }
  return first.map((key) => key.entry);
}

/** The strategy's order: true when `a` runs before `b`. A total order (entry orders are unique). */
export function comesBefore(tree: ThoughtTree, a: FrontierEntry, b: FrontierEntry): boolean {
  return keyBefore(tree.config.explorationStrategy, orderKey(tree, a), orderKey(tree, b));
}

/**
 * What the strategies compare of a queued entry, read from its node once: a node's depth, score and cumulative
 * score are set when it is created and never change, so the key holds for as long as the entry is queued.
 */
interface OrderKey {
  entry: FrontierEntry;
  /** False when the entry names no node (a log's oddity): such entries keep their queue order. */
  known: boolean;
  depth: number;
  composite: number;
  cumulativeScore: number;
}

function orderKey(tree: ThoughtTree, entry: FrontierEntry): OrderKey {
  const node = tree.nodes[entry.nodeId];
  return node
    ? { entry, known: true, depth: node.depth, composite: composite(node), cumulativeScore: node.cumulativeScore }
    : { entry, known: false, depth: 0, composite: 0, cumulativeScore: 0 };
}

/** comesBefore on keys: the one definition of the strategies' order. */
function keyBefore(strategy: ExplorationStrategy, ka: OrderKey, kb: OrderKey): boolean {
  const a = ka.entry;
  const b = kb.entry;
  if (a.urgent !== b.urgent) return a.urgent;
  if (a.urgent) return a.order > b.order;
  if (!ka.known || !kb.known) return a.order < b.order;
  if (strategy === 'dfs') return a.order > b.order;
  if (strategy === 'best-first') {
    const diff = ka.composite - kb.composite;
    return diff !== 0 ? diff > 0 : a.order < b.order;
  }
  if (ka.depth !== kb.depth) return ka.depth < kb.depth;
  if (a.mode !== b.mode) return a.mode === 'execute';
  if (ka.cumulativeScore !== kb.cumulativeScore) return ka.cumulativeScore > kb.cumulativeScore;
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
 * costs O(log n) instead of a scan. Each entry's order key is read from its node once, when it is pushed. Entries
 * that left the frontier (started, pruned, replaced) are dropped lazily when they reach the top. Always agrees with
 * selectNext (frontier.test.ts).
 */
export class FrontierQueue {
  private heap: OrderKey[] = [];

  constructor(private readonly tree: ThoughtTree) {
    for (const entry of Object.values(tree.frontier)) this.push(entry);
  }

  push(entry: FrontierEntry): void {
    const heap = this.heap;
    // the strategy is read at each use: explore() builds the queue before run.started sets the config
    const strategy = this.tree.config.explorationStrategy;
    const key = orderKey(this.tree, entry);
    let i = heap.length;
    heap.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent] as OrderKey;
      if (!keyBefore(strategy, key, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = key;
  }

  /** The entry selectNext would choose, or null. */
  peek(): FrontierEntry | null {
    while (this.heap.length > 0) {
      const top = (this.heap[0] as OrderKey).entry;
      if (this.tree.frontier[top.nodeId]?.order === top.order) return top;
      this.popTop();
    }
    return null;
  }

  private popTop(): void {
    const heap = this.heap;
    const strategy = this.tree.config.explorationStrategy;
    const last = heap.pop() as OrderKey;
    const size = heap.length;
    if (size === 0) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (right < size && keyBefore(strategy, heap[right] as OrderKey, heap[left] as OrderKey)) child = right;
      if (!keyBefore(strategy, heap[child] as OrderKey, last)) break;
      heap[i] = heap[child] as OrderKey;
      i = child;
    }
    heap[i] = last;
  }
}
