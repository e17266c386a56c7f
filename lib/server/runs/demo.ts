/**
 * The demo run: on the first start (an empty database) one finished Game of 24 search of the offline model is
 * there to look at, with backtracks and a verified answer. It is a real run made by the run manager.
 * Not responsible for anything when the database already holds runs.
 */
import { listRuns } from '../repositories/runs';
import type { PrismaClient } from '../db/client';
import type { RunManager } from './run-manager';

export const DEMO = {
  taskId: 'game24',
  goal: '4 9 10 13',
  /** A seed whose search misjudges, backtracks four times and recovers: a good first look. */
  seed: 3,
} as const;

export async function seedDemoRun({
  prisma,
  manager,
}: {
  prisma: PrismaClient;
  manager: RunManager;
}): Promise<string | null> {
  const existing = await listRuns(prisma, { limit: 1 });
  if (existing.items.length > 0) return null;
  const run = await manager.create({
    taskId: DEMO.taskId,
    goal: DEMO.goal,
    model: { provider: 'simulated', seed: DEMO.seed, latencyMs: 0 },
    actor: 'demo',
  });
  await manager.settled(run.id);
  return run.id;
}
