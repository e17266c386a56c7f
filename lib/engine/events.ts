/**
 * ExplorationEvent: every change to a search tree, as data. A run is the ordered list of these (seq 1, 2, 3, ...
 * with no gaps); reduce() in tree.ts folds them into a ThoughtTree.
 * Not responsible for storing or sending events (lib/server does that) nor for folding them (tree.ts).
 */
import type {
  AnswerSource,
  BranchScore,
  ChatMessage,
  FinishReason,
  FrontierMode,
  ModelPurpose,
  NodeResult,
  ThoughtBranch,
  ToTConfig,
  TokenUsage,
} from './types';

export interface EventPayloads {
  /**
   * The run waits for a slot (written by the run manager, not the engine): a new run (seq 1, before run.started), a
   * fork after its seed events, or an interrupted run asked to continue.
   */
  'run.queued': { reason: 'new' | 'fork' | 'resume' };
  'run.started': {
    goal: string;
    taskId: string;
    agentName: string;
    modelId: string;
    config: ToTConfig;
  };
  /** A node enters the tree (the root, or a candidate that survived the threshold). */
  'node.created': {
    nodeId: string;
    parentId: string | null;
    branch: ThoughtBranch | null;
    score: BranchScore | null;
  };
  /** Generation's answer for an expansion; raw keeps the model's text when it could not be parsed. */
  'branches.generated': {
    nodeId: string;
    branches: ThoughtBranch[];
    fallback: boolean;
    raw: string | null;
  };
  'branch.scored': {
    nodeId: string;
    index: number;
    branch: ThoughtBranch;
    score: BranchScore;
    raw: string | null;
  };
  'candidate.dropped': {
    nodeId: string;
    index: number;
    branch: ThoughtBranch;
    score: BranchScore;
    reason: string;
  };
  /** A node copied from another run's path when a run is forked: already run there, not run again here. */
  'node.restored': {
    nodeId: string;
    parentId: string;
    branch: ThoughtBranch;
    score: BranchScore | null;
    status: 'completed' | 'pending';
    result: NodeResult | null;
    verification: { passed: boolean; trace: string } | null;
    from: { runId: string; nodeId: string } | null;
  };
  'node.queued': { nodeId: string; mode: FrontierMode; urgent: boolean };
  /** A step begins: the entry leaves the frontier and the node runs (execute) or grows (expand). */
  'node.started': { nodeId: string; mode: FrontierMode };
  'model.called': {
    nodeId: string | null;
    purpose: ModelPurpose;
    modelId: string;
    messages: ChatMessage[];
    response: string | null;
    error: string | null;
    usage: TokenUsage;
    /** Dollars, or null when the model has no known price. */
    cost: number | null;
    latencyMs: number;
  };
  'node.completed': { nodeId: string; result: NodeResult };
  'node.verified': { nodeId: string; passed: boolean; trace: string };
  /** An expansion step ended with children (or none to queue). */
  'node.expanded': { nodeId: string; childIds: string[] };
  'node.failed': { nodeId: string; reason: string };
  backtrack: { fromId: string; toId: string | null; reason: string };
  'steer.prune': { nodeId: string; actor: string };
  'steer.expand': { nodeId: string; actor: string };
  'steer.pause': { actor: string };
  'steer.resume': { actor: string };
  'steer.step': { actor: string };
  'steer.abort': { actor: string };
  /** A step taken in step mode is done: the run waits again. */
  'run.paused': { reason: 'step' };
  /**
   * The run continues from its event log (after a server restart, or a fork's first start); a step cut short is
   * rolled back.
   */
  'run.resumed': { rolledBackNodeId: string | null };
  /** The server stopped while the run was running or paused (written by the next server at its start). */
  'run.interrupted': { reason: string };
  /** The run stopped on an error outside the search (written by the run manager); nothing more follows. */
  'run.failed': { error: string };
  'run.finished': {
    reason: FinishReason;
    detail: string | null;
    bestNodeId: string | null;
    output: string;
    answerSource: AnswerSource;
    success: boolean;
    verified: boolean | null;
  };
}

export type ExplorationEventType = keyof EventPayloads;

export type ExplorationEvent = {
  [K in ExplorationEventType]: {
    runId: string;
    seq: number;
    ts: number;
    type: K;
    payload: EventPayloads[K];
  };
}[ExplorationEventType];

export type EventOf<K extends ExplorationEventType> = Extract<ExplorationEvent, { type: K }>;

export const EVENT_TYPES: readonly ExplorationEventType[] = [
  'run.queued',
  'run.started',
  'node.created',
  'branches.generated',
  'branch.scored',
  'candidate.dropped',
  'node.restored',
  'node.queued',
  'node.started',
  'model.called',
  'node.completed',
  'node.verified',
  'node.expanded',
  'node.failed',
  'backtrack',
  'steer.prune',
  'steer.expand',
  'steer.pause',
  'steer.resume',
  'steer.step',
  'steer.abort',
  'run.paused',
  'run.resumed',
  'run.interrupted',
  'run.failed',
  'run.finished',
];
