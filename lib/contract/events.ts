/**
 * ExplorationEvent: every change to a search tree, as data, defined once. A run is the ordered list of these (seq
 * 1, 2, 3, ... with no gaps); the engine's reduce() folds them into a tree. Each event type has one zod schema of
 * its payload in `payloadSchemas`; the TS types (EventPayloads, ExplorationEvent, EventOf) and EVENT_TYPES are
 * derived from that object, so a new event is one entry there and nothing else.
 * The schemas are strict: a key this version does not know is refused, not dropped, so what is read from outside
 * (an export file, a foreign program's stream) is exactly what is stored, and exports again byte for byte.
 * Browser-safe; imports zod only. Not responsible for the order of events in a log (seq, runId: lib/formats/export.ts),
 * for storing or sending them (lib/server) nor for folding them (lib/engine/tree.ts).
 */
import { z } from 'zod';
import {
  answerSourceSchema,
  branchScoreSchema,
  chatMessageSchema,
  finishReasonSchema,
  frontierModeSchema,
  jsonValueSchema,
  mctsHopSchema,
  mctsStatsSchema,
  mctsValueSourceSchema,
  modelAttemptSchema,
  modelPurposeSchema,
  nodeResultSchema,
  nodeMetadataSchema,
  thoughtBranchSchema,
  toTConfigSchema,
  steerKindSchema,
  tokenUsageSchema,
  verificationSchema,
} from './vocabulary';
import { breakpointHitSchema, breakpointListSchema } from './breakpoints';

const nodeId = z.string().min(1).max(200);
const count = z.number().int().min(0);
const actor = z.strictObject({ actor: z.string() });

/**
 * What a run.started of a search Arborist does not run carries (a program attached through the ingest API, or a
 * foreign log an import replays): that program's own config, as it gave it (shown in place of the engine's config,
 * which is then only the defaults), and the steering commands it applies (none: steering is shown as unavailable).
 */
export const externalSearchSchema = z.strictObject({
  config: z.record(z.string(), jsonValueSchema),
  commands: z.array(steerKindSchema),
});

