/**
 * Monte Carlo tree search's rules (issue 31), as pure functions of the tree: UCT and the selection walk, which nodes
 * still hold work, a node's value, how a value folds into a node's Q, what an iteration does next, and the winner's
 * path. The executor (executor.ts) asks nextMctsMove() what to do and writes it as events; reduce (tree.ts) folds those
 * events with backUp(); the breakpoints judge Q with backUp() too. So engine, server and browser agree by construction.
 * Not responsible for running calls or writing events (executor.ts), nor for folding (tree.ts).
 *
 * An iteration: select a leaf by UCT from the root (unvisited children first, by prior); if it is a node that has
 * not run, run it; if it ran and was never grown, grow it (branchFactor children, scored) and run its best child;
 * with mctsRolloutDepth > 0, keep growing and running the best child greedily that many more times; then back the
 * last node's value up to the root. Nodes that failed, were pruned, or hold no more work are out of selection, so
 * every iteration does something new and a search with nothing left ends as frontier-empty.
 */
import type { MctsSettings } from './config';
import type { MctsCandidate, MctsHop, MctsStats, MctsValueSource } from '../contract/vocabulary';
import type { ThoughtNode, ThoughtTree } from './types';

/** A node's prior: its evaluator's composite (the root, which has none, 0). */
export function priorOf(node: ThoughtNode): number {
  return node.score?.composite ?? 0;
}

export function visitsOf(node: ThoughtNode): number {
  return node.mcts?.n ?? 0;
}

/**
 * A node's statistics after one more value backed up through it: one more visit, and Q the running mean of the
 * values (or their max). The one definition reduce and the breakpoints use.
 */
export function backUp(stats: MctsStats | null, value: number, rule: MctsSettings['mctsBackup']): MctsStats {
  const n = (stats?.n ?? 0) + 1;
  const q = stats?.q ?? null;
  const next = q === null ? value : rule === 'max' ? Math.max(q, value) : q + (value - q) / n;
  return { q: next, n, uct: stats?.uct ?? null };
}

/** The UCT exploration term c * sqrt(ln N(parent) / N(child)) of a visited child. */
export function exploreTerm(c: number, parentVisits: number, childVisits: number): number {
  return c * Math.sqrt(Math.log(Math.max(parentVisits, 1)) / childVisits);
}

/** Whether a node can be grown: the executor's own rule (depth below maxDepth and not terminal for the task). */
export type CanExpand = (node: ThoughtNode) => boolean;

/**
 * Whether a node still holds work for the search: it has not run (pending, running), or it ran and can still be
 * grown, or one of its children holds work. Failed and pruned nodes hold none. Memoised per call site by `memo`.
 */
export function holdsWork(
  tree: ThoughtTree,
  node: ThoughtNode,
  canExpand: CanExpand,
  memo = new Map<string, boolean>(),
): boolean {
  const known = memo.get(node.id);
  if (known !== undefined) return known;
  let live: boolean;
  if (node.status === 'failed' || node.status === 'pruned') live = false;
  else if (node.status === 'pending' || node.status === 'running') live = true;
  else if (node.expansions === 0 && node.childIds.length === 0) live = canExpand(node);
  else
    live = node.childIds.some((id) => {
      const child = tree.nodes[id];
      return child !== undefined && holdsWork(tree, child, canExpand, memo);
    });
  memo.set(node.id, live);
  return live;
}

/** The candidates of one hop with their UCT terms, in the children's order. */
export function candidatesOf(parent: ThoughtNode, children: ThoughtNode[], c: number): MctsCandidate[] {
  const parentVisits = visitsOf(parent);
  return children.map((child) => {
    const visits = visitsOf(child);
    const q = child.mcts?.q ?? null;
    if (visits === 0) return { nodeId: child.id, visits, q, prior: priorOf(child), explore: null, uct: null };
    const explore = exploreTerm(c, parentVisits, visits);
    return { nodeId: child.id, visits, q, prior: priorOf(child), explore, uct: (q ?? 0) + explore };
  });
}

/**
 * The candidate UCT chooses: an unvisited one first (the highest prior, then the earliest), else the highest UCT
 * (a tie: the higher prior, then the earliest).
 */
export function chooseCandidate(candidates: readonly MctsCandidate[]): MctsCandidate | null {
  let best: MctsCandidate | null = null;
  for (const candidate of candidates) {
    if (!best || candidateBeats(candidate, best)) best = candidate;
  }
  return best;
}

function candidateBeats(a: MctsCandidate, b: MctsCandidate): boolean {
  if ((a.uct === null) !== (b.uct === null)) return a.uct === null;
  if (a.uct !== null && b.uct !== null && a.uct !== b.uct) return a.uct > b.uct;
  return a.prior > b.prior;
}

/**
 * The selection walk from the root: at each grown node, the child UCT chooses among those that hold work, until a
 * node that has not run or was never grown. Null when the root holds no work (the search is exhausted).
 */
export function selectLeaf(
  tree: ThoughtTree,
  settings: MctsSettings,
  canExpand: CanExpand,
): { hops: MctsHop[]; leafId: string } | null {
  const root = tree.rootId ? tree.nodes[tree.rootId] : undefined;
  const memo = new Map<string, boolean>();
  if (!root || !holdsWork(tree, root, canExpand, memo)) return null;
  const hops: MctsHop[] = [];
  let node = root;
  for (;;) {
    if (node.status !== 'completed') break;
    const children = node.childIds
      .map((id) => tree.nodes[id])
      .filter((child): child is ThoughtNode => child !== undefined && holdsWork(tree, child, canExpand, memo));
    if (children.length === 0) break; // a ran node never grown (or with nothing below it left): grow it
    const candidates = candidatesOf(node, children, settings.mctsExploration);
    const chosen = chooseCandidate(candidates) as MctsCandidate;
    hops.push({ parentId: node.id, parentVisits: visitsOf(node), candidates, chosenId: chosen.nodeId });
    node = tree.nodes[chosen.nodeId] as ThoughtNode;
  }
  return { hops, leafId: node.id };
}

