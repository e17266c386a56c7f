/**
 * Test support: the server's services on a fresh temporary SQLite file, migrated, with a manager whose settings
 * the test chooses. Used by the server's tests only.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createPrismaClient } from '../db/client';
import { migrate } from '../db/migrate';
import { EventBus } from '../event-bus';
import { RunManager, type RunManagerOptions } from '../run-manager';
import type { ServerServices } from '../trpc/context';
import { tempDir } from './db';

export interface TestServices extends ServerServices {
  file: string;
  /** A second manager on the same database, as a restarted server would have. */
  restart(options?: Partial<RunManagerOptions>): TestServices;
  close(): Promise<void>;
}

export function createTestServices(options: Partial<RunManagerOptions> = {}, file?: string): TestServices {
  const dir = file ? null : tempDir('arborist-test-');
  const dbFile = file ?? join(dir as string, 'test.db');
  migrate(dbFile);
  const prisma = createPrismaClient(dbFile);
  const bus = new EventBus();
  const manager = new RunManager({
    prisma,
    bus,
    maxConcurrentRuns: 2,
    resumeMode: 'manual',
    log: () => {},
    ...options,
  });
  return {
    prisma,
    bus,
    manager,
    file: dbFile,
    restart: (more) => createTestServices({ ...options, ...more }, dbFile),
    async close() {
      await manager.stopAll();
      await prisma.$disconnect();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Services a test file makes and vitest closes after each test: call once at the top of the file. `create` makes
 * fresh services; `track` hands over others to close (a restarted server's).
 */
export function servicesPerTest(): {
  create: (options?: Partial<RunManagerOptions>) => TestServices;
  track: (services: TestServices) => TestServices;
} {
  let open: TestServices[] = [];
  afterEach(async () => {
    await Promise.all(open.map((s) => s.close()));
    open = [];
  });
  const track = (services: TestServices) => {
    open.push(services);
    return services;
  };
  return { create: (options = {}) => track(createTestServices(options)), track };
}