/** One entry per event type: its payload's schema. Insertion order is EVENT_TYPES' order. */
export const payloadSchemas = {
  /** `actor`: who asked (logs written before accounts have none; a resume after a restart by itself has none). */
  'run.queued': z.strictObject({ reason: z.enum(['new', 'fork', 'resume']), actor: z.string().optional() }),
  'run.started': z.strictObject({
    goal: z.string(),
    taskId: z.string(),
    agentName: z.string(),
    modelId: z.string(),
    config: toTConfigSchema,
    /** Set when Arborist does not run the search itself (lib/contract/ingest.ts, foreign logs). */
    external: externalSearchSchema.optional(),
  }),
  /** A node enters the tree (the root, or a candidate that survived the threshold). */
  'node.created': z.strictObject({
    nodeId,
    parentId: nodeId.nullable(),
    branch: thoughtBranchSchema.nullable(),
    score: branchScoreSchema.nullable(),
  }),
  /** Generation's answer for an expansion; raw keeps the model's text when it could not be parsed. */
  'branches.generated': z.strictObject({
    nodeId,
    branches: z.array(thoughtBranchSchema),
    fallback: z.boolean(),
    raw: z.string().nullable(),
  }),
  'branch.scored': z.strictObject({
    nodeId,
    index: count,
    branch: thoughtBranchSchema,
    score: branchScoreSchema,
    raw: z.string().nullable(),
  }),
  'candidate.dropped': z.strictObject({
    nodeId,
    index: count,
    branch: thoughtBranchSchema,
    score: branchScoreSchema,
    reason: z.string(),
  }),
  /** A node copied from another run's path when a run is forked: already run there, not run again here. */
  'node.restored': z.strictObject({
    nodeId,
    parentId: nodeId,
    branch: thoughtBranchSchema,
    score: branchScoreSchema.nullable(),
    status: z.enum(['completed', 'pending']),
    result: nodeResultSchema.nullable(),
    verification: verificationSchema.nullable(),
    from: z.strictObject({ runId: z.string(), nodeId: z.string() }).nullable(),
  }),
  'node.queued': z.strictObject({ nodeId, mode: frontierModeSchema, urgent: z.boolean() }),
  /** A step begins: the entry leaves the frontier and the node runs (execute) or grows (expand). */
  /**
   * A step began. `batch`, on the first step of a beam level's batch (issue 30), names every node of the batch in
   * the order their steps follow: their calls ran together, each built from the tree as it was before this event,
   * so a resumed run rebuilds the rest of the batch from the same tree. Absent on a step that runs alone.
   */
  'node.started': z.strictObject({ nodeId, mode: frontierModeSchema, batch: z.array(nodeId).optional() }),
  'model.called': z.strictObject({
    nodeId: nodeId.nullable(),
    purpose: modelPurposeSchema,
    modelId: z.string(),
    messages: z.array(chatMessageSchema),
    response: z.string().nullable(),
    error: z.string().nullable(),
    usage: tokenUsageSchema,
    /** Dollars, or null when the model has no known price. */
    cost: z.number().min(0).nullable(),
    latencyMs: z.number().min(0),
    /** When the call started (ms since the epoch, the run's clock); absent in logs written before issue 30. */
    startedAt: z.number().optional(),
    /** Every HTTP attempt when the backend retried (lib/contract/vocabulary.ts modelAttemptSchema). */
    attempts: z.array(modelAttemptSchema).optional(),
  }),
  'node.completed': z.strictObject({ nodeId, result: nodeResultSchema }),
  'node.verified': z.strictObject({ nodeId, passed: z.boolean(), trace: z.string() }),
  /** An expansion step ended with children (or none to queue). */
  'node.expanded': z.strictObject({ nodeId, childIds: z.array(nodeId) }),
  'node.failed': z.strictObject({ nodeId, reason: z.string() }),
  backtrack: z.strictObject({ fromId: nodeId, toId: nodeId.nullable(), reason: z.string() }),
  /**
   * What a foreign search says about a node beyond the engine's fields, merged into what it said before: named
   * scores, free-form metadata (a key set to null is removed) and MCTS statistics (each field given replaces the
   * last). Sent again as the statistics change, so time travel shows them as they were at each step.
   */
  'node.annotated': z.strictObject({
    nodeId,
    scores: z.record(z.string().min(1).max(100), z.number().nullable()).optional(),
    metadata: nodeMetadataSchema.optional(),
    mcts: mctsStatsSchema.partial().optional(),
  }),
  /**
   * An MCTS iteration begins (issue 31): the selection's walk from the root to the leaf it grows or runs. Each hop
   * lists every child the rule chose among, with its visits, Q and prior as folded just before this event and its
   * UCT term (null for an unvisited child, which comes first), and the child chosen. The iteration's steps follow
   * (node.queued, node.started, ...), then its mcts.backpropagated.
   */
  'mcts.selected': z.strictObject({
    iteration: z.number().int().min(1),
    hops: z.array(mctsHopSchema),
    leafId: nodeId,
  }),
  /**
   * An MCTS iteration ends: `value` (0..1) of `nodeId`, from `source`, backed up along `path` (that node first, the
   * root last): reduce adds a visit to each and folds the value into its Q (mean or max, the run's mctsBackup).
   * `value` null: the iteration was abandoned (a person pruned its node) and nothing is backed up.
   */
  'mcts.backpropagated': z.strictObject({
    iteration: z.number().int().min(1),
    nodeId,
    value: z.number().min(0).max(1).nullable(),
    source: mctsValueSourceSchema,
    path: z.array(nodeId),
  }),
  /** The search itself pruned a node by its own rule (not a person: that is steer.prune), with its subtree. */
  'node.pruned': z.strictObject({ nodeId, reason: z.string() }),
  'steer.prune': z.strictObject({ nodeId, actor: z.string() }),
  'steer.expand': z.strictObject({ nodeId, actor: z.string() }),
  'steer.pause': actor,
  'steer.resume': actor,
  'steer.step': actor,
  'steer.abort': actor,
  /**
   * A person asked an external search (one whose run.started has `external`) for a command; the server records it and
   * the client, which polls for it, answers with steer.acked. Its effect on the tree arrives as the client's own
   * events (steer.prune, steer.pause, ...), never from this event. nodeId is set for prune and expand.
   */
  'steer.requested': z.strictObject({
    kind: steerKindSchema,
    nodeId: nodeId.nullable(),
    actor: z.string(),
    /** Set on a pause the server asks for because one of the run's breakpoints hit on an event the client sent. */
    hit: breakpointHitSchema.optional(),
  }),
  /** The external client's answer to the steer.requested at `requestSeq`: applied, or refused with its reason. */
  'steer.acked': z.strictObject({
    requestSeq: z.number().int().min(1),
    outcome: z.enum(['applied', 'refused']),
    reason: z.string().nullable(),
  }),
  /**
   * The run's breakpoints from now on (the whole list: set, changed, switched off or removed). Written before the
   * search starts when the run was created with some, and at a step boundary when a person changes them live.
   */
  'breakpoints.set': z.strictObject({ breakpoints: breakpointListSchema, actor: z.string() }),
  /**
   * The run waits again by itself: a step taken in step mode is done, or a breakpoint hit (the step whose event
   * satisfied it is done, or, for a node-runs breakpoint, the node's step is about to start).
   */
  'run.paused': z.discriminatedUnion('reason', [
    z.strictObject({ reason: z.literal('step') }),
    z.strictObject({ reason: z.literal('breakpoint'), hit: breakpointHitSchema }),
  ]),
  /** The run continues from its event log (after a server restart); a step cut short is rolled back. */
  'run.resumed': z.strictObject({ rolledBackNodeId: nodeId.nullable() }),
  'run.interrupted': z.strictObject({ reason: z.string() }),
  'run.failed': z.strictObject({ error: z.string() }),
  'run.finished': z.strictObject({
    reason: finishReasonSchema,
    detail: z.string().nullable(),
    bestNodeId: nodeId.nullable(),
    output: z.string(),
    answerSource: answerSourceSchema,
    success: z.boolean(),
    verified: z.boolean().nullable(),
  }),
};

