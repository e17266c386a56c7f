/**
 * The engine's own state and interfaces: tree nodes, the frontier, stats, results, and the two small interfaces the
 * engine depends on (a language model and a task's prompts). The data words they are built from (config, branch,
 * score, result, verification, chat message, usage, ...) are lib/contract/vocabulary.ts, defined once as zod schemas.
 * Names follow the Tree-of-Thought executor docs (shared/seeds/003_*) so readers of those docs are at home.
 * Not responsible for behaviour: see executor.ts, tree.ts (reduce) and frontier.ts.
 */
import type { StoredRunStatus } from '../contract/run-status';
import type { Breakpoint, BreakpointHit } from '../contract/breakpoints';
import type { SteerOutcome } from '../contract/steering';
import type {
  AnswerSource,
  ChatMessage,
  FinishReason,
  FrontierMode,
  JsonValue,
  MctsStats,
  ModelAttempt,
  ModelPurpose,
  SteerKind,
  ThoughtBranch,
  BranchScore,
  NodeResult,
  TokenUsage,
  ToTConfig,
  ToTStats,
  Verification,
} from '../contract/vocabulary';

/**
 * pending: created, not run; running: a step is working on it; completed: ran (and passed verification if any);
 * failed: run failed, verification failed, or every candidate of its expansion fell below the threshold;
 * pruned: removed by a person (with its subtree).
 */
export type NodeStatus = 'pending' | 'running' | 'completed' | 'failed' | 'pruned';

export interface CostedUsage extends TokenUsage {
  /** Dollars for the calls whose model has a price. */
  cost: number;
  /** Calls made on a model with no known price (their cost is not in `cost`). */
  unpricedCalls: number;
}

/** A candidate dropped below confidenceThreshold; kept on its parent so it can be shown, never a node. */
export interface DroppedCandidate {
  branch: ThoughtBranch;
  score: BranchScore;
  reason: string;
  seq: number;
}

export interface ThoughtNode {
  id: string;
  parentId: string | null;
  depth: number;
  childIds: string[];
  /** Null for the root, which is the goal itself. */
  branch: ThoughtBranch | null;
  score: BranchScore | null;
  /** Sum of composite scores from the root to this node. */
  cumulativeScore: number;
  status: NodeStatus;
  /** Who pruned it, when status is pruned by a person (steer.prune). */
  prunedBy: string | null;
  /** Why the search itself pruned it (node.pruned), when it did. */
  pruneReason: string | null;
  result: NodeResult | null;
  verification: Verification | null;
  failureReason: string | null;
  /** How many times it has been expanded. */
  expansions: number;
  dropped: DroppedCandidate[];
  usage: CostedUsage;
  /** Seq numbers of the model.called events made for this node, in order. */
  modelCallSeqs: number[];
  /**
   * Milliseconds its model calls took, summed (their latencyMs): the node's time, attributed call by call as its
   * usage is, so a branch's times add up to the run's and pauses, restarts and other branches never count.
   */
  modelMs: number;
  createdSeq: number;
  startedSeq: number | null;
  finishedSeq: number | null;
  /** A foreign search's named scores for it (node.annotated); empty for the engine's nodes. */
  scores: Record<string, number>;
  /** A foreign search's free-form key/values for it (node.annotated); empty for the engine's nodes. */
  metadata: Record<string, JsonValue>;
  /** MCTS value and visit statistics as last reported (node.annotated), or null when the search gives none. */
  mcts: MctsStats | null;
}

/** A person's command to an external search, from steer.requested, and how the client answered it (steer.acked). */
export interface SteerRequest {
  /** The seq of its steer.requested: what the client's acknowledgement names. */
  seq: number;
  kind: SteerKind;
  nodeId: string | null;
  actor: string;
  /** requested: the client has not answered yet; ended: the run ended first (lib/contract/steering.ts). */
  outcome: SteerOutcome;
  /** The client's reason for a refusal (or a note on an applied one); for an ended one, how the run ended. */
  reason: string | null;
  /** The seq of the steer.acked, once answered. */
  ackSeq: number | null;
  /** When it was asked (the steer.requested's ts): a command never answered says since when it waits. */
  requestedAt: number;
  /** When the client answered (the steer.acked's ts), or null. */
  answeredAt: number | null;
  /** The breakpoint hit a pause was asked for (the server asks, actor "breakpoint"); null for a person's command. */
  hit: BreakpointHit | null;
}

/** A search Arborist does not run (run.started's `external`): its own config and the commands it takes. */
export interface ExternalSearch {
  config: Record<string, JsonValue>;
  commands: SteerKind[];
}

export interface FrontierEntry {
  nodeId: string;
  mode: FrontierMode;
  /** Insertion counter: later entries have larger values. */
  order: number;
  /** Backtrack targets and a person's expand requests run before anything else. */
  urgent: boolean;
}

/**
 * A run's lifecycle: the contract's stored statuses, one list (lib/contract/run-status.ts). The tree reaches each of
 * them through an event: run.queued, run.started / run.resumed (running), run.paused and steer.* (paused),
 * run.interrupted, run.failed, run.finished. An engine on its own only ever sees running, paused and finished.
 */
