/**
 * The ingest API's wire contract, defined once: what a program that runs its own tree search sends to attach it to
 * Arborist (create a run, append to it in idempotent batches, answer steering) and what it gets back. The server
 * validates with these schemas (lib/server/ingest), the TypeScript SDK (lib/sdk) is typed by them (type imports only:
 * the SDK ships no zod), the Python client (lib/sdk/python) and the README follow them by hand.
 *
 * Routes (all JSON; team mode: `Authorization: Bearer <API key>` of a member; local mode: loopback only):
 *   POST /api/ingest/runs                      ingestCreateSchema       -> IngestCreated (201)
 *   POST /api/ingest/runs/:id/events           a batch of items (a JSON array, {"items": [...]}, or NDJSON with
 *                                              Content-Type application/x-ndjson)  -> IngestAppended
 *   GET  /api/ingest/runs/:id/commands?after=S&waitMs=W   long-poll the commands aimed at the run -> IngestCommands
 *   POST /api/ingest/runs/:id/heartbeat        the client is alive (every request counts too) -> IngestHeartbeat
 *   POST /api/ingest/runs/:id/finish           ingestFinishSchema (a finish outside the client's seqs, for curl)
 *                                              -> IngestAppended
 * Errors: 400 {error:'invalid', issues:[{path, message}]} names the field and stores nothing; 409 {error:'gap' |
 * 'conflict' | 'closed', expectedSeq, message}, and {error:'conflict', message} for a refused steering command;
 * 413 {error:'invalid'} past MAX_BATCH_BYTES; 404 {error:'not-found'} for a run that is not an ingest run; 401/403
 * ({error: message}) as on every route. The commands poll waits at most 25 s and at most half the server's timeout.
 * A silent client (no request for ARBORIST_INGEST_TIMEOUT_MS) leaves its run `interrupted`; its next request
 * continues it (run.resumed). Writes need Content-Type application/json (or application/x-ndjson).
 *
 * Items carry the client's own sequence number `seq` (1, 2, 3, ... per run, no gaps), separate from the log's seq
 * (the server interleaves its own events: steering requests, interruptions). A batch may repeat items already stored
 * (a retry): those that match what was stored are counted as duplicates and stored once; one that differs is a 409
 * conflict. An item is either a canonical event (type + payload, the same schemas as imports, for clients that
 * produce Arborist's events themselves, such as the CLI's engine) or a higher-level operation (`op`), which the
 * server turns into canonical events.
 * Breakpoints (the create body's `breakpoints`, or set by a person on the page) are judged by the server against the
 * events a batch becomes; a hit is sent to the client as a pause command carrying it (IngestCommand.hit) when it
 * next polls, so a client that takes breakpoints must take `pause`.
 * Sizes: a batch holds at most MAX_BATCH_ITEMS (5,000) items in MAX_BATCH_BYTES (16 MiB; a create or finish body 1 MiB).
 * Per field, the imports' caps (FIELD_CAPS, lib/formats/field-caps.ts), a 400 naming the item and path: a thought
 * 100,000 characters (a node's `thought`, an event's branch/branches), a prompt 1,000,000 (each message of a `call`),
 * a response 1,000,000 (a `call`'s), the goal MAX_GOAL_CHARS (20,000). Node ids 1..200 characters; task, model and
 * agent at most 200; a named score's name 100. A node's metadata (`node`, `annotate`, node.annotated): at most
 * MAX_METADATA_KEYS (64) keys of 200 characters, each value's JSON at most MAX_METADATA_VALUE_CHARS (131,072
 * characters), lib/contract/vocabulary.ts. Other text is held only by the body's size.
 * Finish reasons (finishReasonSchema): terminated (the search decided it was done; for the engine, a node reached
 * terminationConfidence), frontier-empty (nothing left to explore), node-limit, iteration-limit (an MCTS search's budget), timeout, budget (the cost cap),
 * aborted (a person stopped it), error. A finish without one gets defaultFinishReason(success): 'terminated' when
 * successful, else 'frontier-empty'.
 * The root (a node with parent null) is the goal; a thought given for it (the search's first state) is kept and
 * shown beside the goal, its score is not stored. No `agent`: UNNAMED_AGENT, which the page reads as unnamed.
 * Browser-safe; imports zod and the contract only.
 */
import { z } from 'zod';
import { breakpointListSchema, type BreakpointHit } from './breakpoints';
import { MAX_GOAL_CHARS } from './run';
import { externalBreakpointBlock, UNNAMED_AGENT } from './steering';
import {
  chatMessageSchema,
  type FinishReason,
  finishReasonSchema,
  frontierModeSchema,
  jsonValueSchema,
  mctsStatsSchema,
  modelPurposeSchema,
  nodeMetadataSchema,
  type namedScoresSchema,
  proposedActionSchema,
  steerKindSchema,
} from './vocabulary';

