/**
 * The server's services, made once per process (kept on globalThis: Next may load this module more than once)
 * and ready before the first request: the database migrated, interrupted runs recovered, the demo run seeded
 * into an empty database. instrumentation.ts calls getServices() when the server starts.
 * Not responsible for what the services do (run-manager.ts, repositories).
 */
import { getPrisma } from './db/client';
import { isTeamMode, readEnv } from './env';
import { prepareTeamMode } from './auth/setup';
import { EventBus } from './event-bus';
import { RunManager } from './run-manager';
import { seedDemoRun } from './demo';
import type { ServerServices } from './trpc/context';

const globalForServices = globalThis as typeof globalThis & { arboristServices?: Promise<ServerServices> };

async function createServices(): Promise<ServerServices> {
  const env = readEnv();
  const prisma = getPrisma();
  const bus = new EventBus();
  const manager = new RunManager({
    prisma,
    bus,
    maxConcurrentRuns: env.ARBORIST_MAX_CONCURRENT_RUNS,
    resumeMode: env.ARBORIST_RESUME,
  });
  if (isTeamMode(env)) await prepareTeamMode(prisma, env, (message) => console.log(`[arborist] ${message}`));
  await manager.recover();
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
