/**
 * What the canvas shows of a tree: the scratchpad's compaction on screen. A node's dead ends (failed children and
 * those a person pruned, with their subtrees) fold into one summary item per parent; what was pruned by rule (the
 * candidates dropped below the threshold, and the children the search pruned by its own rule: an external search's,
 * an imported log's) into another; a fold opens on request, or by itself when the item to reveal (the selection) is
 * inside it.
 * With autoCollapse, the tree is shown around a focus (focusNodes: the selection with its siblings and children,
 * the best node, the frontier and the running node, each with its ancestors); a parent's other children collapse
 * into one "+N more, best 0.71" summary item, which opens in place on request.
 * Pure and React-free; the result feeds the tidy layout (tidy.ts) as a plain parent -> children map.
 * Not responsible for positions (tidy.ts) or drawing (components/run).
 */
import type { BranchScore } from '../contract/vocabulary';
import { nextInLine, type ThoughtNode, type ThoughtTree } from '../engine/index';
import { isSearchPruned } from './node-status';

export type VisibleItem =
  | { kind: 'node'; id: string; nodeId: string }
  | { kind: 'dead-fold'; id: string; parentId: string; nodeIds: string[]; hidden: number }
  | {
      kind: 'dropped-fold';
      id: string;
      parentId: string;
      /** What it holds: the parent's candidates dropped below the threshold, and nodeIds. */
      count: number;
      /** The children the search pruned by its own rule (each hides its subtree too). */
      nodeIds: string[];
      /** Nodes hidden, their subtrees included. */
      hidden: number;
    }
  | { kind: 'dropped'; id: string; parentId: string; index: number }
  | {
      kind: 'summary';
      id: string;
      parentId: string;
      /** The collapsed children (each hides its subtree too). */
      nodeIds: string[];
      /** Nodes hidden, subtrees included. */
      hidden: number;
      /** Best composite score among the hidden nodes; null when none is scored. */
      best: number | null;
      /** That node's whole score, so the card can show it as the node shows it (an imported log's own value). */
      bestScore: BranchScore | null;
    };

export interface VisibleTree {
  rootId: string | null;
  items: Map<string, VisibleItem>;
  /** Children of every visible item, in order: the layout's input. */
  childIds: Record<string, string[]>;
}

export interface VisibilityOptions {
  /** Fold failed children and those a person pruned into one summary per parent. */
  foldDeadEnds: boolean;
  /** Show the candidates dropped below the threshold and the branches the search pruned (folded unless opened). */
  showDropped: boolean;
  /** Folds opened by the person (ids of dead-fold and dropped-fold items). */
  openFolds: ReadonlySet<string>;
  /** An item that must be visible (the selection): the folds that hide it open. */
  reveal?: string | null;
  /** Collapse children off the focus into one summary per parent (summaries open through openFolds). */
  autoCollapse?: boolean;
  /** What stays open under autoCollapse (with every ancestor): see focusNodes. */
  focus?: ReadonlySet<string>;
}

export const deadFoldId = (parentId: string) => `fold:${parentId}`;
export const droppedFoldId = (parentId: string) => `drop:${parentId}`;
export const droppedItemId = (parentId: string, index: number) => `drop:${parentId}:${index}`;
export const summaryId = (parentId: string) => `more:${parentId}`;

/**
 * Of the frontier, at most this many nodes stay in focus: those the search runs next. A breadth-first search waits on
 * thousands (3,666 of an 11k-node live run's nodes), and keeping every one open with its ancestors kept the whole
 * tree open, so a big live run was laid out and drawn whole on every change; the rest wait in "+N more" summaries.
 */
export const FRONTIER_IN_FOCUS = 24;

/**
 * The nodes a person is looking at: the selection, its siblings and children; the best node (with none, the root's
 * children and the top-rated node); and, while the run is not finished, the node running now and the frontier's
 * next FRONTIER_IN_FOCUS nodes. visibleTree keeps these and their ancestors open.
 */
export function focusNodes(tree: ThoughtTree, selectedId: string | null, bestId: string | null): Set<string> {
  const focus = new Set<string>();
  const selected = selectedId ? tree.nodes[selectedId] : undefined;
  if (selected) {
    focus.add(selected.id);
    const parent = selected.parentId ? tree.nodes[selected.parentId] : undefined;
    for (const id of parent?.childIds ?? []) focus.add(id);
    for (const id of selected.childIds) focus.add(id);
  }
  if (bestId && tree.nodes[bestId]) focus.add(bestId);
  else {
    // No best node (nothing completed yet, or a finished run without a winner): rather than one fold card under the
    // goal, keep the first level and the path the search rated highest (where it got furthest) in view.
    const root = tree.rootId ? tree.nodes[tree.rootId] : undefined;
    for (const id of root?.childIds ?? []) focus.add(id);
    let top: ThoughtNode | null = null;
    for (const id of tree.nodeOrder) {
      const node = tree.nodes[id];
      if (node && node.parentId !== null && (!top || node.cumulativeScore > top.cumulativeScore)) top = node;
    }
    if (top) focus.add(top.id);
  }
  if (tree.status !== 'finished') {
    for (const entry of nextInLine(tree, FRONTIER_IN_FOCUS)) focus.add(entry.nodeId);
    if (tree.inFlight) focus.add(tree.inFlight.entry.nodeId);
  }
  return focus;
}

/** The focus nodes with all their ancestors. */
function withAncestors(tree: ThoughtTree, focus: ReadonlySet<string>): Set<string> {
  const keep = new Set<string>();
  for (const id of focus) {
    let node = tree.nodes[id];
    while (node && !keep.has(node.id)) {
      keep.add(node.id);
      node = node.parentId ? tree.nodes[node.parentId] : undefined;
    }
  }
  return keep;
}

