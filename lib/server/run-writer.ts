/**
 * A live run's write path: the groups the engine commits (onCommit) are queued here and written in order, several
 * groups per transaction when they come faster than a transaction takes, each transaction holding whole groups only
 * (events, the node projection they changed, the run row's summary: writeFoldedBatch), then published on the bus once
 * committed. In a cluster every transaction first checks the run's lease (the fence).
 * Not responsible for a run's lifecycle (the run manager starts, stops and detaches runs), the SQL (repositories/),
 * nor for folding (lib/engine reduce, through projection.ts).
 */
import type { ExplorationEvent } from '../contract/events';
import type { ThoughtTree } from '../engine/index';
import type { PrismaClient } from './db/client';
import type { EventBus } from './event-bus';
import { type Cluster, LeaseLostError } from './cluster/index';
import { EventAppendError } from './repositories/events';
import { foldTouched, writeFoldedBatch } from './projection';

/** What the writer keeps of a live run (the run manager's LiveRun has these fields and more). */
export interface RunWriteState {
  id: string;
  /** The tree folded from what has been written: the same reduce beside the engine. */
  tree: ThoughtTree;
  /** Committed by the engine, not yet written (whole groups, in order). */
  pending: ExplorationEvent[];
  /** The write loop in flight, if any. */
  writing: Promise<void> | null;
  writeError: Error | null;
  abort: AbortController;
  /** Stopped with nothing more written: its pending events are dropped. */
  detached: boolean;
}

export interface RunWriterDeps {
  prisma: PrismaClient;
  bus: EventBus;
  /** Cluster mode: each transaction first checks this instance still holds the run's lease. */
  cluster: Cluster | null;
}

/**
 * Whether a failed write means the log is no longer this instance's to write (cluster mode): its lease was taken over,
 * another writer's events are there (duplicate, gap), or the run was deleted. Such a run is detached, never failed.
 */
export function lostTheLog(error: unknown): boolean {
  if (error instanceof LeaseLostError) return true;
  return error instanceof EventAppendError && ['duplicate', 'gap', 'run-missing'].includes(error.reason);
}

/** Queues a group the engine committed and starts the write loop if none is running. */
export function enqueueWrite(deps: RunWriterDeps, run: RunWriteState, group: readonly ExplorationEvent[]): void {
  if (run.detached) return; // dropped: its log is no longer this instance's to write
  run.pending.push(...group);
  if (!run.writing) run.writing = writeLoop(deps, run);
}

/** Settles when everything queued so far is written (or the loop stopped on an error, kept in writeError). */
export async function drainWrites(run: RunWriteState): Promise<void> {
  while (run.writing) await run.writing;
}

/** Writes what is pending, batch after batch, in order; publishes each batch once it is committed. */
async function writeLoop(deps: RunWriterDeps, run: RunWriteState): Promise<void> {
  try {
    // let the engine finish its synchronous group and any that follow at once: one transaction for all of them
    await new Promise((resolve) => setImmediate(resolve));
    const cluster = deps.cluster;
    while (run.pending.length > 0 && !run.detached) {
      const batch = run.pending.splice(0);
      const nodes = foldTouched(run.tree, batch);
      await deps.prisma.$transaction(
        async (tx) => {
          // the fence: the row stays locked to the commit, so a takeover waits for this batch or this batch fails
          if (cluster && !(await cluster.holds(tx, run.id))) throw new LeaseLostError(run.id);
          await writeFoldedBatch(tx, run.id, run.tree, batch, nodes);
        },
        { timeout: 30_000 },
      );
      deps.bus.publish(run.id, batch);
    }
  } catch (error) {
    run.writeError = error instanceof Error ? error : new Error(String(error));
    if (deps.cluster && lostTheLog(error)) {
      run.detached = true;
      run.pending.length = 0;
    }
    run.abort.abort(run.writeError);
  } finally {
    run.writing = null;
  }
}
