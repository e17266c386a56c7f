/**
 * Zod schemas of every ExplorationEvent, one per payload type, for reading event logs that come from outside the
 * process (an export file). Objects are strict: a key this version does not know is refused, not dropped, so what
 * is stored is exactly what was read (and exports again byte for byte).
 * A type-level check at the bottom keeps each schema equal to its EventPayloads entry: a payload changed in
 * lib/engine/events.ts without its schema here fails the type check.
 * Not responsible for the order of events (seq, runId) nor for whether they fold: see export.ts.
 */
import { z } from 'zod';
import { toTConfigSchema } from '../engine/config';
import { EVENT_TYPES, type EventPayloads, type ExplorationEvent, type ExplorationEventType } from '../engine/events';

const nodeId = z.string().min(1).max(200);
const count = z.number().int().min(0);
const finite = z.number();

export const proposedActionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('response'), content: z.string() }),
  z.strictObject({ type: z.literal('sub_goal'), goal: z.string() }),
  z.strictObject({ type: z.literal('tool_call'), toolName: z.string(), arguments: z.record(z.string(), z.unknown()) }),
]);

export const thoughtBranchSchema = z.strictObject({ thought: z.string(), proposedAction: proposedActionSchema });

export const branchScoreSchema = z.strictObject({
  confidence: finite.nullable(),
  progress: finite.nullable(),
  novelty: finite.nullable(),
  composite: finite,
  reasoning: z.string(),
  fallback: z.boolean(),
  logValue: z.strictObject({ value: finite, max: finite }).optional(),
});

const nodeResultSchema = z.strictObject({ response: z.string(), iterations: count, isAnswer: z.boolean() });
const verificationSchema = z.strictObject({ passed: z.boolean(), trace: z.string() });
const frontierMode = z.enum(['execute', 'expand']);
const actor = z.strictObject({ actor: z.string() });

export const payloadSchemas = {
  'run.queued': z.strictObject({ reason: z.enum(['new', 'fork', 'resume']) }),
  'run.started': z.strictObject({
    goal: z.string(),
    taskId: z.string(),
    agentName: z.string(),
    modelId: z.string(),
    config: toTConfigSchema,
  }),
  'node.created': z.strictObject({
    nodeId,
    parentId: nodeId.nullable(),
    branch: thoughtBranchSchema.nullable(),
    score: branchScoreSchema.nullable(),
  }),
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
  'node.queued': z.strictObject({ nodeId, mode: frontierMode, urgent: z.boolean() }),
  'node.started': z.strictObject({ nodeId, mode: frontierMode }),
  'model.called': z.strictObject({
    nodeId: nodeId.nullable(),
    purpose: z.enum(['generate', 'evaluate', 'execute', 'synthesize']),
    modelId: z.string(),
    messages: z.array(z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
    response: z.string().nullable(),
    error: z.string().nullable(),
    usage: z.strictObject({ inputTokens: count, outputTokens: count }),
    cost: z.number().min(0).nullable(),
    latencyMs: z.number().min(0),
  }),
  'node.completed': z.strictObject({ nodeId, result: nodeResultSchema }),
  'node.verified': z.strictObject({ nodeId, passed: z.boolean(), trace: z.string() }),
  'node.expanded': z.strictObject({ nodeId, childIds: z.array(nodeId) }),
  'node.failed': z.strictObject({ nodeId, reason: z.string() }),
  backtrack: z.strictObject({ fromId: nodeId, toId: nodeId.nullable(), reason: z.string() }),
  'steer.prune': z.strictObject({ nodeId, actor: z.string() }),
  'steer.expand': z.strictObject({ nodeId, actor: z.string() }),
  'steer.pause': actor,
  'steer.resume': actor,
  'steer.step': actor,
  'steer.abort': actor,
  'run.paused': z.strictObject({ reason: z.literal('step') }),
  'run.resumed': z.strictObject({ rolledBackNodeId: nodeId.nullable() }),
  'run.interrupted': z.strictObject({ reason: z.string() }),
  'run.failed': z.strictObject({ error: z.string() }),
  'run.finished': z.strictObject({
    reason: z.enum(['terminated', 'frontier-empty', 'node-limit', 'timeout', 'aborted', 'error']),
    detail: z.string().nullable(),
    bestNodeId: nodeId.nullable(),
    output: z.string(),
    answerSource: z.enum(['node', 'synthesis', 'none']),
    success: z.boolean(),
    verified: z.boolean().nullable(),
  }),
} satisfies { [K in ExplorationEventType]: z.ZodType<EventPayloads[K]> };

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

// Both directions: a schema whose output is wider or narrower than its payload type fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type SchemaMatchesPayload = {
  [K in ExplorationEventType]: Same<z.infer<(typeof payloadSchemas)[K]>, EventPayloads[K]>;
};
const schemasMatchPayloads: SchemaMatchesPayload = {
  'run.queued': true,
  'run.started': true,
  'node.created': true,
  'branches.generated': true,
  'branch.scored': true,
  'candidate.dropped': true,
  'node.restored': true,
  'node.queued': true,
  'node.started': true,
  'model.called': true,
  'node.completed': true,
  'node.verified': true,
  'node.expanded': true,
  'node.failed': true,
  backtrack: true,
  'steer.prune': true,
  'steer.expand': true,
  'steer.pause': true,
  'steer.resume': true,
  'steer.step': true,
  'steer.abort': true,
  'run.paused': true,
  'run.resumed': true,
  'run.interrupted': true,
  'run.failed': true,
  'run.finished': true,
};
void schemasMatchPayloads;