/** The event types a client may send as canonical events: everything but the run's life, which the server writes. */
export const CLIENT_EVENT_TYPES = [
  'node.created',
  'branches.generated',
  'branch.scored',
  'candidate.dropped',
  'node.queued',
  'node.started',
  'model.called',
  'node.completed',
  'node.verified',
  'node.expanded',
  'node.failed',
  'backtrack',
  'node.annotated',
  'node.pruned',
  'steer.prune',
  'steer.expand',
  'steer.pause',
  'steer.resume',
  'steer.step',
  'steer.abort',
  'run.paused',
] as const;
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];

/** The most items one batch may hold. */
export const MAX_BATCH_ITEMS = 5_000;
/** The largest body one request may send (a batch, JSON or NDJSON): 16 MiB. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/** The longest node id (or any node reference) an item may carry. */
export const MAX_NODE_REF = 200;
const nodeRef = z.string().min(1).max(MAX_NODE_REF);
const clientSeq = z.number().int().min(1);
/** Milliseconds since the epoch; the server's clock when absent. */
const ts = z.number().int().min(0).optional();

export const ingestCreateSchema = z
  .strictObject({
    goal: z.string().trim().min(1, { error: 'the goal is empty' }).max(MAX_GOAL_CHARS),
    /** The task's label, shown where a task's name is ("crosswords", "my-agent"). */
    task: z.string().trim().min(1).max(200).default('external'),
    /** The program's own config, shown as it is given. */
    config: z.record(z.string(), jsonValueSchema).default({}),
    /** What model the program uses, as a label ("gpt-4o", "llama-3-8b"). */
    model: z.string().trim().min(1).max(200).default('unknown'),
    /** The program's name ("my-tot-loop", "arborist-sdk"); none: UNNAMED_AGENT, which the page reads as unnamed. */
    agent: z.string().trim().min(1).max(200).default(UNNAMED_AGENT),
    /** The steering commands the program applies; none: steering is shown as unavailable. */
    commands: z.array(steerKindSchema).default([]),
    /**
     * The breakpoints the run starts with (breakpoints.set right after run.started). A hit is sent to the program as
     * a pause command carrying it, so the program must take `pause`.
     */
    breakpoints: breakpointListSchema.optional(),
  })
  .superRefine((input, ctx) => {
    // the same words as a live breakpoints command's refusal (lib/contract/steering.ts)
    const refusal = input.breakpoints?.length ? externalBreakpointBlock(input, input.agent) : null;
    if (refusal) ctx.addIssue({ code: 'custom', path: ['breakpoints'], message: refusal });
  });
export type IngestCreateInput = z.input<typeof ingestCreateSchema>;

export interface IngestCreated {
  runId: string;
  /** The run's page, relative to the server ("/runs/<id>"). */
  url: string;
  /** The first item's seq (1). */
  nextSeq: number;
  /** How often the client should show it is alive; after a few missed beats the run is marked interrupted. */
  heartbeatMs: number;
}

/** A canonical event, as a client sends it: its own seq, the type and the payload (checked by the event schemas). */
export const ingestEventItemSchema = z.strictObject({
  seq: clientSeq,
  ts,
  type: z.enum(CLIENT_EVENT_TYPES),
  payload: z.unknown(),
});

const annotations = {
  /** Named scores on any scale; a null removes one. */
  scores: z.record(z.string().min(1).max(100), z.number().nullable()).optional(),
  metadata: nodeMetadataSchema.optional(),
  mcts: mctsStatsSchema.partial().optional(),
};

/**
 * The reason a finish without one is given: what the program said of its outcome. A successful search stopped
 * because it was done ('terminated'), whatever it left pending; one without success ran out of things to try
 * ('frontier-empty'). Never 'frontier-empty' for a solved run: that reads "nothing left to explore".
 */
export function defaultFinishReason(success: boolean): FinishReason {
  return success ? 'terminated' : 'frontier-empty';
}

/** A finish's fields, in the op and in the finish route's body (a reason is filled in from `success` when absent). */
const finishFields = {
  output: z.string().default(''),
  best: nodeRef.nullable().default(null),
  success: z.boolean().default(false),
  /** Absent: defaultFinishReason(success). */
  reason: finishReasonSchema.optional(),
  detail: z.string().nullable().default(null),
  verified: z.boolean().nullable().default(null),
};

/** Fills in a finish's reason from its success (a default that depends on another field: hence a transform). */
function withReason<T extends { success: boolean; reason?: FinishReason | undefined }>(
  finish: T,
): T & { reason: FinishReason } {
  return { ...finish, reason: finish.reason ?? defaultFinishReason(finish.success) };
}

/** The search is over (run.finished). */
const finishOpSchema = z
  .strictObject({ seq: clientSeq, ts, op: z.literal('finish'), ...finishFields })
  .transform(withReason);

/** The body of POST /api/ingest/runs/:id/finish (a finish without a seq, for curl; every field optional). */
export const ingestFinishSchema = z.strictObject(finishFields).transform(withReason);
export type IngestFinishInput = z.input<typeof ingestFinishSchema>;

