/**
 * Test support: instances of a cluster in one process, on one PostgreSQL database of the test run's cluster. Each
 * instance is what `npm start` makes on PostgreSQL: its own Prisma client (its own connections), its own bus, its own
 * Cluster (queue runner, LISTEN connection, heartbeat, sweeper) and RunManager, under its own instance id; short
 * leases make failover take about a second. The log lines each instance writes are kept for the test to read.
 * Not for production code (services.ts builds the real one).
 */
import { afterEach } from 'vitest';
import { createPrismaClient } from '../db/client';
import { EventBus } from '../run-log/event-bus';
import { Cluster } from '../cluster/index';
import { createLogger } from '../core/logger';
import { type ServerServices, wireServices } from '../services';
import { createPostgresDatabase } from './db';

export interface TestInstance extends ServerServices {
  id: string;
  cluster: Cluster;
  /** The JSON log lines this instance wrote, parsed. */
  logs: Record<string, unknown>[];
}

export interface InstanceSettings {
  leaseMs?: number;
  heartbeatMs?: number;
  concurrency?: number;
  commandTimeoutMs?: number;
}

/** A database for a cluster test, and a way to start instances on it; everything is closed after the test. */
export function clusterPerTest(): { database(): Promise<TestClusterDatabase> } {
  let open: TestClusterDatabase[] = [];
  afterEach(async () => {
    await Promise.all(open.map((db) => db.close()));
    open = [];
  });
  return {
    async database() {
      const db = await createClusterDatabase();
      open.push(db);
      return db;
    },
  };
}

export interface TestClusterDatabase {
  url: string;
  /** An instance joined to the cluster (its start-up sweep done, taking jobs). */
  start(id: string, settings?: InstanceSettings): Promise<TestInstance>;
  close(): Promise<void>;
}

async function createClusterDatabase(): Promise<TestClusterDatabase> {
  const database = await createPostgresDatabase();
  const instances: TestInstance[] = [];
  return {
    url: database.url,
    async start(id, settings = {}) {
      const prisma = createPrismaClient(database.url);
      const bus = new EventBus({ carriesEvents: false });
      const logs: Record<string, unknown>[] = [];
      const log = createLogger({
        format: 'json',
        level: 'debug',
        instance: id,
        write: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
      });
      const leaseMs = settings.leaseMs ?? 1_000;
      const cluster = new Cluster({
        prisma,
        connectionString: database.url,
        instanceId: id,
        leaseMs,
        heartbeatMs: settings.heartbeatMs ?? 300,
        concurrency: settings.concurrency ?? 2,
        bus,
        log,
        resumeMode: 'auto',
        sweepIntervalMs: Math.max(100, Math.floor(leaseMs / 4)),
        pollIntervalMs: 500,
        ...(settings.commandTimeoutMs !== undefined && { commandTimeoutMs: settings.commandTimeoutMs }),
      });
      const services = wireServices({
        prisma,
        bus,
        maxConcurrentRuns: settings.concurrency ?? 2,
        resumeMode: 'auto',
        log,
        cluster,
      });
      const { manager } = services;
      await manager.recover();
      const instance = { ...services, id, cluster, logs };
      instances.push(instance);
      return instance;
    },
    async close() {
      for (const instance of instances) {
        instance.experiments.stop();
        await instance.manager.crash().catch(() => undefined);
        await instance.prisma.$disconnect();
      }
      await database.drop();
    },
  };
}
