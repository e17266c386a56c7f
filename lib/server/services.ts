/**
 * The server's services, made once per process (kept on globalThis: Next may load this module more than once)
 * and ready before the first request: the database migrated, leftovers swept (runs an import that died left staged,
 * prompt texts no run names; again on a timer, on every instance), interrupted runs recovered, the sweeper of silent
 * external runs started, the demo run seeded into an empty database. instrumentation.ts calls getServices() when the
 * server starts.
 * On PostgreSQL the process is one instance of a cluster (lib/server/cluster): its runs are jobs claimed under a
 * lease, and its event streams hear other instances' batches through LISTEN/NOTIFY. shutdownServices() is the
 * graceful shutdown instrumentation.ts runs on SIGTERM/SIGINT.
 * Not responsible for what the services do (run-manager.ts, repositories).
 */
import { getPrisma, type PrismaClient } from './db/client';
import { resolveDatabase } from './db/backend';
import { clusterTimings, isTeamMode, loadPriceTable, readEnv } from './core/env';
import { Cluster, defaultInstanceId } from './cluster/index';
import { createLogger, type Logger, loggerFromFunction } from './core/logger';
import { prepareTeamMode } from './auth/setup';
import { EventBus, type LeftoverSweeper, RunLog, startLeftoverSweeps } from './run-log/index';
import { MAX_IMPORT_MS } from './imports/import-jobs';
import { RunManager, type RunManagerOptions } from './runs/run-manager';
import { IngestRuns } from './ingest/service';
import { ExperimentService } from './experiments/index';
import { TraceReceiver } from './otel/index';
import { priceCall } from '../engine/index';
import { seedDemoRun } from './runs/demo';
import { DEFAULT_LABELS } from '../contract/discussion';
import { configureSandbox } from '../tasks/index';

/** The server's services, one set per process: what every route, router and producer of runs is handed. */
export interface ServerServices {
  prisma: PrismaClient;
  /** Announces committed batches to this process's streams (the log room's; `runLog.bus`). */
  bus: EventBus;
  /** The one writer of every run's log. */
  runLog: RunLog;
  /** Engine runs: started, queued, steered and resumed here. */
  manager: RunManager;
  /** External runs (the ingest API): a program elsewhere runs the search and streams it in. */
  ingest: IngestRuns;
  /** Experiments: datasets x configurations, every cell a run of the manager's. */
  experiments: ExperimentService;
  /** OpenTelemetry traces in: every trace an external run, written through `ingest`. */
  traces: TraceReceiver;
  /** The labels people may put on nodes (ARBORIST_LABELS), in the order of their keys. */
  labels: readonly string[];
}

/** What wires one set of services (the process's, or a test's on its own database). */
export interface WireOptions extends Omit<RunManagerOptions, 'runLog'> {
  bus: EventBus;
  /** External runs: the silence after which one is interrupted, and the heartbeat asked for. */
  ingestTimeoutMs?: number;
  ingestHeartbeatMs?: number;
  /** Cells of one experiment queued or running at once; default twice maxConcurrentRuns. */
  experimentCellsInFlight?: number;
  /** Traces: a run ends this long after its root span, when nothing more came; a span waits this long for its parent. */
  otelIdleMs?: number;
  otelWaitMs?: number;
  /** The label set (ARBORIST_LABELS); default DEFAULT_LABELS. */
  labels?: readonly string[];
}

/**
 * The producers of runs around their one log writer: the run manager (engine runs) and the ingest service (external
 * runs) each get the RunLog and neither knows the other.
 */
export function wireServices(options: WireOptions): ServerServices {
  const {
    bus,
    ingestTimeoutMs,
    ingestHeartbeatMs,
    experimentCellsInFlight,
    otelIdleMs,
    otelWaitMs,
    labels,
    ...managerOptions
  } = options;
  const log: Logger =
    options.log === undefined
      ? loggerFromFunction((message) => console.log(`[arborist] ${message}`))
      : typeof options.log === 'function'
        ? loggerFromFunction(options.log)
        : options.log;
  const runLog = new RunLog({ prisma: options.prisma, bus, log });
  const manager = new RunManager({ ...managerOptions, runLog, log });
  const ingest = new IngestRuns({
    prisma: options.prisma,
    runLog,
    timeoutMs: ingestTimeoutMs ?? 30_000,
    heartbeatMs: ingestHeartbeatMs ?? 5_000,
    log: (message) => log.info(message),
  });
  const experiments = new ExperimentService({
    prisma: options.prisma,
    manager,
    runLog,
    log,
    cellsInFlight: experimentCellsInFlight ?? 2 * options.maxConcurrentRuns,
  });
  const prices = loadPriceTable(readEnv());
  const traces = new TraceReceiver({
    writer: ingest,
    idleMs: otelIdleMs ?? 5_000,
    waitMs: otelWaitMs ?? 6_000,
    maxWaitingPerTrace: 10_000,
    maxPending: 200_000,
    abandonMs: ingestTimeoutMs ?? 30_000,
    price: (modelId, usage) => priceCall(modelId, usage, prices),
    log: (message) => log.warn(message),
  });
  return {
    prisma: options.prisma,
    bus,
    runLog,
    manager,
    ingest,
    experiments,
    traces,
    labels: labels ?? DEFAULT_LABELS,
  };
}

const globalForServices = globalThis as typeof globalThis & {
  arboristServices?: Promise<ServerServices>;
  arboristShutdown?: Promise<void>;
  arboristLog?: Logger;
  arboristLeftovers?: LeftoverSweeper;
};