export type RunStatus = StoredRunStatus;

/**
 * Where an MCTS search stands (issue 31), folded from mcts.selected, the steps and mcts.backpropagated: replaced by
 * reduce, never mutated. Every node's visits and Q are its ThoughtNode.mcts.
 */
export interface MctsState {
  /** Iterations begun: the last mcts.selected's number. */
  iterations: number;
  /**
   * The iteration under way, between its mcts.selected and its mcts.backpropagated: its selected leaf, the node its
   * value will be read from (the leaf, then each node the iteration ran), and how many nodes it ran.
   */
  current: { iteration: number; leafId: string; tipId: string; executed: number } | null;
  /** The node whose verified answer ended the search (an mcts.backpropagated from a verified answer), or null. */
  solvedBy: string | null;
}

/** The state of a whole exploration: what reduce() folds events into. Plain JSON, no Maps. */
export interface ThoughtTree {
  runId: string;
  goal: string;
  taskId: string;
  agentName: string;
  modelId: string;
  config: ToTConfig;
  status: RunStatus;
  /**
   * What a run waiting to continue (queued again, interrupted) goes back to when run.resumed comes: running, or
   * paused when a person had paused it. Null when it is not waiting.
   */
  resumeStatus: 'running' | 'paused' | null;
  /** Why the run failed outside the search (run.failed: a crash, a lost database), or null. */
  failure: string | null;
  rootId: string | null;
  nodes: Record<string, ThoughtNode>;
  /** Creation order of nodes; ids are also deterministic (`n0`, `n1`, ...). */
  nodeOrder: string[];
  /** Queued work by node id (a node is queued at most once); the strategy orders it (frontier.ts). */
  frontier: Record<string, FrontierEntry>;
  nextFrontierOrder: number;
  /** The topmost node of each failed or pruned branch, in the order they died (the scratchpad folds them). */
  deadEnds: string[];
  /** The step under way: between node.started and the end of its step, reverted by run.resumed. */
  inFlight: { entry: FrontierEntry; previousStatus: NodeStatus } | null;
  /**
   * The last batch of a beam level (a node.started with `batch`): the seq of that event and its nodes in step order.
   * Their calls ran together from the tree as it was before `startSeq`; the executor finishes the batch in that order
   * (a resumed run too) before it picks anything else. Null until a batch starts; never cleared (the executor tells
   * which of its nodes still wait by their frontier entries).
   */
  batch: { startSeq: number; nodeIds: string[] } | null;
  stats: ToTStats;
  /** An MCTS search's iterations (null for every other strategy and for foreign logs). */
  mcts: MctsState | null;
  /** The usage of every call, branch runs included. */
  usage: CostedUsage;
  /** The executed node whose branch confidence reached terminationConfidence: the search stops. */
  terminatedBy: string | null;
  /** A person asked for one step: the run pauses again after the next step. */
  stepping: boolean;
  /** The run's breakpoints (the last breakpoints.set), judged against every event the search writes. */
  breakpoints: Breakpoint[];
  /**
   * The breakpoint hit the run is stopped at (run.paused with a hit; for an external run, the pause the server asked
   * for), until it is resumed, stepped or ends. Null otherwise.
   */
  breakpointHit: BreakpointHit | null;
  /** Model calls that failed in a row, and the last error: a backend that keeps failing ends the run. */
  modelFailureStreak: number;
  lastModelError: string | null;
  /** Every thought already explored (executed), in order: passed to generation for novelty. */
  exploredThoughts: string[];
  bestNodeId: string | null;
  output: string | null;
  success: boolean | null;
  /** Whether the task's verifier accepted the output; null when the task does not verify or the run goes on. */
  verified: boolean | null;
  answerSource: AnswerSource | null;
  finishReason: FinishReason | null;
  finishDetail: string | null;
  /** Set when Arborist does not run this search (an ingest client, an imported foreign log); null for the engine's. */
  external: ExternalSearch | null;
  /** Commands asked of an external search, in order, with their answers (empty for the engine's runs). */
  commands: SteerRequest[];
  startedAt: number | null;
  finishedAt: number | null;
  lastSeq: number;
}

