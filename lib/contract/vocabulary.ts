/**
 * The data words a search is told in, as zod schemas with their types inferred from them: a config (ToTConfig, its
 * bounds and messages, shared by the API and the run form), a branch and what it proposes, a score, a node's result
 * and verification, a chat message, token usage, and the small enums (strategy, frontier mode, model purpose, finish
 * reason, answer source). The event payloads (events.ts) are built from these; the engine's own state (ThoughtTree,
 * ThoughtNode, the frontier, stats, the LanguageModel interface) is lib/engine/types.ts, which imports them.
 * Objects are strict: data read from outside (an export file, an API body) with a key this version does not know is
 * refused, not dropped. Browser-safe; imports zod and the breakpoint schemas (./breakpoints) only.
 * Not responsible for defaults or resolving a partial config (lib/engine/config.ts) nor for any behaviour.
 */
import { z } from 'zod';
import { breakpointListSchema } from './breakpoints';

const count = z.number().int().min(0);
const finite = z.number();
const unit = z.number().min(0).max(1);
/** Weights are relative (the composite is a weighted mean), so they need not sum to 1. */
const weight = z.number().min(0).max(100);

/** Milliseconds; 0 or null means no limit (kept as null once validated, see timeLimitSchema and toTConfigSchema). */
const timeoutField = z.number().int().min(0).nullable();

/** A valid time limit as the engine keeps it: 0 (no limit, like null) becomes null. */
function noLimitAsNull(timeout: number | null): number | null {
  return timeout === 0 ? null : timeout;
}

/** A time limit given on its own (explore()'s option): whole milliseconds, and "no limit" (0 or null) comes out null. */
export const timeLimitSchema = timeoutField.transform(noLimitAsNull);

export const explorationStrategySchema = z.enum(['beam', 'best-first', 'dfs', 'mcts']);
export type ExplorationStrategy = z.infer<typeof explorationStrategySchema>;

/** The fields of a config without the cross-field rules; `.partial()` of it validates a form's or the API's input. */
export const toTConfigFields = z.strictObject({
  /** How deep the tree can grow; the root is depth 0. */
  maxDepth: z.number().int().min(1).max(50),
  /** Candidates generated per expansion. */
  branchFactor: z.number().int().min(1).max(20),
  /** Best candidates queued per expansion; the other survivors wait as alternatives. */
  beamWidth: z.number().int().min(1).max(20),
  explorationStrategy: explorationStrategySchema,
  /** Minimum composite score to keep a candidate. */
  confidenceThreshold: unit,
  /** Branch confidence of an executed node that stops the search. */
  terminationConfidence: unit,
  /** Hard cap on executed nodes. */
  maxTotalNodes: z.number().int().min(1).max(100_000),
  /** Model turns allowed when running a tool-call or sub-goal branch. */
  maxIterationsPerBranch: z.number().int().min(1).max(20),
  /** Default time limit (ms) of every explore(); null means none. */
  timeout: timeoutField,
  /**
   * Cost cap in USD: the search stops (finish reason 'budget') before a call whose estimated cost would take the
   * run past it (lib/engine/budget.ts says how a call is estimated). Null or absent: no cap. A model with no price
   * cannot be capped. Optional so configs stored before it read as they were.
   */
  maxCostUsd: z.number().positive().max(100_000).nullable().optional(),
  /**
   * Model calls of this run in flight at once (issue 30). Beam runs a level's independent calls together up to this
   * limit; best-first and dfs run one node at a time, so only an expansion's evaluations share it. The log is the
   * same at any limit (lib/engine/README.md, "Calls in flight"). Optional so configs stored before it read as they
   * were (absent: DEFAULT_MAX_CONCURRENT_CALLS).
   */
  maxConcurrentCalls: z.number().int().min(1).max(64).optional(),
  /**
   * Monte Carlo tree search (issue 31; read only when explorationStrategy is 'mcts', filled with MCTS_DEFAULTS by
   * resolveConfig then and dropped otherwise, so other strategies' configs and logs are as they were).
   * mctsIterations: the iteration budget (each selects a leaf, grows or runs it, backs its value up to the root).
   */
  mctsIterations: z.number().int().min(1, 'an iteration budget must be at least 1').max(100_000).optional(),
  /** The exploration constant c of UCT = Q + c * sqrt(ln N(parent) / N(child)); 0 only exploits. */
  mctsExploration: z
    .number()
    .refine(Number.isFinite, 'the exploration constant must be a finite number')
    .min(0, 'the exploration constant cannot be negative')
    .max(100)
    .optional(),
  /** Greedy rollout steps after the simulated node before its value is taken (0: the evaluator's composite). */
  mctsRolloutDepth: z.number().int().min(0).max(50).optional(),
  /** How a node's Q combines the values backed up through it: their mean, or the best of them. */
  mctsBackup: z.enum(['mean', 'max']).optional(),
  /** What the result's path follows from the root when no verified answer was found: most visits, or highest Q. */
  mctsBestBy: z.enum(['visits', 'q']).optional(),
  /** Weights of the composite score. */
  confidenceWeight: weight,
  progressWeight: weight,
  noveltyWeight: weight,
});

