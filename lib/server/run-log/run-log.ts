/**
 * The log room's one writer (shared/DESIGN.md: a run is an append-only event log). Every producer of runs hands it
 * what happened and nothing else writes a run's event, node or summary rows:
 * - engine runs (runs/run-manager.ts) through a live writer (live-writer.ts) that batches the engine's commit groups;
 * - lifecycle events (run.queued, run.interrupted, run.failed, ...), external runs (ingest/) and the experiments to come
 *   through `append` (drafts numbered after the stored end) or `commit` (events already folded by the producer);
 * - imports through import-writer.ts (staged chunks, then one swap-in).
 * A batch is one transaction on SQLite and on PostgreSQL: the fence (a cluster's lease, when the caller gives one; the
 * compare-and-set on Run.lastSeq always), the events, the nodes they changed (projection.ts), the row's summary of the
 * folded tree (summary.ts) and whatever the producer writes beside them (`also`: an ingest client's items). Only after
 * the commit are the events published; a batch that ends the run ends it here (`end`: snapshot, Prisma's query
 * history, the streams closed), for every kind of run alike.
 * Not responsible for deciding what happens (the producers), folding rules (lib/engine reduce) or following a run
 * (streaming/).
 */
import type { ExplorationEvent } from '../../contract/events';
import type { RunRecord } from '../../contract/run';
import { hasEnded } from '../../contract/run-status';
import { createEmptyTree, fold, type ThoughtNode, type ThoughtTree } from '../../engine/index';
import type { Logger } from '../core/logger';
import type { Db, PrismaClient } from '../db/client';
import { forgetQueryHistory } from '../db/query-history';
import { getRun } from '../repositories/runs';
import { type EventDraft, numberDrafts } from './drafts';
import type { EventBus } from './event-bus';
import { appendEventsInTransaction, listEvents, sendEventsNotice } from './events';
import { upsertNodes } from './nodes';
import { foldTouched } from './projection';
import { newRunRow, type NewRun } from './run-row';
import { createRun, deleteRun, updateRun, writeRunPatch } from './run-rows';
import { saveSnapshot } from './snapshots';
import { summarizeTree } from './summary';

/** Checked inside a batch's transaction before anything is written: false refuses the batch (a cluster's lease). */
export type WriteFence = (tx: Db, runId: string) => Promise<boolean>;

/** What a producer writes in the same transaction as its batch (an ingest client's items, its last-heard time). */
export type AlsoWrite = (tx: Db) => Promise<void>;

export interface CommitOptions {
  fence?: WriteFence;
  /** Thrown when the fence refuses (a cluster's LeaseLostError); default a plain Error. */
  fenceError?: (runId: string) => Error;
  also?: AlsoWrite;
}

export interface RunLogOptions {
  prisma: PrismaClient;
  /** Where committed batches are announced in this process (in a cluster it carries signals, and NOTIFY the rest). */
  bus: EventBus;
  log: Logger;
}

/** Interactive transactions of the log: generous, since one holds whole steps of a busy run or an import's chunk. */
const TRANSACTION_TIMEOUT_MS = 30_000;

/** Told when a run has stopped in this process (its end stored, or its row marked failed): see RunLog.onStop. */
export type StopListener = (runId: string) => void;

export class RunLog {
  private readonly stopListeners = new Set<StopListener>();

  constructor(private readonly options: RunLogOptions) {}

  /**
   * Calls `listener` after a run's end is stored here (or its row marked failed when its log could not say so), so
   * a producer waiting for runs (an experiment starting its next cells) need not poll. Listeners must not throw and
   * must not wait: they are told, not awaited. Returns the unsubscribe.
   */
  onStop(listener: StopListener): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  private told(runId: string): void {
    for (const listener of this.stopListeners) {
      try {
        listener(runId);
      } catch (error) {
        this.options.log.warn('a stop listener failed', { runId, error });
      }
    }
  }

  get bus(): EventBus {
    return this.options.bus;
  }

  /**
   * A new run: its row (built by newRunRow, the one place a row is made) and its first events, with the summary of
   * their fold, in one transaction; then published. The status is the fold's (run.queued: queued; run.started:
   * running). `startedAt` is for a run whose search is already going (an external one). Returns the stored row and
   * the folded tree.
   */
  async open(
    run: NewRun,
    drafts: readonly EventDraft[],
    options: { also?: AlsoWrite; startedAt?: Date } = {},
  ): Promise<{ record: RunRecord; tree: ThoughtTree }> {
    const row = newRunRow(run);
    const events = numberDrafts(row.id, 0, drafts);
    const tree = fold(events, createEmptyTree(row.id));
    const nodes = tree.nodeOrder.flatMap((id) => tree.nodes[id] ?? []);
    const summary = summarizeTree(tree);
    const record = await this.options.prisma.$transaction(
      async (tx) => {
        await createRun(tx, { ...row, status: summary.status });
        await appendEventsInTransaction(tx, row.id, events);
        if (nodes.length) await upsertNodes(tx, row.id, nodes);
        // the row's startedAt is when this server first ran it (a fork's seed log has a run.started of its source's:
        // the fork has not started), so only a producer whose search is already going says so
        const startedAt = options.startedAt;
        const stored = await updateRun(tx, row.id, { ...summary, ...(startedAt && { startedAt }) });
        await options.also?.(tx);
        return stored as RunRecord;
      },
      { timeout: TRANSACTION_TIMEOUT_MS },
    );
    this.options.bus.publish(row.id, events);
    return { record, tree };
  }

