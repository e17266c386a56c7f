/**
 * The Arborist export file: one run, its row and its whole event log, versioned.
 *
 *   { format: 'arborist.run', version: 1, exportedAt, run: { id, taskId, goal, modelId, modelLabel, modelSettings,
 *     config, seed, status, finishReason, createdAt, startedAt, finishedAt, importTag, parentRunId, parentNodeId },
 *     events: ExplorationEvent[], discussion?: { comments: [...], labels: [...] } }
 *
 * The events are the truth; the row fields are what the log cannot say (labels, seed, times, lineage). A run still
 * going can be exported: the file holds its log so far and the status it had.
 * `discussion` (lib/contract/discussion.ts exportedDiscussionSchema: the comments with the file's own ids, a reply
 * naming its thread's first, authors by name only; the labels with their notes) is there only when the run has a
 * comment or a label: what people said about the search, beside its log and never in it. Files without it read as
 * before.
 * modelSettings is copied field by field from SAFE_MODEL_SETTING_KEYS only (never an API key, a base URL or
 * headers, whatever a future model spec holds), on export and again on import.
 *
 * runExportSchema is the import side's judge: the file's shape, every event (known type, payload of that type:
 * lib/contract/events.ts), seq 1..n without gaps, one runId (the run's) throughout, run.started first (after the
 * run's run.queued, if the log has it), every node an event names already in the tree, and finally a fold with
 * reduce (a fold that throws refuses the file); then the discussion against the tree that fold made (every step within
 * the log, every node it names made by the log, every reply to an earlier thread's first, no id or label twice: discussionProblem).
 * validateRunExport wraps it and says what is wrong in one line, e.g. "events[41].seq: expected 42, got 44".
 * Pure: no I/O. Not responsible for storing (lib/server/imports.ts) or for other formats (tot-log.ts).
 */
import { z } from 'zod';
import { discussionProblem, type ExportedDiscussion, exportedDiscussionSchema } from '../contract/discussion';
import { type ExplorationEvent, explorationEventSchema } from '../contract/events';
import { RUN_IDENTITY_KEYS, type RunIdentity, runIdentitySchema } from '../contract/run';
import { createEmptyTree, reduce, type ThoughtTree } from '../engine/index';
import { TASK_IDS, isTaskId } from '../contract/tasks';
import { MAX_METADATA_KEYS, metadataCapProblem } from '../contract/vocabulary';
import { checkExportFieldCaps, formatIssuePath } from './field-caps';

export const EXPORT_FORMAT = 'arborist.run';
export const EXPORT_VERSION = 1;

/**
 * The only model settings an export carries: what names the model and makes a simulated one reproducible.
 * Anything else (apiKey, baseUrl, headers, organization, ...) is left out, on export and on import.
 */
export const SAFE_MODEL_SETTING_KEYS = ['provider', 'model', 'seed', 'latencyMs', 'temperature', 'maxTokens'] as const;

export type SafeModelSettings = Partial<Record<(typeof SAFE_MODEL_SETTING_KEYS)[number], string | number | boolean>>;

/** A run as its export file holds it: the run's identity (lib/contract/run.ts), times as ISO text, safe settings. */
export type ExportedRun = Omit<RunIdentity, 'modelSettings' | 'createdAt' | 'startedAt' | 'finishedAt'> & {
  modelSettings: SafeModelSettings | null;
  /** ISO 8601 times. */
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export interface RunExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  run: ExportedRun;
  events: ExplorationEvent[];
  /** The run's comments and labels; absent when it has none. */
  discussion?: ExportedDiscussion;
}

/** Copies the known-safe fields of a model spec (primitives only); null when nothing safe is left. */
export function safeModelSettings(value: unknown): SafeModelSettings | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const source = value as Record<string, unknown>;
  const out: SafeModelSettings = {};
  for (const key of SAFE_MODEL_SETTING_KEYS) {
    const field = source[key];
    if (typeof field === 'string' || typeof field === 'boolean' || (typeof field === 'number' && isFinite(field))) {
      out[key] = field;
    }
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The file for a run: its identity fields in the contract's order (any stored RunRecord has them), its log and, when
 * it has one, its discussion.
 */
export function buildExport(
  record: RunIdentity,
  events: readonly ExplorationEvent[],
  now = new Date(),
  discussion: ExportedDiscussion | null = null,
): RunExport {
  const run = Object.fromEntries(RUN_IDENTITY_KEYS.map((key) => [key, record[key]])) as unknown as RunIdentity;
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    run: {
      ...run,
      modelSettings: safeModelSettings(record.modelSettings),
      createdAt: record.createdAt.toISOString(),
      startedAt: record.startedAt?.toISOString() ?? null,
      finishedAt: record.finishedAt?.toISOString() ?? null,
    },
    events: [...events],
    ...(discussion && { discussion }),
  };
}