export type ToTConfig = z.output<typeof toTConfigFields>;

/** Schema of a whole config; shared with the API so a form shows the same messages. "No limit" comes out as null. */
export const toTConfigSchema = toTConfigFields
  .refine((c) => c.beamWidth <= c.branchFactor, {
    message: 'beamWidth cannot exceed branchFactor',
    path: ['beamWidth'],
  })
  .refine((c) => c.confidenceWeight + c.progressWeight + c.noveltyWeight > 0, {
    message: 'the score weights cannot all be zero',
    path: ['confidenceWeight'],
  })
  .refine((c) => c.mctsRolloutDepth === undefined || c.mctsRolloutDepth <= c.maxDepth, {
    message: 'a rollout cannot go deeper than maxDepth',
    path: ['mctsRolloutDepth'],
  })
  .transform((c): ToTConfig => ({ ...c, timeout: noLimitAsNull(c.timeout) }));

/**
 * What a branch proposes to do. A code_change (the code task, lib/tasks/code) is a unified diff against the state of
 * its parent (the project with every diff on the path above applied); the branch's thought is its hypothesis.
 */
export const proposedActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('response'), content: z.string() }),
  z.strictObject({ type: z.literal('sub_goal'), goal: z.string() }),
  z.strictObject({ type: z.literal('tool_call'), toolName: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('code_change'), diff: z.string() }),
]);
export type ProposedAction = z.infer<typeof proposedActionSchema>;

/** A candidate produced by generation, before it becomes a node. */
export const thoughtBranchSchema = z.strictObject({ thought: z.string(), proposedAction: proposedActionSchema });
export type ThoughtBranch = z.infer<typeof thoughtBranchSchema>;

export const branchScoreSchema = z.strictObject({
  /** The evaluator's parts, each 0..1; null where nothing measured them (a score read from a foreign log). */
  confidence: finite.nullable(),
  progress: finite.nullable(),
  novelty: finite.nullable(),
  /** 0..1: the weighted mix of the parts, or for a log's score its value over the top of its scale. */
  composite: finite,
  reasoning: z.string(),
  /** True when the evaluator's answer could not be parsed and a neutral score was used. */
  fallback: z.boolean(),
  /**
   * Set when the score is a foreign search log's own number, not our evaluator's (an imported Tree-of-Thoughts
   * run): the raw value and the top of its scale, shown as such; the parts are then null.
   */
  logValue: z.strictObject({ value: finite, max: finite }).optional(),
});
export type BranchScore = z.infer<typeof branchScoreSchema>;

export const nodeResultSchema = z.strictObject({
  response: z.string(),
  /** Model turns used to produce it (0 for a direct response). */
  iterations: count,
  /** True when the task says this result is a final answer to the goal. */
  isAnswer: z.boolean(),
});
export type NodeResult = z.infer<typeof nodeResultSchema>;

/** A task's check of a node or an output: pass or fail, with the checker's words. */
export const verificationSchema = z.strictObject({ passed: z.boolean(), trace: z.string() });
export type Verification = z.infer<typeof verificationSchema>;

export const tokenUsageSchema = z.strictObject({ inputTokens: count, outputTokens: count });
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/** Calls in flight at once when a config does not say (maxConcurrentCalls). */
export const DEFAULT_MAX_CONCURRENT_CALLS = 8;

/**
 * One HTTP attempt of a model call that a backend retried (a 429, a 5xx, a dropped connection): when it started
 * (ms since the epoch), how long it took, what the server said, and how long the backend waited before the next
 * attempt (Retry-After honoured). The last attempt is the call's own outcome. Recorded on the model.called event
 * so the node's trace shows every attempt; tokens a failed attempt spent are in the call's usage.
 */
export const modelAttemptSchema = z.strictObject({
  startedAt: z.number(),
  latencyMs: z.number().min(0),
  /** The HTTP status, or null when no answer came (a connection error, a timeout). */
  status: z.number().int().nullable(),
  /** What went wrong, or null for the attempt that answered. */
  error: z.string().nullable(),
  /** The wait before the next attempt (ms); null for the last. */
  waitMs: z.number().min(0).nullable(),
});
export type ModelAttempt = z.infer<typeof modelAttemptSchema>;