/** The higher-level operations, one schema each; the server turns each into canonical events (lib/server/ingest). */
export const ingestOpSchema = z.discriminatedUnion('op', [
  /**
   * A node under `parent` (null: the root, the goal itself; one per run). A root's thought (its first state) is kept
   * beside the goal; its score is not stored.
   */
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('node'),
    id: nodeRef,
    parent: nodeRef.nullable(),
    thought: z.string().default(''),
    action: proposedActionSchema.optional(),
    /** 0..1: what orders and colours nodes (the composite); absent: no score. */
    score: z.number().min(0).max(1).optional(),
    ...annotations,
  }),
  z.strictObject({ seq: clientSeq, ts, op: z.literal('annotate'), node: nodeRef, ...annotations }),
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('start'),
    node: nodeRef,
    mode: frontierModeSchema.default('execute'),
  }),
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('call'),
    node: nodeRef.nullable(),
    purpose: modelPurposeSchema.default('execute'),
    model: z.string().max(200).optional(),
    messages: z.array(chatMessageSchema).default([]),
    response: z.string().nullable().default(null),
    error: z.string().nullable().default(null),
    inputTokens: z.number().int().min(0).default(0),
    outputTokens: z.number().int().min(0).default(0),
    /** Dollars; absent or null: unpriced. */
    cost: z.number().min(0).nullable().default(null),
    latencyMs: z.number().min(0).default(0),
  }),
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('complete'),
    node: nodeRef,
    response: z.string(),
    /** True when this result is a final answer to the goal. */
    answer: z.boolean().default(false),
  }),
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('verify'),
    node: nodeRef,
    passed: z.boolean(),
    trace: z.string().default(''),
  }),
  z.strictObject({ seq: clientSeq, ts, op: z.literal('fail'), node: nodeRef, reason: z.string() }),
  /** The search pruned the node by its own rule (node.pruned); with `actor`, it applied a person's prune (steer.prune). */
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('prune'),
    node: nodeRef,
    reason: z.string().default('pruned by the search'),
    actor: z.string().optional(),
  }),
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('backtrack'),
    from: nodeRef,
    to: nodeRef.nullable(),
    reason: z.string().default(''),
  }),
  /** The client's answer to a command (steer.acked); `command` is the seq the command came with. */
  z.strictObject({
    seq: clientSeq,
    ts,
    op: z.literal('ack'),
    command: z.number().int().min(1),
    outcome: z.enum(['applied', 'refused']),
    reason: z.string().nullable().default(null),
  }),
  /** The search is over (run.finished). */
  finishOpSchema,
]);
export type IngestOp = z.output<typeof ingestOpSchema>;
export type IngestOpInput = z.input<typeof ingestOpSchema>;

/** One item of a batch: a canonical event or an operation. */
export const ingestItemSchema = z.union([ingestEventItemSchema, ingestOpSchema]);
export type IngestItem = z.output<typeof ingestItemSchema>;
export type IngestItemInput = z.input<typeof ingestItemSchema>;

export const ingestBatchSchema = z
  .array(ingestItemSchema)
  .min(1, { error: 'the batch is empty' })
  .max(MAX_BATCH_ITEMS, { error: `a batch holds at most ${MAX_BATCH_ITEMS} items` });

export interface IngestAppended {
  /** Items stored by this request. */
  accepted: number;
  /** Items already stored by an earlier request (a retry), stored once. */
  duplicates: number;
  /** The seq the next item must have. */
  nextSeq: number;
  /** The run's status after the batch (a finish op makes it 'finished'). */
  status: string;
}

export interface IngestError {
  error: 'invalid' | 'gap' | 'conflict' | 'closed' | 'not-found' | 'unauthorized' | 'forbidden';
  message: string;
  /** invalid: each problem, its path in the batch ("items[3].payload.nodeId"). */
  issues?: { path: string; message: string }[];
  /** gap, conflict: the seq the server expects next. */
  expectedSeq?: number;
}

/**
 * A person's command aimed at the run, as the client receives it. `seq` is what its ack names. A pause the server
 * asks for because one of the run's breakpoints hit on an event the client sent has actor "breakpoint" and `hit`
 * (which breakpoint, the log seq of the event, the node, and `detail`, a sentence saying why); null otherwise.
 */
export interface IngestCommand {
  seq: number;
  kind: z.infer<typeof steerKindSchema>;
  nodeId: string | null;
  actor: string;
  ts: number;
  hit: BreakpointHit | null;
}

/** The actor of a pause the server asks of an external search because a breakpoint hit. */
export const BREAKPOINT_ACTOR = 'breakpoint';

export interface IngestCommands {
  /** Unanswered commands after `after`, oldest first. */
  commands: IngestCommand[];
  /** The run's status: a client stops polling once it is finished. */
  status: string;
}

export interface IngestHeartbeat {
  status: string;
  nextSeq: number;
}

/** Named scores as the SDK's callers give them (no nulls). */
export type NamedScores = z.infer<typeof namedScoresSchema>;
