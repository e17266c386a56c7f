/**
 * Test support (lib/server/testing/): a migrated SQLite file under the OS temp folder with a real Prisma client on it, and sample rows.
 * Not for production code; not a mock (every test talks to real SQLite through real Prisma).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExplorationEvent } from '../../contract/events';
import { DEFAULT_TOT_CONFIG, newNode, type ThoughtNode } from '../../engine/index';
import type { CreateRunInput } from '../repositories/runs';
import { type PrismaClient, createPrismaClient } from '../db/client';
import { migrate } from '../db/migrate';

export interface TestDb {
  prisma: PrismaClient;
  file: string;
  /** Disconnects and deletes the folder. */
  cleanup(): Promise<void>;
}

export function tempDir(prefix = 'arborist-db-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function createTestDb(): Promise<TestDb> {
  const dir = tempDir();
  const file = path.join(dir, 'test.db');
  migrate(file);
  const prisma = createPrismaClient(file);
  return {
    prisma,
    file,
    async cleanup() {
      await prisma.$disconnect();
      rmSync(dir, { recursive: true, force: true });
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