export const chatMessageSchema = z.strictObject({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** Why a model is called: the search's own calls (generate, evaluate, synthesize) or a branch run (execute). */
export const modelPurposeSchema = z.enum(['generate', 'evaluate', 'execute', 'synthesize']);
export type ModelPurpose = z.infer<typeof modelPurposeSchema>;

/** What a frontier entry asks for: run the node (execute) or grow its children (expand). */
export const frontierModeSchema = z.enum(['execute', 'expand']);
export type FrontierMode = z.infer<typeof frontierModeSchema>;

/**
 * The steering commands a person can give a run. The engine takes them all; a search Arborist does not run (an
 * external client, lib/contract/ingest.ts) says which of them it applies.
 */
export const steerKindSchema = z.enum(['prune', 'expand', 'pause', 'resume', 'step', 'abort']);
export type SteerKind = z.infer<typeof steerKindSchema>;
export const STEER_KINDS: readonly SteerKind[] = steerKindSchema.options;

/**
 * One steering command as it travels: what a person asks of a run, naming the node for prune and expand and who
 * asked. The engine's control takes it (lib/engine/control.ts SteeringCommand is this type), and a team server's
 * instances pass it to the one running the search (lib/server/cluster/commands.ts parses it with this schema).
 */
const nodeCommand = <T extends 'prune' | 'expand'>(type: T) =>
  z.object({ type: z.literal(type), nodeId: z.string().min(1).max(200), actor: z.string().max(200) });
const runCommand = <T extends 'pause' | 'resume' | 'step' | 'abort'>(type: T) =>
  z.object({ type: z.literal(type), actor: z.string().max(200) });
export const steeringCommandSchema = z.discriminatedUnion('type', [
  nodeCommand('prune'),
  nodeCommand('expand'),
  runCommand('pause'),
  runCommand('resume'),
  runCommand('step'),
  runCommand('abort'),
  // the run's whole breakpoint list from now on (lib/contract/breakpoints.ts); not a SteerKind: the server applies it
  // itself for a search it does not run
  z.object({ type: z.literal('breakpoints'), breakpoints: breakpointListSchema, actor: z.string().max(200) }),
]);
export type SteeringCommand = z.infer<typeof steeringCommandSchema>;

/** Any JSON value: a foreign program's own config and a node's metadata are kept as it gave them. */
export const jsonValueSchema = z.json();
export type JsonValue = z.infer<typeof jsonValueSchema>;

/**
 * The caps on a node's metadata, per item that carries it (an ingest `node` or `annotate`, a node.annotated event of
 * a client, an export file or an import). Without them one value could be the whole 16 MiB batch: stored, folded into
 * every snapshot and sent to every browser that opens the run. A value holds what a search keeps beside a thought (a
 * state, a board, a span's attributes), so its cap is a thought's (100,000 characters, lib/formats' FIELD_CAPS) with
 * room for JSON's quotes and escapes: 128 Ki characters of its JSON text. Keys: a search names a few fields per node
 * (OTel's mapping writes at most four, a crosswords import three); 64 keeps a page's inspector readable. Characters
 * (UTF-16 units, as a string's length), like every other text cap here. The schema holds each item; a node's
 * metadata merged over its annotations is held to the same key cap where events are folded (lib/formats foldChecked).
 */
export const MAX_METADATA_KEY_CHARS = 200;
export const MAX_METADATA_KEYS = 64;
export const MAX_METADATA_VALUE_CHARS = 128 * 1024;

const figure = (n: number) => n.toLocaleString('en-US');

/**
 * The first cap a node's metadata passes, as the key it names (null: the whole record) and a message saying the size
 * and the cap ("140,000 characters of JSON, over the 131,072-character cap on a metadata value"); null when it fits.
 * The one check: `nodeMetadataSchema` runs it, and so do the imports that build metadata without that schema.
 */
export function metadataCapProblem(metadata: Readonly<Record<string, unknown>>): {
  key: string | null;
  message: string;
} | null {
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_KEYS) {
    return {
      key: null,
      message: `${figure(keys.length)} keys, over the ${figure(MAX_METADATA_KEYS)}-key cap on a node's metadata`,
    };
  }
  for (const key of keys) {
    const length = JSON.stringify(metadata[key] ?? null).length;
    if (length > MAX_METADATA_VALUE_CHARS) {
      return {
        key,
        message: `${figure(length)} characters of JSON, over the ${figure(MAX_METADATA_VALUE_CHARS)}-character cap on a metadata value`,
      };
    }
  }
  return null;
}

/** A node's metadata as a search gives it (a null value removes a key), held to the caps above. */
export const nodeMetadataSchema = z
  .record(z.string().min(1).max(MAX_METADATA_KEY_CHARS), jsonValueSchema)
  .superRefine((metadata, ctx) => {
    const problem = metadataCapProblem(metadata);
    if (problem)
      ctx.addIssue({ code: 'custom', path: problem.key === null ? [] : [problem.key], message: problem.message });
  });

/** Named scores a foreign search gives a node (any names, any scale: "value", "reward", "self_eval"). */
export const namedScoresSchema = z.record(z.string().min(1).max(100), z.number());

/**
 * Value and visit statistics of a node in a Monte Carlo tree search, as the search last reported them: q (the mean
 * value of the node's rollouts), n (visits), uct (the selection score, when the search gives it). Each is null where
 * the search has not said.
 */
export const mctsStatsSchema = z.strictObject({
  q: z.number().nullable(),
  n: z.number().int().min(0).nullable(),
  uct: z.number().nullable(),
});
export type MctsStats = z.infer<typeof mctsStatsSchema>;

/**
 * One hop of an MCTS selection (issue 31): the parent, its visits, every child the rule chose among (visits, Q and
 * prior as folded before the selection; `uct` null for an unvisited child, which is chosen first) and the chosen one.
 * `explore` is the UCT's exploration term c * sqrt(ln N(parent) / N(child)), so uct = q + explore.
 */
export const mctsCandidateSchema = z.strictObject({
  nodeId: z.string().min(1).max(200),
  visits: z.number().int().min(0),
  q: z.number().nullable(),
  prior: z.number(),
  explore: z.number().nullable(),
  uct: z.number().nullable(),
});
export type MctsCandidate = z.infer<typeof mctsCandidateSchema>;

export const mctsHopSchema = z.strictObject({
  parentId: z.string().min(1).max(200),
  parentVisits: z.number().int().min(0),
  candidates: z.array(mctsCandidateSchema),
  chosenId: z.string().min(1).max(200),
});
export type MctsHop = z.infer<typeof mctsHopSchema>;

/**
 * Where an MCTS iteration's value came from: a verified answer (1), a failed verification (0), a node that failed (0),
 * the evaluator's composite score of the node (after a rollout when mctsRolloutDepth > 0), or nothing (abandoned).
 */
export const mctsValueSourceSchema = z.enum(['verified', 'verification-failed', 'failed', 'score', 'abandoned']);
export type MctsValueSource = z.infer<typeof mctsValueSourceSchema>;

/** Where a run's output came from: the winner's own answer, one synthesis call, or nowhere. */
export const answerSourceSchema = z.enum(['node', 'synthesis', 'none']);
export type AnswerSource = z.infer<typeof answerSourceSchema>;

/**
 * Why a run ended. terminated: an executed node reached terminationConfidence; frontier-empty: nothing left to run;
 * node-limit: maxTotalNodes executed; iteration-limit: an MCTS search ran its mctsIterations; timeout: the time limit passed; budget: the next model call would have passed
 * the run's cost cap (maxCostUsd); aborted: a person stopped it; error: the model kept failing or the task refused
 * the goal.
 */
export const finishReasonSchema = z.enum([
  'terminated',
  'frontier-empty',
  'node-limit',
  'iteration-limit',
  'timeout',
  'budget',
  'aborted',
  'error',
]);
export type FinishReason = z.infer<typeof finishReasonSchema>;

/** A search's counts and spend so far: folded from its log by the engine, stored on its run, shown by the pages. */
export interface ToTStats {
  /** Every child node created, pending alternatives included (the root is not counted). */
  totalNodes: number;
  /** Nodes executed. */
  exploredNodes: number;
  /** Candidates dropped below confidenceThreshold. */
  prunedNodes: number;
  /** Nodes pruned by a person (subtrees included). */
  steeredPrunes: number;
  /** Nodes the search itself pruned by its own rule (node.pruned: an external search, an imported DFS log). */
  searchPrunes: number;
  maxDepthReached: number;
  backtrackCount: number;
  /** The executor's own generation, evaluation and synthesis calls (not branch runs). */
  llmCalls: number;
  /** Every model call, branch runs included. */
  modelCalls: number;
  tokenUsage: TokenUsage & { totalTokens: number };
  cost: number;
  unpricedCalls: number;
  /** HTTP attempts a backend retried (every attempt of a model.called's `attempts` but its last). */
  retries: number;
}
