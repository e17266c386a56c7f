/**
 * The health report behind GET /api/health, for a load balancer and an operator: is the database answering (and how
 * fast), how many runs wait to be claimed in the whole cluster, how many execute on this instance, and is it
 * draining. 200 when it can take work, 503 when the database does not answer or the instance is shutting down.
 * No secrets: a database error's text has any connection URL's password taken out.
 * Not responsible for the HTTP response (app/api/health/route.ts) nor for the counts' meaning (run-log/leases.ts).
 */
import { type DatabaseKind, redactUrl } from '../db/backend';
import { databaseKindOf, type PrismaClient } from '../db/client';
import { queuedRunCount } from '../run-log/index';

export interface HealthReport {
  ok: boolean;
  backend: DatabaseKind;
  instance: string;
  database: { reachable: boolean; latencyMs: number; error?: string };
  queue: { depth: number };
  runs: { executingHere: number };
  shuttingDown: boolean;
}

export interface HealthSource {
  prisma: PrismaClient;
  manager: { instanceId: string; shuttingDown: boolean; executingHere: number };
}

/** A database that does not answer within this is reported unreachable (a load balancer must not wait longer). */
const PING_TIMEOUT_MS = 2_000;

/** Any connection URL in an error's text, without its password. */
function withoutSecrets(text: string): string {
  return text.replace(/postgres(ql)?:\/\/[^\s"'`]+/gi, (url) => redactUrl(url)).slice(0, 500);
}

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => {
    setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms).unref();
  });
}

export async function checkHealth(source: HealthSource): Promise<HealthReport> {
  const { prisma, manager } = source;
  const started = performance.now();
  const backend = databaseKindOf(prisma);
  const instance = manager.instanceId;
  const runs = { executingHere: manager.executingHere };
  const shuttingDown = manager.shuttingDown;
  try {
    const depth = await Promise.race([
      (async () => {
        await prisma.$queryRaw`SELECT 1`;
        return queuedRunCount(prisma);
      })(),
      timeout(PING_TIMEOUT_MS),
    ]);
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    return {
      ok: !shuttingDown,
      backend,
      instance,
      database: { reachable: true, latencyMs },
      queue: { depth },
      runs,
      shuttingDown,
    };
  } catch (error) {
    const latencyMs = Math.round((performance.now() - started) * 10) / 10;
    const text = error instanceof Error ? error.message : String(error);
    const database = { reachable: false, latencyMs, error: withoutSecrets(text) };
    return { ok: false, backend, instance, database, queue: { depth: 0 }, runs, shuttingDown };
  }
}