export type ExplorationEventType = keyof typeof payloadSchemas;

/** Each event type's payload, as the engine writes it and a reader gets it back from the schema. */
export type EventPayloads = { [K in ExplorationEventType]: z.output<(typeof payloadSchemas)[K]> };

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

/** Every event type, in payloadSchemas' order (the event log's filter lists them so). */
export const EVENT_TYPES = Object.keys(payloadSchemas) as readonly ExplorationEventType[];

const eventTypeSchema = z.enum(EVENT_TYPES as [ExplorationEventType, ...ExplorationEventType[]]);

/** The envelope of any event; the payload is checked against its type's schema by explorationEventSchema. */
const envelopeSchema = z.strictObject({
  runId: z.string().min(1),
  seq: z.number().int().min(1),
  ts: z.number().int().min(0),
  type: z.string(),
  payload: z.unknown(),
});

/**
 * One event: the envelope, a known type, then the payload of that type. Written as a pipeline rather than a
 * discriminated union so a bad event gets one precise message ("events[3].type: unknown event type "x"",
 * "events[3].payload.nodeId: ...") instead of a union's list of every alternative.
 */
export const explorationEventSchema: z.ZodType<ExplorationEvent> = envelopeSchema.transform((event, ctx) => {
  const type = eventTypeSchema.safeParse(event.type);
  if (!type.success) {
    ctx.addIssue({ code: 'custom', path: ['type'], message: `unknown event type "${event.type}"` });
    return z.NEVER;
  }
  const payload = payloadSchemas[type.data].safeParse(event.payload);
  if (!payload.success) {
    for (const issue of payload.error.issues) {
      ctx.addIssue({ code: 'custom', path: ['payload', ...issue.path], message: issue.message });
    }
    return z.NEVER;
  }
  return { ...event, type: type.data, payload: payload.data } as ExplorationEvent;
});