const isoTime = z.iso.datetime({ offset: true });

/**
 * The contract's run identity, read from text: times as ISO text, only the safe model settings. The task must be one
 * Arborist knows unless the log says the search was not Arborist's own (checkLog).
 */
const exportedRunSchema = runIdentitySchema.extend({
  modelSettings: z.record(z.string(), z.unknown()).nullable().transform(safeModelSettings),
  createdAt: isoTime,
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
});

export const runExportSchema = z
  .strictObject({
    format: z.literal(EXPORT_FORMAT, { error: `not an Arborist export: format must be '${EXPORT_FORMAT}'` }),
    version: z.literal(EXPORT_VERSION, { error: `this Arborist reads export version ${EXPORT_VERSION}` }),
    exportedAt: isoTime,
    run: exportedRunSchema,
    events: z.array(explorationEventSchema),
    discussion: exportedDiscussionSchema.optional(),
  })
  .superRefine((file, ctx) => {
    const tree = createEmptyTree(file.run.id);
    const problem = checkLog(file.run, file.events, tree) ?? checkDiscussion(file.discussion, tree);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  }) satisfies z.ZodType<RunExport, unknown>;

interface Problem {
  path: (string | number)[];
  message: string;
}

/**
 * The log's order, identity and references, then the fold itself onto `tree` (an empty tree of the run's id); the
 * first problem found, or null (the tree is then the log's whole fold).
 */
function checkLog(
  run: Pick<ExportedRun, 'id' | 'taskId' | 'goal'>,
  events: readonly ExplorationEvent[],
  tree: ThoughtTree,
): Problem | null {
  if (events.length === 0) {
    return { path: ['events'], message: 'the log is empty: a run that never started has nothing to import' };
  }
  // a run's log may open with its wait for a slot (run.queued, written before the search starts)
  const start = events.findIndex((event) => event.type !== 'run.queued');
  if (start < 0) {
    return { path: ['events'], message: 'the log has only run.queued: a run that never started has nothing to import' };
  }
  const first = events[start] as ExplorationEvent;
  if (first.type !== 'run.started') {
    return { path: ['events', start, 'type'], message: `the first event must be run.started, got ${first.type}` };
  }
  if (!first.payload.external && !isTaskId(run.taskId)) {
    return { path: ['run', 'taskId'], message: `unknown task: known tasks are ${TASK_IDS.join(', ')}` };
  }
  if (first.payload.taskId !== run.taskId) {
    return { path: ['run', 'taskId'], message: `"${run.taskId}" differs from run.started's "${first.payload.taskId}"` };
  }
  if (first.payload.goal !== run.goal) {
    return { path: ['run', 'goal'], message: `differs from the goal of the run.started event` };
  }
  for (const [i, event] of events.entries()) {
    if (event.seq !== i + 1) return { path: ['events', i, 'seq'], message: `expected ${i + 1}, got ${event.seq}` };
    if (event.runId !== run.id) {
      return { path: ['events', i, 'runId'], message: `expected the run's id "${run.id}", got "${event.runId}"` };
    }
  }
  const problem = foldChecked(tree, events);
  return problem ? { path: ['events', problem.index], message: problem.message } : null;
}

/** The file's discussion against the tree its log folded to (nodes, replies, ids): the first problem, or null. */
function checkDiscussion(discussion: ExportedDiscussion | undefined, tree: ThoughtTree): Problem | null {
  if (!discussion) return null;
  const problem = discussionProblem(discussion, (nodeId) => Object.hasOwn(tree.nodes, nodeId), tree.lastSeq);
  return problem ? { path: ['discussion', ...problem.path], message: problem.message } : null;
}

/**
 * Folds events onto a tree, checking each first: the first event that names what the tree does not have (yet),
 * creates a node twice, cannot be folded, or gives a node more metadata keys than the contract's cap, with its
 * index in `events`, or null when all folded. The tree is changed in place up to that event. Shared by imports and
 * the ingest API, which checks a batch against its run.
 */
export function foldChecked(
  tree: ThoughtTree,
  events: readonly ExplorationEvent[],
): { index: number; message: string } | null {
  for (const [index, event] of events.entries()) {
    const problem = danglingReference(tree, event);
    if (problem) return { index, message: `${event.type}: ${problem}` };
    const keysBefore = metadataKeys(tree, event);
    try {
      reduce(tree, event);
    } catch (error) {
      return { index, message: `${event.type} cannot be folded: ${(error as Error).message}` };
    }
    const gathered = gatheredMetadataProblem(tree, event, keysBefore);
    if (gathered) return { index, message: `${event.type}: ${gathered}` };
  }
  return null;
}

