/**
 * A run as every room sees it, defined once. runIdentitySchema holds what a run's log cannot say (labels, seed,
 * times, lineage, where it stands): the fields an export file carries and an import writes back. RunRecord adds
 * the summary the server keeps of the log for lists and sums. The repository returns RunRecord, the export file is
 * `runIdentitySchema` with its times as text (lib/formats/export.ts extends it), an import stores RunToStore (a
 * pick of it), and the pages get it through tRPC's RouterOutputs.
 * Browser-safe; imports zod and the rest of the contract only.
 * Not responsible for reading or writing rows (lib/server/repositories/runs.ts, lib/server/run-log/run-rows.ts) nor for moving a run between
 * statuses (lib/server/runs/run-manager.ts).
 */
import { z } from 'zod';
import type { ExportedDiscussion } from './discussion';
import type { ExplorationEvent } from './events';
import { RUN_STATUSES } from './run-status';
import { finishReasonSchema, toTConfigSchema, type ToTStats } from './vocabulary';

/** The longest goal a run may have, in characters (a paragraph; imports hold files to it too). */
export const MAX_GOAL_CHARS = 20_000;

/** Labels and lineage are short text; a goal may be a paragraph. */
const shortText = z.string().max(2_000);

/** What a run's log cannot say. Field order is the export file's. */
export const runIdentitySchema = z.strictObject({
  id: z.string().min(1).max(200),
  taskId: z.string().min(1).max(200),
  goal: z.string().min(1).max(MAX_GOAL_CHARS),
  modelId: shortText,
  /** What the pages call the model (a replay says so). */
  modelLabel: shortText,
  /** The model spec the run manager stored (parsed JSON, validated by its owner), null when none. Never a key. */
  modelSettings: z.unknown(),
  config: toTConfigSchema,
  seed: z.number().int().nullable(),
  status: z.enum(RUN_STATUSES),
  finishReason: finishReasonSchema.nullable(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  /** Set on imported runs: where they came from (lib/contract/import-tag.ts). */
  importTag: shortText.nullable(),
  /** A fork's source run and the source node it was forked from. */
  parentRunId: shortText.nullable(),
  parentNodeId: shortText.nullable(),
});

export type RunIdentity = z.output<typeof runIdentitySchema>;

/** The identity fields, in the export file's order. */
export const RUN_IDENTITY_KEYS = Object.keys(runIdentitySchema.shape) as (keyof RunIdentity)[];

/** A stored run: its identity and what the server keeps of its log for the runs list and its sums. */
export interface RunRecord extends RunIdentity {
  updatedAt: Date;
  /** The seq of the last stored event (0 when none). */
  lastSeq: number;
  stats: ToTStats | null;
  output: string | null;
  success: boolean | null;
  verified: boolean | null;
  bestScore: number | null;
  cost: number;
  /** Calls made on a model with no price (their cost is not in `cost`); ToTStats.unpricedCalls, kept for sums. */
  unpricedCalls: number;
  exploredNodes: number;
  totalNodes: number;
  error: string | null;
  /** Who started or imported it (a user id, team mode); null in local mode. Not in export files. */
  ownerId: string | null;
  /** The instance executing it now (a cluster on PostgreSQL: the holder of its live lease); null otherwise. */
  executingOn: string | null;
}

/**
 * A run an import writes: its identity as it was when it started (the status and the end are the log's to say once
 * stored) with its log, runIds already the new id, and the discussion its file carried (checked against that log).
 */
export type RunToStore = Omit<RunIdentity, 'status' | 'finishReason' | 'finishedAt'> & {
  events: ExplorationEvent[];
  discussion?: ExportedDiscussion;
};

/**
 * The header of GET /api/runs/<id>/snapshot.json that says which seq the tree is at: it arrives ahead of the tree's
 * megabytes, so the run page knows where its history ends before the tree is in (lib/server/http/run-reads.ts
 * writes it).
 */
export const SNAPSHOT_SEQ_HEADER = 'x-arborist-seq';

/**
 * A line of GET /api/runs/<id>/history.ndjson: an event without its runId, which the reader knows (it asked for that
 * run's history). Left off because the id repeated on each of a long run's 100k lines was a tenth of its history.
 */
export type HistoryLine = WithoutRunId<ExplorationEvent>;

/** Each kind of event without its runId (distributed over the union, so a line's type still says its payload). */
type WithoutRunId<E> = E extends ExplorationEvent ? Omit<E, 'runId'> : never;

/** An event as its history line (the keys in the order the server writes them: seq, ts, type, payload). */
export function historyLineOf({ seq, ts, type, payload }: ExplorationEvent): HistoryLine {
  return { seq, ts, type, payload } as HistoryLine;
}

/** A history line of run `runId` as its event (the line object itself, given its runId: lines are read once). */
export function eventOfHistoryLine(runId: string, line: HistoryLine): ExplorationEvent {
  const event = line as ExplorationEvent;
  event.runId = runId;
  return event;
}
