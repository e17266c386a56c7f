/**
 * Test support (lib/server/testing/): a fresh migrated database with a real Prisma client on it, on either backend (a
 * SQLite file under the OS temp folder, or a new database on the test run's PostgreSQL cluster, postgres-setup.ts),
 * and sample rows. `BACKENDS` is what a test runs `describe.each` over to hold on both.
 * Not for production code; not a mock (every test talks to a real database through real Prisma).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExplorationEvent } from '../../contract/events';
import { DEFAULT_TOT_CONFIG, newNode, type ThoughtNode } from '../../engine/index';
import type { CreateRunInput } from '../run-log/run-rows';
import { type PrismaClient, createPrismaClient } from '../db/client';
import { migrate } from '../db/migrate';
import type { DatabaseKind } from '../db/backend';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { Client } from 'pg';
import { Prisma } from '../../generated/prisma/client';
import { TEMPLATE_DATABASE } from './postgres-setup';

/** Both backends, for `describe.each(BACKENDS)('... (%s)', (backend) => ...)`. */
export const BACKENDS: readonly DatabaseKind[] = ['sqlite', 'postgresql'];

export interface TestDb {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** The SQLite file, or the PostgreSQL database's URL: what createPrismaClient takes. */
  file: string;
  /** Disconnects and deletes the folder (SQLite) or drops the database (PostgreSQL). */
  cleanup(): Promise<void>;
}

export function tempDir(prefix = 'arborist-db-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A new database on the test cluster, a copy of the migrated template (or of `template0`: empty, never migrated);
 * returns its URL and how to drop it.
 */
export async function createPostgresDatabase(
  template: string = TEMPLATE_DATABASE,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = inject('postgres');
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `${server}/${name}`,
    async drop() {
      const client = new Client({ connectionString: `${server}/postgres` });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function createTestDb(kind: DatabaseKind = 'sqlite'): Promise<TestDb> {
  if (kind === 'postgresql') {
    const database = await createPostgresDatabase();
    const prisma = createPrismaClient(database.url);
    return {
      prisma,
      kind,
      file: database.url,
      async cleanup() {
        await prisma.$disconnect();
        await database.drop();
      },
    };
  }
  const dir = tempDir();
  const file = path.join(dir, 'test.db');
  migrate(file);
  const prisma = createPrismaClient(file);
  return {
    prisma,
    kind,
    file,
    async cleanup() {
      await prisma.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every model's table: all of them are emptied between the tests that share a database. */
const MODEL_TABLES = Object.values(Prisma.ModelName);

/**
 * Deletes every row of every model's table. Every foreign key cascades and the search indexes follow their triggers,
 * so the order does not matter. DELETE rather than TRUNCATE: on a few rows it is the faster of the two on PostgreSQL.
 */
export async function emptyDatabase(prisma: PrismaClient): Promise<void> {
  for (const table of MODEL_TABLES) await prisma.$executeRawUnsafe(`DELETE FROM "${table}"`);
}

/**
 * One database for the tests of a describe block, emptied before each test: a fresh PostgreSQL database costs ~100 ms
 * and a fresh SQLite file a migration, where emptying takes a few milliseconds. Call it in the block's body; the
 * returned object always points at the block's database (`t.prisma` in a test). Tests that need a database of their
 * own (an old schema, a migration) use createTestDb.
 */
export function sharedTestDb(kind: DatabaseKind = 'sqlite'): Omit<TestDb, 'cleanup'> {
  let current: TestDb | null = null;
  const open = () => {
    if (!current) throw new Error('sharedTestDb: used outside a test of its describe block');
    return current;
  };
  beforeAll(async () => {
    current = await createTestDb(kind);
  });
  afterAll(async () => {
    await current?.cleanup();
    current = null;
  });
  beforeEach(async () => {
    await emptyDatabase(open().prisma);
  });
  return {
    kind,
    get prisma() {
      return open().prisma;
    },
    get file() {
      return open().file;
    },
  };
}

/** A run's creation input with everything filled in. */
export function sampleRunInput(id: string, overrides: Partial<CreateRunInput> = {}): CreateRunInput {
  return {
    id,
    taskId: 'game24',
    goal: 'Use 4 9 10 13 to make 24',
    modelId: 'simulated',
    modelLabel: 'simulated',
    config: { ...DEFAULT_TOT_CONFIG },
    seed: 7,
    ...overrides,
  };
}

/** `count` events of a run from seq `fromSeq`, of a few realistic kinds and sizes. */
export function sampleEvents(runId: string, fromSeq: number, count: number): ExplorationEvent[] {
  return Array.from({ length: count }, (_, i): ExplorationEvent => {
    const seq = fromSeq + i;
    const ts = 1_750_000_000_000 + seq;
    if (seq % 3 === 0) {
      return { runId, seq, ts, type: 'node.queued', payload: { nodeId: `n${seq}`, mode: 'execute', urgent: false } };
    }
    if (seq % 3 === 1) {
      return { runId, seq, ts, type: 'node.failed', payload: { nodeId: `n${seq}`, reason: `reason "${seq}" ✗` } };
    }
    return { runId, seq, ts, type: 'backtrack', payload: { fromId: `n${seq}`, toId: null, reason: 'dead end' } };
  });
}

/** A tree node as the engine makes it: the root unless overridden. */
export function sampleNode(id: string, overrides: Partial<ThoughtNode> = {}): ThoughtNode {
  return newNode({
    id,
    parentId: null,
    depth: 0,
    branch: null,
    score: null,
    cumulativeScore: 0,
    status: 'pending',
    createdSeq: 1,
    ...overrides,
  });
}