/** The advisory lock that makes one instance of a cluster seed the demo run. */
const DEMO_SEED_LOCK = 0x4172_6465; // "Arde"

async function createServices(): Promise<ServerServices> {
  const env = readEnv();
  configureSandbox({ concurrency: env.ARBORIST_VERIFY_CONCURRENCY });
  const database = resolveDatabase();
  const clustered = database.kind === 'postgresql';
  const instanceId = env.ARBORIST_INSTANCE_ID ?? defaultInstanceId();
  const log = createLogger({ format: env.ARBORIST_LOG_FORMAT ?? (clustered ? 'json' : 'text'), instance: instanceId });
  globalForServices.arboristLog = log;
  const prisma = await getPrisma();
  // a cluster's streams read the table when PostgreSQL announces a batch: the bus carries signals, not events
  const bus = new EventBus({ carriesEvents: !clustered });
  const cluster = clustered
    ? new Cluster({
        prisma,
        connectionString: database.location,
        instanceId,
        ...clusterTimings(env),
        concurrency: env.ARBORIST_MAX_CONCURRENT_RUNS,
        bus,
        log,
        resumeMode: env.ARBORIST_RESUME,
      })
    : undefined;
  const services = wireServices({
    prisma,
    bus,
    maxConcurrentRuns: env.ARBORIST_MAX_CONCURRENT_RUNS,
    resumeMode: env.ARBORIST_RESUME,
    ingestTimeoutMs: env.ARBORIST_INGEST_TIMEOUT_MS,
    ingestHeartbeatMs: env.ARBORIST_INGEST_HEARTBEAT_MS,
    otelIdleMs: env.ARBORIST_OTEL_IDLE_MS,
    otelWaitMs: env.ARBORIST_OTEL_WAIT_MS,
    labels: env.ARBORIST_LABELS,
    ...(env.ARBORIST_EXPERIMENT_CELLS_IN_FLIGHT && {
      experimentCellsInFlight: env.ARBORIST_EXPERIMENT_CELLS_IN_FLIGHT,
    }),
    log,
    instanceId,
    ...(cluster && { cluster }),
  });
  const { manager, ingest } = services;
  log.info(`starting on ${database.display}${clustered ? ' as a cluster instance' : ''}`);
  // leftovers swept before anything reads or writes runs, then on a timer (stopped by shutdownServices): staged runs
  // older than the longest an import may take, and at this start on SQLite every staged run (no import of this, the
  // only, process is running yet; in a cluster a younger one may be another instance's live import), and prompt texts
  // no run names
  void globalForServices.arboristLeftovers?.stop();
  const leftovers = startLeftoverSweeps({ prisma, maxImportMs: MAX_IMPORT_MS, soleProcess: !clustered, log });
  globalForServices.arboristLeftovers = leftovers;
  await leftovers.first;
  if (isTeamMode(env)) await prepareTeamMode(prisma, env, (message) => log.info(message));
  await manager.recover();
  // external runs whose client fell silent (this start's clock: one left running by the last server gets its timeout)
  ingest.startSweeper();
  services.traces.start();
  // running experiments start the cells they had not started (their interrupted runs resume with the manager)
  services.experiments.start();
  if (env.ARBORIST_DEMO === '1') {
    if (clustered) {
      // instances starting together on an empty database: one seeds, the others (after the lock) see its run
      await prisma.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${DEMO_SEED_LOCK})`;
          await seedDemoRun(services);
        },
        { timeout: 60_000 },
      );
    } else await seedDemoRun(services);
  }
  return services;
}

/**
 * Graceful shutdown (SIGTERM/SIGINT): the instance drains (health 503), takes no new runs, hands its live runs back
 * (a cluster) or stops them unwritten (SQLite: the next start recovers them), closes every stream, and disconnects;
 * bounded by ARBORIST_SHUTDOWN_MS. Settles when done or out of time; the caller exits.
 */
export function shutdownServices(): Promise<void> {
  globalForServices.arboristShutdown ??= (async () => {
    const services = globalForServices.arboristServices;
    if (!services) return;
    const log = globalForServices.arboristLog;
    const limitMs = readEnv().ARBORIST_SHUTDOWN_MS;
    const work = (async () => {
      const { manager, ingest, experiments, traces, prisma } = await services;
      const leftovers = globalForServices.arboristLeftovers?.stop();
      ingest.stopSweeper();
      await traces.flush().catch((error: unknown) => log?.warn(`traces: flush failed: ${(error as Error).message}`));
      experiments.stop();
      const { handedBack, stopped } = await manager.shutdown();
      await leftovers;
      log?.info('graceful shutdown done', { handedBack, stopped });
      await prisma.$disconnect();
    })();
    const outOfTime = new Promise<void>((resolve) =>
      setTimeout(() => {
        log?.warn(`graceful shutdown did not finish within ${limitMs} ms: exiting anyway`);
        resolve();
      }, limitMs).unref(),
    );
    await Promise.race([work.catch((error: unknown) => log?.error('graceful shutdown failed', { error })), outOfTime]);
  })();
  return globalForServices.arboristShutdown;
}

export function getServices(): Promise<ServerServices> {
  globalForServices.arboristServices ??= createServices().catch((error: unknown) => {
    globalForServices.arboristServices = undefined; // let the next request try again
    throw error;
  });
  return globalForServices.arboristServices;
}
