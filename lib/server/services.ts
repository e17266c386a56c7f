/**
 * The server's services, made once per process (kept on globalThis: Next may load this module more than once)
 * and ready before the first request: the database migrated, runs an unfinished import left staged deleted (the
 * process that wrote them died mid-import), interrupted runs recovered, the sweeper of silent external runs started, the demo run seeded into an empty database. instrumentation.ts calls getServices() when the server starts.
 * Not responsible for what the services do (run-manager.ts, repositories).
 */
import { getPrisma } from './db/client';
import { isTeamMode, readEnv } from './env';
import { prepareTeamMode } from './auth/setup';
import { EventBus } from './event-bus';
import { RunManager } from './run-manager';
import { seedDemoRun } from './demo';
import { sweepStagedImports } from './imports';
import { configureSandbox } from '../tasks/index';
import type { ServerServices } from './trpc/context';

const globalForServices = globalThis as typeof globalThis & { arboristServices?: Promise<ServerServices> };

async function createServices(): Promise<ServerServices> {
  const env = readEnv();
  configureSandbox({ concurrency: env.ARBORIST_VERIFY_CONCURRENCY });
  const prisma = await getPrisma();
  const bus = new EventBus();
  const manager = new RunManager({
    prisma,
    bus,
    maxConcurrentRuns: env.ARBORIST_MAX_CONCURRENT_RUNS,
    resumeMode: env.ARBORIST_RESUME,
    ingestTimeoutMs: env.ARBORIST_INGEST_TIMEOUT_MS,
    ingestHeartbeatMs: env.ARBORIST_INGEST_HEARTBEAT_MS,
  });
  // before anything reads or writes runs: no import of this process is running yet, so every staged run is a leftover
  const swept = await sweepStagedImports(prisma);
  if (swept > 0) console.log(`[arborist] deleted ${swept} run(s) an interrupted import had staged`);
  if (isTeamMode(env)) await prepareTeamMode(prisma, env, (message) => console.log(`[arborist] ${message}`));
  await manager.recover();
  // external runs whose client fell silent (this start's clock: one left running by the last server gets its timeout)
  manager.ingest.startSweeper();
  if (env.ARBORIST_DEMO === '1') await seedDemoRun({ prisma, bus, manager });
  return { prisma, bus, manager };
}

export function getServices(): Promise<ServerServices> {
  globalForServices.arboristServices ??= createServices().catch((error: unknown) => {
    globalForServices.arboristServices = undefined; // let the next request try again
    throw error;
  });
  return globalForServices.arboristServices;
}
