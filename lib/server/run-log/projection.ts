/**
 * Which nodes of the node projection (the Node table) an event changed, so the log room upserts just those with its
 * events. One definition for every producer's batches (run-log.ts commits them).
 * Not responsible for the SQL (nodes.ts) nor for folding (lib/engine reduce).
 */
import type { ExplorationEvent } from '../../contract/events';
import { reduce, subtreeIds, type ThoughtNode, type ThoughtTree } from '../../engine/index';

/**
 * The nodes an event changed, once it is folded onto `tree`; `inFlightBefore` is the node the tree had in flight
 * just before it: when the event ended that step without naming the node (run.resumed, run.finished, run.failed,
 * run.interrupted roll it back to its old status), that node changed too.
 */
export function collectTouched(
  tree: ThoughtTree,
  event: ExplorationEvent,
  inFlightBefore: string | undefined,
  into: Set<string>,
): void {
  const payload = event.payload as {
    nodeId?: string | null;
    parentId?: string | null;
    fromId?: string;
    toId?: string | null;
  };
  if (payload.nodeId) into.add(payload.nodeId);
  if (payload.parentId) into.add(payload.parentId);
  if (event.type === 'steer.prune' || event.type === 'node.pruned') {
    for (const id of subtreeIds(tree, event.payload.nodeId)) into.add(id);
  }
  if (inFlightBefore && tree.inFlight?.entry.nodeId !== inFlightBefore) into.add(inFlightBefore);
}

/**
 * Folds events onto the tree and returns the nodes they changed, as they now are. `fold` replaces reduce for a
 * producer whose events are checked as they are folded (the ingest API's foldChecked): it folds one event or throws.
 */
export function foldTouched(
  tree: ThoughtTree,
  events: readonly ExplorationEvent[],
  fold: (tree: ThoughtTree, event: ExplorationEvent, index: number) => void = (t, e) => void reduce(t, e),
): ThoughtNode[] {
  const touched = new Set<string>();
  for (const [index, event] of events.entries()) {
    const inFlight = tree.inFlight?.entry.nodeId;
    fold(tree, event, index);
    collectTouched(tree, event, inFlight, touched);
  }
  return touchedNodes(tree, touched);
}

export function touchedNodes(tree: ThoughtTree, ids: Iterable<string>): ThoughtNode[] {
  return [...ids].map((id) => tree.nodes[id]).filter((n): n is ThoughtNode => Boolean(n));
}
