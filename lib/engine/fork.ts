/**
 * Forking: the first events of a new run whose tree starts as the path to a node of another run, optionally with
 * that node's thought edited by hand. The copied nodes arrive as node.restored (they ran in the source run, not
 * here); the last one is queued to run (when edited or never run) or to grow (when it had completed).
 * A forked run is then continued like any run with a log (ThoughtTreeExecutor.resume).
 * Not responsible for storing the events or linking the runs (lib/server).
 */
import type { ExplorationEvent } from '../contract/events';
import type { ProposedAction, ThoughtBranch, ToTConfig } from '../contract/vocabulary';
import type { ThoughtTree } from './types';
import { foldingLog, nextNodeId, pathTo } from './tree';

export interface ForkSpec {
  runId: string;
  source: ThoughtTree;
  nodeId: string;
  /** The node's thought, edited by hand; the node then runs again with it. */
  editedThought?: string | null;
  config: ToTConfig;
  agentName: string;
  modelId: string;
  now?: () => number;
}

function editAction(action: ProposedAction, thought: string): ProposedAction {
  if (action.type === 'response') return { type: 'response', content: thought };
  if (action.type === 'sub_goal') return { type: 'sub_goal', goal: thought };
  return action;
}

export function forkEvents(spec: ForkSpec): ExplorationEvent[] {
  const target = spec.source.nodes[spec.nodeId];
  if (!target) throw new Error(`no node ${spec.nodeId} in run ${spec.source.runId}`);
  const path = pathTo(spec.source, spec.nodeId).slice(1); // the root is the goal, created afresh
  const { tree, events, emit } = foldingLog(spec.runId, spec.now ?? Date.now);
  emit('run.started', {
    goal: spec.source.goal,
    taskId: spec.source.taskId,
    agentName: spec.agentName,
    modelId: spec.modelId,
    config: { ...spec.config },
  });
  const rootId = nextNodeId(tree);
  emit('node.created', { nodeId: rootId, parentId: null, branch: null, score: null });
  let parentId = rootId;
  const edited = spec.editedThought?.trim() || null;
  path.forEach((node, i) => {
    const last = i === path.length - 1;
    const branch = node.branch as ThoughtBranch;
    const rewrite = last && edited !== null && edited !== branch.thought;
    const ran = node.status === 'completed' || (node.result !== null && node.status !== 'failed');
    const id = nextNodeId(tree);
    emit('node.restored', {
      nodeId: id,
      parentId,
      branch: rewrite ? { thought: edited, proposedAction: editAction(branch.proposedAction, edited) } : branch,
      score: node.score,
      status: rewrite || !ran ? 'pending' : 'completed',
      result: rewrite || !ran ? null : node.result,
      verification: rewrite || !ran ? null : node.verification,
      from: { runId: spec.source.runId, nodeId: node.id },
    });
    parentId = id;
  });
  const tip = tree.nodes[parentId];
  if (tip)
    emit('node.queued', { nodeId: tip.id, mode: tip.status === 'pending' ? 'execute' : 'expand', urgent: false });
  return events;
}

/**
 * The fork's own copy of the node it was forked from (node ids are renumbered in a fork: n7 of the source may be n2
 * here): the node its seed events end by queueing, the one a person forked from and will want selected.
 */
export function forkedNodeId(seed: readonly ExplorationEvent[]): string {
  const last = seed[seed.length - 1];
  if (last?.type !== 'node.queued') throw new Error('not the seed of a fork: it does not end by queueing a node');
  return last.payload.nodeId;
}
