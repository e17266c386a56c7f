/**
 * Which nodes of the node projection (the Node table) an event changed, so a writer upserts just those with its
 * events, and how such a batch is written (writeFoldedBatch). One definition for every writer of a log: the run
 * manager's write loop and the ingest API.
 * Not responsible for the SQL (repositories/) nor for folding (lib/engine reduce).
 */
import type { ExplorationEvent } from '../../contract/events';
import { reduce, subtreeIds, type ThoughtNode, type ThoughtTree } from '../../engine/index';
import type { Db } from '../db/client';
import { appendEventsInTransaction } from '../repositories/events';
import { upsertNodes } from '../repositories/nodes';
import { writeRunPatch } from '../repositories/runs';
import { summarizeTree } from './summary';

/**
 * The nodes an event changed, once it is folded onto `tree`; `inFlightBefore` is the node the tree had in flight
 * just before it (a step rolled back by run.resumed or run.finished returns that node to its old status).
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
  if (inFlightBefore && (event.type === 'run.resumed' || event.type === 'run.finished')) into.add(inFlightBefore);
}

/** Folds events onto the tree and returns the nodes they changed, as they now are. */
export function foldTouched(tree: ThoughtTree, events: readonly ExplorationEvent[]): ThoughtNode[] {
  const touched = new Set<string>();
  for (const event of events) {
    const inFlight = tree.inFlight?.entry.nodeId;
    reduce(tree, event);
    collectTouched(tree, event, inFlight, touched);
  }
  return touchedNodes(tree, touched);
}

export function touchedNodes(tree: ThoughtTree, ids: Iterable<string>): ThoughtNode[] {
  return [...ids].map((id) => tree.nodes[id]).filter((n): n is ThoughtNode => Boolean(n));
}

/**
 * One batch of a run's log as the writers store it, inside the caller's transaction: its events, the nodes they
 * changed (foldTouched's) and the run row's summary of the tree they were folded into.
 */
export async function writeFoldedBatch(
  tx: Db,
  runId: string,
  tree: ThoughtTree,
  events: readonly ExplorationEvent[],
  nodes: readonly ThoughtNode[],
): Promise<void> {
  await appendEventsInTransaction(tx, runId, events);
  if (nodes.length) await upsertNodes(tx, runId, nodes);
  await writeRunPatch(tx, runId, summarizeTree(tree));
}