export interface CompletionRequest {
  purpose: ModelPurpose;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface CompletionResponse {
  text: string;
  usage: TokenUsage;
  /** Every HTTP attempt when the backend retried (a 429, a 5xx): the node's trace shows them. Absent: one attempt. */
  attempts?: ModelAttempt[];
}

/** Anything that completes chat messages. */
export interface LanguageModel {
  /** The model's name, used for pricing and shown in the UI (e.g. "gpt-4o", "simulated"). */
  readonly id: string;
  complete(request: CompletionRequest): Promise<CompletionResponse>;
}

export interface Agent {
  name: string;
  instructions?: string;
  model: LanguageModel;
}

export interface ToTResult {
  success: boolean;
  output: string;
  tree: ThoughtTree;
  bestPath: ThoughtNode[];
  stats: ToTStats;
  runId: string;
  agentId: string;
  finishReason: FinishReason;
  /** Whether the task's verifier accepted the output; null when the task does not verify outputs. */
  verified: boolean | null;
  /** Where the output came from: the winner's own answer, one synthesis call, or nowhere. */
  answerSource: AnswerSource;
  usage: {
    inputTokens: number;
    outputTokens: number;
    totalTokens: number;
    cost: number;
    duration: number;
  };
}

/** What a task's prompts see when a node is expanded. */
export interface GenerationContext {
  goal: string;
  instructions?: string;
  /** The node being expanded and the path from the root to it (root first). */
  node: ThoughtNode;
  path: ThoughtNode[];
  count: number;
  exploredThoughts: string[];
  /** The compacted scratchpad of the tree as XML (see scratchpad.ts). */
  scratchpad: string;
}

export interface EvaluationContext {
  goal: string;
  instructions?: string;
  /** The parent's path (root first); the branch would become its child. */
  path: ThoughtNode[];
  branch: ThoughtBranch;
  siblings: ThoughtBranch[];
}

export interface ExecutionContext {
  goal: string;
  instructions?: string;
  node: ThoughtNode;
  path: ThoughtNode[];
  scratchpad: string;
}

export interface SynthesisContext {
  goal: string;
  instructions?: string;
  path: ThoughtNode[];
}

/** The score parts an evaluation answer gives; missing ones are defaulted by the evaluator. */
export interface ScoreParts {
  confidence?: number;
  progress?: number;
  novelty?: number;
  reasoning?: string;
}

/** What runAction sees: the node to run (its branch carries the action) and the path from the root to it. */
export interface ActionContext {
  goal: string;
  node: ThoughtNode;
  /** Root first, ending with `node`. */
  path: ThoughtNode[];
  /** Fires when the run is cut short (timeout, abort): long work (a sandboxed test run) stops. */
  signal: AbortSignal;
}

/** A node's result and check, from a task that carries out the action itself. */
export interface ActionOutcome {
  response: string;
  verification: Verification;
  /** True when the node reaches the goal (the code task: every test passes). */
  isAnswer: boolean;
}

/**
 * What is being searched: a task owns its prompts, their parsers and its verifier.
 * The engine ships one (the open goal, the docs' JSON prompts); lib/tasks adds more.
 */
export interface ThoughtTask {
  id: string;
  buildGenerationPrompt(ctx: GenerationContext): ChatMessage[];
  /** Null when the text cannot be parsed; the generator then uses fallback branches. */
  parseBranches(text: string, ctx: GenerationContext): ThoughtBranch[] | null;
  fallbackBranches(ctx: GenerationContext): ThoughtBranch[];
  buildEvaluationPrompt(ctx: EvaluationContext): ChatMessage[];
  /** Null when the text cannot be parsed; the evaluator then uses a neutral score. */
  parseScore(text: string, ctx: EvaluationContext): ScoreParts | null;
  buildExecutionPrompt(ctx: ExecutionContext): ChatMessage[];
  /** True when a branch run's answer is final (no further turn needed). */
  isExecutionDone(text: string): boolean;
  buildSynthesisPrompt(ctx: SynthesisContext): ChatMessage[];
  /** Optional check of an executed node: a failed verification fails the node and backtracks. */
  verify?(node: ThoughtNode, path: ThoughtNode[], goal: string): Verification | null;
  /** Checks a final output (the winner's answer or a synthesised one) the way the task checks answers. */
  verifyOutput?(output: string, goal: string): Verification | null;
  /** True when a node's result is a final answer to the goal. Default: every result is. */
  isAnswer?(node: ThoughtNode, path: ThoughtNode[], goal: string): boolean;
  /** True when a node must never be expanded (nothing left to do from it). */
  isTerminal?(node: ThoughtNode, path: ThoughtNode[], goal: string): boolean;
  /** Refuses a goal the task cannot work on, before any model call; returns the error message. */
  validateGoal?(goal: string): string | null;
  /**
   * Loads what the task's synchronous prompt builders need, once, before a search's first step (explore and resume):
   * the code task reads a local folder's files. A throw ends the run as 'error' with its message.
   */
  prepare?(goal: string, signal: AbortSignal): Promise<void>;
  /**
   * Carries out a node's action itself, with no model call (the code task applies a code_change to the project and
   * verifies it in a sandbox): its result and verification, which replace `verify` and `isAnswer` for that node.
   * Null: the engine runs the action its usual way. A bad action (a diff that does not apply) is a failed
   * verification, not a throw; a throw fails the node with the error's message.
   */
  runAction?(ctx: ActionContext): Promise<ActionOutcome | null>;
  /**
   * The run's output when the winner is an answer, built from its path (the code task: the change description and
   * the one combined patch). Default: the winner's own answer. A throw keeps the winner's answer and says why in the
   * run's finish detail.
   */
  finalOutput?(path: ThoughtNode[], goal: string, signal: AbortSignal): Promise<string>;
}
