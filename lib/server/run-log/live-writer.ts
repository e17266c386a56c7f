/**
 * A live engine run's batching in front of the log room's writer: the groups the engine commits (onCommit) are queued
 * here and committed in order by RunLog.commit, several groups per transaction when they come faster than a
 * transaction takes, each transaction holding whole groups only. In a cluster every transaction first checks the
 * run's lease (the fence the run manager gives).
 * Not responsible for a run's lifecycle (the run manager starts, stops and detaches runs), the transaction itself
 * (run-log.ts), nor for folding (lib/engine reduce, through projection.ts).
 */
import type { ExplorationEvent } from '../../contract/events';
import type { ThoughtTree } from '../../engine/index';
import { foldTouched } from './projection';
import type { CommitOptions, RunLog } from './run-log';

/** What the writer keeps of a live run (the run manager's LiveRun has these fields and more). */
export interface RunWriteState {
  id: string;
  /** The tree folded from what has been written: the same reduce beside the engine. */
  tree: ThoughtTree;
  /** Groups committed by the engine, not yet written, in order (a transaction takes whole groups only). */
  pending: ExplorationEvent[][];
  /** How many events `pending` holds. */
  pendingEvents: number;
  /** Ends the write loop's gathering wait early (a full batch is waiting); null when it is not waiting. */
  wake: (() => void) | null;
  /** The write loop in flight, if any. */
  writing: Promise<void> | null;
  writeError: Error | null;
  abort: AbortController;
  /** Stopped with nothing more written: its pending events are dropped. */
  detached: boolean;
  /** When the oldest pending group was committed by the engine (performance.now()). */
  pendingSince: number;
  /** When the last transaction committed (performance.now()); -Infinity before the first. */
  lastWriteEnd: number;
  /** A committed batch ended the run, and the log room ended it there (snapshot, streams closed). */
  endedByLog: boolean;
}

/** A live run's write state before its first group. */
export function createWriteState(id: string, tree: ThoughtTree): RunWriteState {
  return {
    id,
    tree,
    pending: [],
    pendingEvents: 0,
    wake: null,
    writing: null,
    writeError: null,
    abort: new AbortController(),
    detached: false,
    pendingSince: 0,
    lastWriteEnd: -Infinity,
    endedByLog: false,
  };
}

/**
 * A run whose last transaction committed less than this long ago is busy: its next groups are gathered into one
 * transaction. A quiet run (a model call takes longer than this) has each group written at the next turn.
 */
export const BUSY_WITHIN_MS = 16;

/**
 * How long a busy run's oldest pending group may wait for more to join its transaction: under a frame (~16 ms), so a
 * viewer still sees it in the next one. Each transaction costs ~2 ms whatever it holds (Prisma's interactive
 * transaction, the run row, the statements), so a busy run writes many steps in one instead of one step in each.
 */
export const GATHER_MS = 8;

/**
 * A transaction takes whole groups up to about this many events (one group, however large, always goes): a batch
 * past this saves little (~2 ms a transaction over ~60 ms of rows) and would hold the write lock and the event loop
 * longer, and keep a busy run's first events from the bus longer.
 */
export const MAX_BATCH_EVENTS = 2_000;

/** Takes whole groups from the front of what is pending, up to MAX_BATCH_EVENTS events. */
function takeBatch(run: RunWriteState): ExplorationEvent[] {
  const batch: ExplorationEvent[] = [];
  let groups = 0;
  for (const group of run.pending) {
    if (groups > 0 && batch.length + group.length > MAX_BATCH_EVENTS) break;
    batch.push(...group);
    groups++;
  }
  run.pending.splice(0, groups);
  run.pendingEvents -= batch.length;
  return batch;
}

/** Drops what is pending, unwritten (a detached or stopped run). */
export function dropPending(run: RunWriteState): void {
  run.pending.length = 0;
  run.pendingEvents = 0;
}

export interface RunWriterDeps {
  runLog: RunLog;
  /** Cluster mode: each transaction first checks this instance still holds the run's lease. */
  fence?: CommitOptions['fence'];
  fenceError?: CommitOptions['fenceError'];
  /** Cluster mode: whether a failed write means the log is another instance's now (the run is detached, not failed). */
  lostTheLog?: (error: unknown) => boolean;
}

/** Queues a group the engine committed and starts the write loop if none is running. */
export function enqueueWrite(deps: RunWriterDeps, run: RunWriteState, group: readonly ExplorationEvent[]): void {
  if (run.detached) return; // dropped: its log is no longer this instance's to write
  if (run.pending.length === 0) run.pendingSince = performance.now();
  run.pending.push([...group]);
  run.pendingEvents += group.length;
  // a full batch is waiting: gathering more would only leave the writer idle while the events pile up
  if (run.pendingEvents >= MAX_BATCH_EVENTS) run.wake?.();
  if (!run.writing) run.writing = writeLoop(deps, run);
}

/** Settles when everything queued so far is written (or the loop stopped on an error, kept in writeError). */
export async function drainWrites(run: RunWriteState): Promise<void> {
  while (run.writing) await run.writing;
}

/**
 * Waits before a transaction so that it holds more than one group when the run is busy: always one turn of the
 * event loop (the engine finishes its synchronous group and any that follow at once), then, when the last transaction
 * committed within BUSY_WITHIN_MS, until the oldest pending group is GATHER_MS old or a full batch (MAX_BATCH_EVENTS)
 * is waiting, whichever comes first.
 */
async function gather(run: RunWriteState): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (performance.now() - run.lastWriteEnd > BUSY_WITHIN_MS) return;
  const wait = run.pendingSince + GATHER_MS - performance.now();
  if (wait <= 0 || run.detached || run.pendingEvents >= MAX_BATCH_EVENTS) return;
  await new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      run.wake = null;
      resolve();
    };
    const timer = setTimeout(wake, wait);
    run.wake = wake;
  });
}

/** Writes what is pending, batch after batch, in order; publishes each batch once it is committed. */
async function writeLoop(deps: RunWriterDeps, run: RunWriteState): Promise<void> {
  try {
    await gather(run);
    while (run.pending.length > 0 && !run.detached) {
      const batch = takeBatch(run);
      const nodes = foldTouched(run.tree, batch);
      const { ended } = await deps.runLog.commit(run.id, run.tree, batch, nodes, {
        fence: deps.fence,
        fenceError: deps.fenceError,
      });
      if (ended) run.endedByLog = true;
      run.lastWriteEnd = performance.now();
      // what is left came while this transaction ran: the run is busy (a full batch left over goes at once)
      if (run.pending.length > 0 && run.pendingEvents < MAX_BATCH_EVENTS) await gather(run);
    }
  } catch (error) {
    run.writeError = error instanceof Error ? error : new Error(String(error));
    if (deps.lostTheLog?.(error)) {
      run.detached = true;
      dropPending(run);
    }
    run.abort.abort(run.writeError);
  } finally {
    run.writing = null;
  }
}