  /**
   * Drafts appended after the stored end of a run's log: numbered, folded onto `tree` (the run's tree at its stored
   * end; by default folded from the table, light: a model call's prompts do not change the tree), written and
   * published by `commit`. Returns the events as stored and the tree they left.
   */
  async append(
    runId: string,
    drafts: readonly EventDraft[],
    options: CommitOptions & { tree?: ThoughtTree } = {},
  ): Promise<{ events: ExplorationEvent[]; tree: ThoughtTree }> {
    const tree = options.tree ?? (await this.storedTree(runId));
    const events = numberDrafts(runId, tree.lastSeq, drafts);
    const nodes = foldTouched(tree, events);
    await this.commit(runId, tree, events, nodes, options);
    return { events, tree };
  }

  /** A run's tree folded from what is stored (light: without prompts). */
  async storedTree(runId: string): Promise<ThoughtTree> {
    return fold(await listEvents(this.options.prisma, runId, { light: true }), createEmptyTree(runId));
  }

  /**
   * Events already numbered and folded onto `tree` by their producer, with the nodes they changed (foldTouched's):
   * one transaction (fence, events, nodes, the row's summary, `also`), then published; a batch that ended the run
   * ends it (`end`; `ended` says so). Throws what the database or the fence threw, having written nothing.
   */
  async commit(
    runId: string,
    tree: ThoughtTree,
    events: readonly ExplorationEvent[],
    nodes: readonly ThoughtNode[],
    options: CommitOptions = {},
  ): Promise<{ ended: boolean }> {
    const { fence, fenceError, also } = options;
    await this.options.prisma.$transaction(
      async (tx) => {
        // the fence: the row stays locked to the commit, so a takeover waits for this batch or this batch fails
        if (fence && !(await fence(tx, runId))) {
          throw fenceError?.(runId) ?? new Error(`run ${runId}: this writer no longer holds its log`);
        }
        await appendEventsInTransaction(tx, runId, events);
        if (nodes.length) await upsertNodes(tx, runId, nodes);
        await writeRunPatch(tx, runId, summarizeTree(tree));
        await also?.(tx);
      },
      { timeout: TRANSACTION_TIMEOUT_MS },
    );
    this.options.bus.publish(runId, [...events]);
    const ended = events.length > 0 && hasEnded(tree.status);
    if (ended) await this.end(runId, tree, tree.status);
    return { ended };
  }

  /**
   * A run has stopped: its tree stored as its snapshot when it ended (the page of a finished run draws it before its
   * history; a derived copy, so failing to store it is only logged), Prisma's remembered queries forgotten (they hold
   * the run's payloads as arguments), and every stream following it closed, in this process or, in a cluster, on
   * every instance. `tree` is null for a run that stopped without ending (its streams are closed all the same).
   */
  async end(runId: string, tree: ThoughtTree | null, why: string): Promise<void> {
    if (tree && hasEnded(tree.status)) {
      await saveSnapshot(this.options.prisma, runId, tree).catch((error: unknown) =>
        this.options.log.warn('snapshot not stored', { runId, error }),
      );
    }
    forgetQueryHistory();
    await this.closeStreams(runId, why);
    this.told(runId);
  }

  /** Ends every stream following a run (a cluster's other instances hear it through NOTIFY). */
  async closeStreams(runId: string, why: string): Promise<void> {
    if (this.options.bus.carriesEvents) this.options.bus.close(runId, why);
    else {
      await sendEventsNotice(this.options.prisma, { runId, closed: why }).catch((error: unknown) =>
        this.options.log.warn('stop not announced', { runId, error }),
      );
    }
  }

  /**
   * The row marked running as a search (re)starts: its status and first start time, behind the fence. The log says
   * so too (run.started or run.resumed, the engine's first group); the row says it at once, for the lists.
   */
  async markRunning(runId: string, startedAt: Date, options: CommitOptions = {}): Promise<void> {
    const { fence, fenceError } = options;
    await this.options.prisma.$transaction(async (tx) => {
      if (fence && !(await fence(tx, runId))) throw fenceError?.(runId) ?? new Error(`run ${runId}: fence refused`);
      await writeRunPatch(tx, runId, { status: 'running', startedAt, error: null });
    });
  }

  /**
   * The last resort when even run.failed cannot be appended (the database itself failed, maybe why the run failed):
   * the row says failed if it still can, and the streams close, so a page watching reads the row again.
   */
  async markFailedOutsideLog(runId: string, message: string): Promise<void> {
    await writeRunPatch(this.options.prisma, runId, { status: 'failed', error: message, finishedAt: new Date() });
    this.told(runId);
  }

  /** Deletes a run with its log, nodes and snapshot (foreign keys cascade); false when there was none. */
  async delete(runId: string): Promise<boolean> {
    const deleted = await deleteRun(this.options.prisma, runId);
    if (deleted) await this.closeStreams(runId, 'deleted');
    return deleted;
  }

  /** The stored row (a convenience for producers that just wrote it). */
  getRun(runId: string): Promise<RunRecord | null> {
    return getRun(this.options.prisma, runId);
  }
}
