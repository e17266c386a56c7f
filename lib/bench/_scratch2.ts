import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Prisma } from '../generated/prisma/client';
import { createPrismaClient, createRun, getRun } from '../server/index';
import { benchRunInput, freshDatabase } from './server-store';
async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'x-'));
  const file = freshDatabase(dir, 'a');
  const prisma = createPrismaClient(file);
  await createRun(prisma, benchRunInput('r'));
  console.log(file);
  const d = new Date('2026-01-02T03:04:05.678Z');
  await prisma.$executeRaw(Prisma.sql`UPDATE "Run" SET "finishedAt" = ${d}, "success" = ${true}, "bestScore" = ${null} WHERE "id" = 'r'`);
  const r = await getRun(prisma, 'r');
  console.log(r?.finishedAt, r?.success, r?.updatedAt);
}
void main();