/** How many metadata keys the node an annotation names holds (0 for any other event). */
function metadataKeys(tree: ThoughtTree, event: ExplorationEvent): number {
  if (event.type !== 'node.annotated' || !event.payload.metadata) return 0;
  return Object.keys(tree.nodes[event.payload.nodeId]?.metadata ?? {}).length;
}

/**
 * The schema caps each annotation's metadata; annotations merge, so a node could still gather keys without end over
 * many of them (each stored, folded into every snapshot and sent to every browser): the node's whole metadata is held
 * to the same cap. Only an annotation that adds keys is refused, so a node stored over the cap before it existed
 * still takes replacements and removals.
 */
function gatheredMetadataProblem(tree: ThoughtTree, event: ExplorationEvent, keysBefore: number): string | null {
  if (event.type !== 'node.annotated' || !event.payload.metadata) return null;
  const merged = tree.nodes[event.payload.nodeId]?.metadata ?? {};
  const keys = Object.keys(merged).length;
  if (keys <= MAX_METADATA_KEYS || keys <= keysBefore) return null;
  const problem = metadataCapProblem(merged);
  return problem ? `node "${event.payload.nodeId}"'s metadata: ${problem.message}` : null;
}

/** What an event names that the tree does not have (yet), or a node it would create twice. */
function danglingReference(tree: ThoughtTree, event: ExplorationEvent): string | null {
  const missing = (id: string | null | undefined, what = 'node') =>
    id != null && !tree.nodes[id] ? `no ${what} "${id}" in the tree at this point` : null;
  switch (event.type) {
    case 'run.started':
      return tree.startedAt === null ? null : 'run.started can only come once, first (after run.queued)';
    case 'node.created': {
      const { nodeId, parentId } = event.payload;
      if (tree.nodes[nodeId]) return `node "${nodeId}" already exists`;
      if (parentId === null) return tree.rootId === null ? null : 'a second root (parentId null)';
      return missing(parentId, 'parent node');
    }
    case 'node.restored':
      if (tree.nodes[event.payload.nodeId]) return `node "${event.payload.nodeId}" already exists`;
      return missing(event.payload.parentId, 'parent node');
    case 'node.expanded':
      return missing(event.payload.nodeId) ?? event.payload.childIds.map((id) => missing(id)).find(Boolean) ?? null;
    case 'branches.generated':
    case 'branch.scored':
    case 'candidate.dropped':
    case 'node.queued':
    case 'node.started':
    case 'node.completed':
    case 'node.verified':
    case 'node.failed':
    case 'steer.prune':
    case 'steer.expand':
    case 'model.called':
    case 'node.annotated':
    case 'node.pruned':
    case 'steer.requested':
      return missing(event.payload.nodeId);
    case 'steer.acked': {
      const seq = event.payload.requestSeq;
      const command = tree.commands.find((c) => c.seq === seq);
      if (!command) return `no steer.requested at seq ${seq}`;
      return command.outcome === 'requested' ? null : `the command at seq ${seq} was answered already`;
    }
    case 'backtrack':
      return missing(event.payload.fromId) ?? missing(event.payload.toId);
    case 'run.resumed':
      return missing(event.payload.rolledBackNodeId);
    case 'run.finished':
      return missing(event.payload.bestNodeId);
    default:
      return null;
  }
}

/** Zod's issues as one line: the first few, each "path: message". */
export function describeIssues(error: z.ZodError, limit = 3): string {
  const issues = error.issues;
  const lines = issues.slice(0, limit).map((issue) => {
    const path = formatIssuePath(issue.path);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  const more = issues.length > limit ? `; and ${issues.length - limit} more` : '';
  return lines.join('; ') + more;
}

export type ExportValidation = { ok: true; file: RunExport } | { ok: false; error: string };

/** Checks a parsed JSON value as an export file; the error says what is wrong in one line. */
export function validateRunExport(value: unknown): ExportValidation {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `not an Arborist export: expected a JSON object with format '${EXPORT_FORMAT}'` };
  }
  const { format, version } = value as { format?: unknown; version?: unknown };
  if (format !== EXPORT_FORMAT) {
    return { ok: false, error: `not an Arborist export: format must be '${EXPORT_FORMAT}'` };
  }
  if (version !== EXPORT_VERSION) {
    return {
      ok: false,
      error: `unsupported export version ${JSON.stringify(version)}: this Arborist reads version ${EXPORT_VERSION}`,
    };
  }
  const parsed = runExportSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  const tooLong = checkExportFieldCaps(parsed.data.run.goal, parsed.data.events);
  return tooLong ? { ok: false, error: tooLong } : { ok: true, file: parsed.data };
}