/**
 * A node's value and where it came from: 1 for a verified answer, 0 for a failed verification or a failed node, else
 * the evaluator's composite (a verified step that is not an answer only says the step is legal, not how good it is).
 */
export function valueOf(node: ThoughtNode): { value: number; source: MctsValueSource } {
  if (node.verification?.passed === true && node.result?.isAnswer === true) return { value: 1, source: 'verified' };
  if (node.verification?.passed === false) return { value: 0, source: 'verification-failed' };
  if (node.status === 'failed') return { value: 0, source: 'failed' };
  return { value: clampUnit(node.score?.composite ?? 0), source: 'score' };
}

function clampUnit(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** What an MCTS search does next, read from the tree alone (so a resumed run does the same). */
export type MctsMove =
  | { kind: 'select'; iteration: number; hops: MctsHop[]; leafId: string }
  | { kind: 'exhausted' }
  | { kind: 'step'; nodeId: string; mode: 'execute' | 'expand' }
  | {
      kind: 'backup';
      iteration: number;
      nodeId: string;
      value: number | null;
      source: MctsValueSource;
      path: string[];
    };

/**
 * The next move of the iteration under way, or the next iteration's selection. `mayRun` says whether the node limit
 * leaves room to run one more node; `stop` whether the search must end (a node reached terminationConfidence): the
 * iteration then backs up what it has.
 */
export function nextMctsMove(
  tree: ThoughtTree,
  settings: MctsSettings,
  canExpand: CanExpand,
  limits: { mayRun: boolean; stop: boolean },
): MctsMove {
  const state = tree.mcts;
  const current = state?.current ?? null;
  if (!current) {
    const selection = selectLeaf(tree, settings, canExpand);
    if (!selection) return { kind: 'exhausted' };
    return { kind: 'select', iteration: (state?.iterations ?? 0) + 1, ...selection };
  }
  const tip = tree.nodes[current.tipId];
  const backup = (node: ThoughtNode): MctsMove => ({
    kind: 'backup',
    iteration: current.iteration,
    nodeId: node.id,
    ...valueOf(node),
    path: ancestry(tree, node.id),
  });
  if (!tip || tip.status === 'pruned' || ancestry(tree, tip.id).some((id) => tree.nodes[id]?.status === 'pruned')) {
    return {
      kind: 'backup',
      iteration: current.iteration,
      nodeId: current.tipId,
      value: null,
      source: 'abandoned',
      path: [],
    };
  }
  if (tip.status === 'pending')
    return limits.mayRun && !limits.stop ? { kind: 'step', nodeId: tip.id, mode: 'execute' } : backup(tip);
  if (tip.status !== 'completed' || limits.stop) return backup(tip);
  // the leaf is grown and its best child run (executed 0); a rollout grows and runs on from each node it ran
  const rollout = current.executed > 0;
  if (rollout && current.executed > settings.mctsRolloutDepth) return backup(tip);
  if (tip.verification?.passed === true && tip.result?.isAnswer) return backup(tip);
  const fresh = tip.childIds
    .map((id) => tree.nodes[id])
    .filter(
      (child): child is ThoughtNode => child !== undefined && child.status === 'pending' && visitsOf(child) === 0,
    );
  if (fresh.length > 0) {
    if (!limits.mayRun) return backup(tip);
    const best = fresh.reduce((a, b) => (priorOf(b) > priorOf(a) ? b : a));
    return { kind: 'step', nodeId: best.id, mode: 'execute' };
  }
  if (tip.expansions === 0 && canExpand(tip)) return { kind: 'step', nodeId: tip.id, mode: 'expand' };
  return backup(tip);
}

/** The node and its ancestors, the node first and the root last. */
export function ancestry(tree: ThoughtTree, nodeId: string): string[] {
  const path: string[] = [];
  let node = tree.nodes[nodeId];
  while (node) {
    path.push(node.id);
    node = node.parentId ? tree.nodes[node.parentId] : undefined;
  }
  return path;
}

/**
 * The winner of an MCTS search without a verified answer: walk from the root to the child with the most visits
 * (mctsBestBy 'q': the highest Q), ties to the higher Q (visits), then the earlier; the deepest node on that walk that
 * `isCandidate` accepts. Null when the walk finds none.
 */
export function mctsBestNode(
  tree: ThoughtTree,
  bestBy: MctsSettings['mctsBestBy'],
  isCandidate: (node: ThoughtNode) => boolean,
): ThoughtNode | null {
  let node = tree.rootId ? tree.nodes[tree.rootId] : undefined;
  let best: ThoughtNode | null = null;
  while (node) {
    if (isCandidate(node)) best = node;
    let next: ThoughtNode | undefined;
    for (const id of node.childIds) {
      const child = tree.nodes[id];
      if (!child || child.status === 'pruned' || visitsOf(child) === 0) continue;
      if (!next || walkBeats(child, next, bestBy)) next = child;
    }
    node = next;
  }
  return best;
}

function walkBeats(a: ThoughtNode, b: ThoughtNode, bestBy: MctsSettings['mctsBestBy']): boolean {
  const qa = a.mcts?.q ?? 0;
  const qb = b.mcts?.q ?? 0;
  const [first, second] = bestBy === 'q' ? [qa - qb, visitsOf(a) - visitsOf(b)] : [visitsOf(a) - visitsOf(b), qa - qb];
  return first !== 0 ? first > 0 : second > 0;
}