/** A dead end: it failed, or a person pruned it. A branch the search pruned by its own rule is not one. */
const isDead = (node: ThoughtNode) => node.status === 'failed' || (node.status === 'pruned' && !isSearchPruned(node));

/**
 * The top of a branch the search pruned: folded with the parent's candidates pruned by score, as the engine's own
 * prunes are. Below it the subtree (pruned with it) is shown with it, not folded again.
 */
const isSearchPrunedTop = (node: ThoughtNode, parent: ThoughtNode) => isSearchPruned(node) && !isSearchPruned(parent);

function countSubtree(tree: ThoughtTree, id: string): number {
  return summarize(tree, [id]).count;
}

/** How many nodes the subtrees of `ids` hold, and the best score among them (by composite; the whole score too). */
function summarize(
  tree: ThoughtTree,
  ids: readonly string[],
): { count: number; best: number | null; bestScore: BranchScore | null } {
  let count = 0;
  let bestScore: BranchScore | null = null;
  const stack = [...ids];
  while (stack.length) {
    const node = tree.nodes[stack.pop() as string];
    if (!node) continue;
    count++;
    if (node.score && (bestScore === null || node.score.composite > bestScore.composite)) bestScore = node.score;
    stack.push(...node.childIds);
  }
  return { count, best: bestScore?.composite ?? null, bestScore };
}

/** The folds that must open for `reveal` to be visible. */
function foldsToOpen(tree: ThoughtTree, reveal: string | null | undefined): Set<string> {
  const open = new Set<string>();
  if (!reveal) return open;
  const dropped = /^drop:(.+):\d+$/.exec(reveal);
  if (dropped) {
    open.add(droppedFoldId(dropped[1] as string));
    reveal = dropped[1] as string;
  }
  let node = tree.nodes[reveal];
  while (node?.parentId) {
    const parent = tree.nodes[node.parentId];
    if (parent && isSearchPrunedTop(node, parent)) open.add(droppedFoldId(node.parentId));
    else if (isDead(node)) open.add(deadFoldId(node.parentId));
    node = parent;
  }
  return open;
}

export function visibleTree(tree: ThoughtTree, options: VisibilityOptions): VisibleTree {
  const items = new Map<string, VisibleItem>();
  const childIds: Record<string, string[]> = {};
  if (!tree.rootId) return { rootId: null, items, childIds };
  const revealed = foldsToOpen(tree, options.reveal);
  const open = new Set(revealed);
  for (const id of options.openFolds) open.add(id);
  const keep = options.autoCollapse ? withAncestors(tree, options.focus ?? new Set()) : null;
  if (keep) keep.add(tree.rootId);

  const visit = (id: string) => {
    const node = tree.nodes[id];
    if (!node) return;
    items.set(id, { kind: 'node', id, nodeId: id });
    const kids: string[] = [];
    // run for every node of the tree on every step: the fold ids are built (and looked up) only for a node that has
    // something to fold, and the lists only for what it has
    let dead: string[] | null = null;
    let more: string[] | null = null;
    let pruned: string[] | null = null;
    let collapse: boolean | null = keep === null ? false : null;
    let deadOpen: boolean | null = null;
    for (const childId of node.childIds) {
      const child = tree.nodes[childId];
      if (!child) continue;
      if (isSearchPrunedTop(child, node)) (pruned ??= []).push(childId);
      else if (options.foldDeadEnds && isDead(child) && !(deadOpen ??= open.has(deadFoldId(id))))
        (dead ??= []).push(childId);
      else if (keep !== null && !keep.has(childId) && (collapse ??= !open.has(summaryId(id))))
        (more ??= []).push(childId);
      else kids.push(childId);
    }
    for (const childId of kids) visit(childId);
    if (more !== null) {
      const itemId = summaryId(id);
      const { count, best, bestScore } = summarize(tree, more);
      items.set(itemId, { kind: 'summary', id: itemId, parentId: id, nodeIds: more, hidden: count, best, bestScore });
      kids.push(itemId);
      childIds[itemId] = [];
    }
    if (dead !== null) {
      const foldId = deadFoldId(id);
      const hidden = dead.reduce((sum, d) => sum + countSubtree(tree, d), 0);
      items.set(foldId, { kind: 'dead-fold', id: foldId, parentId: id, nodeIds: dead, hidden });
      kids.push(foldId);
      childIds[foldId] = [];
    }
    // what was pruned by rule (the engine's threshold, or the search's own): shown with showDropped, folded until
    // opened; the selection inside it is shown whatever the toggle says
    const candidates = options.showDropped ? node.dropped.length : 0;
    if (pruned === null && candidates === 0) {
      childIds[id] = kids;
      return;
    }
    pruned ??= [];
    const dropFold = droppedFoldId(id);
    if (open.has(dropFold) && (options.showDropped || revealed.has(dropFold))) {
      for (const childId of pruned) {
        kids.push(childId);
        visit(childId);
      }
      for (let index = 0; index < candidates; index++) {
        const itemId = droppedItemId(id, index);
        items.set(itemId, { kind: 'dropped', id: itemId, parentId: id, index });
        kids.push(itemId);
        childIds[itemId] = [];
      }
    } else if (options.showDropped && candidates + pruned.length > 0) {
      const hidden = pruned.reduce((sum, p) => sum + countSubtree(tree, p), 0);
      items.set(dropFold, {
        kind: 'dropped-fold',
        id: dropFold,
        parentId: id,
        count: candidates + pruned.length,
        nodeIds: pruned,
        hidden,
      });
      kids.push(dropFold);
      childIds[dropFold] = [];
    }
    childIds[id] = kids;
  };
  visit(tree.rootId);
  return { rootId: tree.rootId, items, childIds };
}
