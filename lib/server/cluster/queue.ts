/**
 * The cluster's job queue: graphile-worker 0.16 on the same PostgreSQL (its own schema, `graphile_worker`, migrated
 * by its runner). A run to execute is a job `arborist_run` with payload `{runId}` and job key `run:<id>` (adding it
 * again while one waits is one job); each instance's runner takes jobs up to ARBORIST_MAX_CONCURRENT_RUNS at once
 * and hands each to `handle`, which claims the run's lease and executes it (cluster.ts). Graphile's own job lock
 * (4 h) is not the liveness signal: the run's lease is, so a job whose run another instance took over is simply
 * found unclaimable and completes doing nothing.
 * Why graphile-worker and not pg-boss: see README.md (LISTEN/NOTIFY pickup instead of polling, job_key dedupe,
 * pg-boss >= 11 needs Node 22).
 * Not responsible for leases, the run's execution or what a job's failure means (cluster.ts, run-manager.ts).
 */
import type { Logger as WorkerLogger, Runner, WorkerUtils } from 'graphile-worker';
import { Pool } from 'pg';
import type { Logger } from '../core/logger';

export const RUN_TASK = 'arborist_run';

/** The job key of a run: one waiting job per run, however often it is queued. */
export function runJobKey(runId: string): string {
  return `run:${runId}`;
}

/** Guards graphile-worker's schema migration: instances starting together would otherwise race to create it. */
const MIGRATION_LOCK = 0x4172626f; // "Arbo"

export interface JobQueueOptions {
  connectionString: string;
  /** Jobs this instance runs at once (ARBORIST_MAX_CONCURRENT_RUNS). */
  concurrency: number;
  log: Logger;
  /** How long an idle runner waits before looking again for jobs it was not told about (ms). */
  pollIntervalMs?: number;
}

/**
 * graphile-worker, loaded when a cluster starts: ~0.4 s of module loading that a single SQLite process (and every
 * test that imports the run manager) never pays.
 */
const worker = () => import('graphile-worker');

/** graphile-worker's log lines through ours: its chatter at debug, its warnings and errors as such. */
async function workerLogger(log: Logger): Promise<WorkerLogger> {
  const { Logger: WorkerLogger } = await worker();
  return new WorkerLogger(() => (level, message) => {
    if (level === 'error') log.error(`job queue: ${message}`);
    else if (level === 'warning') log.warn(`job queue: ${message}`);
    else log.debug(`job queue: ${message}`);
  });
}

export class JobQueue {
  private readonly pool: Pool;
  private utils: WorkerUtils | null = null;
  private runner: Runner | null = null;
  private stopping: Promise<void> | null = null;

  constructor(private readonly options: JobQueueOptions) {
    // its own small pool: the runner's LISTEN connection and job fetches never wait behind Prisma's queries
    this.pool = new Pool({ connectionString: options.connectionString, max: Math.max(4, options.concurrency + 2) });
    this.pool.on('error', (error) => options.log.warn('job queue connection failed', { error }));
  }

  /** Migrates graphile-worker's schema (one instance at a time) and makes the queue able to add jobs. */
  async prepare(): Promise<void> {
    const { makeWorkerUtils, runMigrations } = await worker();
    const logger = await workerLogger(this.options.log);
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      try {
        await runMigrations({ pgPool: this.pool, logger });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      }
    } finally {
      client.release();
    }
    this.utils = await makeWorkerUtils({ pgPool: this.pool, logger });
  }

  /** Starts taking jobs: each run id goes to `handle`, whose settling completes the job. */
  async start(handle: (runId: string) => Promise<void>): Promise<void> {
    const { run } = await worker();
    this.runner = await run({
      pgPool: this.pool,
      concurrency: this.options.concurrency,
      noHandleSignals: true,
      pollInterval: this.options.pollIntervalMs ?? 2_000,
      logger: await workerLogger(this.options.log),
      taskList: {
        [RUN_TASK]: async (payload) => {
          const runId = (payload as { runId?: unknown } | null)?.runId;
          if (typeof runId === 'string') await handle(runId);
        },
      },
    });
  }

  /** Queues a run (a job that waits for it already is kept: the key dedupes; a running one keeps running). */
  async enqueue(runId: string): Promise<void> {
    if (!this.utils) throw new Error('the job queue is not prepared');
    await this.utils.addJob(RUN_TASK, { runId }, { jobKey: runJobKey(runId), jobKeyMode: 'preserve_run_at' });
  }

  /**
   * Stops taking new jobs; settles when the jobs in hand have returned (the caller makes them return: it hands
   * their runs back or detaches them).
   */
  stopTaking(): Promise<void> {
    this.stopping ??= this.runner ? this.runner.stop().catch(() => undefined) : Promise.resolve();
    return this.stopping;
  }

  /** Stops the runner and closes every connection. */
  async close(): Promise<void> {
    await this.stopTaking();
    await Promise.resolve(this.utils?.release()).catch(() => undefined);
    this.utils = null;
    await this.pool.end().catch(() => undefined);
  }
}
