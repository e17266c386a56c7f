/**
 * Test support: the server's services on a fresh migrated database (a temporary SQLite file by default, or a new
 * database on the test run's PostgreSQL cluster), with a manager whose settings the test chooses. Used by the server's
 * tests only.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { DatabaseKind } from '../db/backend';
import { isPostgresUrl } from '../db/backend';
import { createPrismaClient } from '../db/client';
import { migrate } from '../db/migrate';
import { EventBus } from '../run-log/index';
import { type ServerServices, type WireOptions, wireServices } from '../services';
import { createPostgresDatabase, tempDir } from './db';

export interface TestServices extends ServerServices {
  /** The SQLite file, or the PostgreSQL database's URL. */
  file: string;
  /** A second manager on the same database, as a restarted server would have. */
  restart(options?: Partial<WireOptions>): TestServices;
  close(): Promise<void>;
}

/**
 * Services on `database`: a SQLite file (migrated here; a new temporary one when none is given) or the URL of a
 * PostgreSQL database that is migrated already (createPostgresDatabase's copies of the template are). Whoever made a
 * PostgreSQL database drops it: see createTestServicesOn.
 */
export function createTestServices(options: Partial<WireOptions> = {}, database?: string): TestServices {
  const dir = database ? null : tempDir('arborist-test-');
  const location = database ?? join(dir as string, 'test.db');
  if (!isPostgresUrl(location)) migrate(location);
  const prisma = createPrismaClient(location);
  const bus = new EventBus();
  const services = wireServices({
    prisma,
    bus,
    maxConcurrentRuns: 2,
    resumeMode: 'manual',
    log: () => {},
    ...options,
  });
  const { manager, ingest, experiments, traces } = services;
  return {
    ...services,
    file: location,
    restart: (more) => createTestServices({ ...options, ...more }, location),
    async close() {
      ingest.stopSweeper();
      traces.stop();
      experiments.stop();
      await experiments.settled();
      await manager.stopAll();
      await prisma.$disconnect();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Services on a fresh database of either backend; closing them drops a PostgreSQL database too. */
export async function createTestServicesOn(
  kind: DatabaseKind,
  options: Partial<WireOptions> = {},
): Promise<TestServices> {
  if (kind === 'sqlite') return createTestServices(options);
  const database = await createPostgresDatabase();
  const services = createTestServices(options, database.url);
  return {
    ...services,
    async close() {
      await services.close();
      await database.drop();
    },
  };
}

/**
 * Services a test file makes and vitest closes after each test: call once at the top of the file. `create` makes
 * fresh services on SQLite; `open` on either backend; `track` hands over others to close (a restarted server's).
 * They are closed newest first, so a restarted server stops before the database its first server made is dropped.
 */
export function servicesPerTest(): {
  create: (options?: Partial<WireOptions>) => TestServices;
  open: (kind: DatabaseKind, options?: Partial<WireOptions>) => Promise<TestServices>;
  track: (services: TestServices) => TestServices;
} {
  let open: TestServices[] = [];
  afterEach(async () => {
    for (const services of open.reverse()) await services.close();
    open = [];
  });
  const track = (services: TestServices) => {
    open.push(services);
    return services;
  };
  return {
    create: (options = {}) => track(createTestServices(options)),
    open: async (kind, options = {}) => track(await createTestServicesOn(kind, options)),
    track,
  };
}

/** A finished Game of 24 run of the offline model (seed 3, no latency) on `services`: a small real log to read. */
export async function settledGame24Run(services: TestServices): Promise<string> {
  const run = await services.manager.create({
    taskId: 'game24',
    goal: '4 9 10 13',
    model: { provider: 'simulated', seed: 3, latencyMs: 0 },
  });
  await services.manager.settled(run.id);
  return run.id;
}
