import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmptyTree } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createPrismaClient, createRun, foldTouched, summarizeTree } from '../server/index';
import { appendEventsInTransaction } from '../server/repositories/events';
import { upsertNodes } from '../server/repositories/nodes';
import { writeRunPatch as updateRun } from '../server/repositories/runs';
import { InstantModel } from './instant-model';
import { benchRunInput, freshDatabase } from './server-store';
import type { ExplorationEvent } from '../contract/events';

async function main() {
  const groups: ExplorationEvent[][] = [];
  await new ThoughtTreeExecutor({ maxTotalNodes: 3000, maxDepth: 50, confidenceThreshold: 0 }).explore(
    { name: 'b', model: new InstantModel() }, 'g', { runId: 'r', onCommit: (g) => groups.push([...g]) });
  const types = new Map<string, number>();
  for (const e of groups.flat()) types.set(e.type, (types.get(e.type) ?? 0) + 1);
  console.log(groups.length, types, 'bytes/event', groups.flat().reduce((s, e) => s + JSON.stringify(e.payload).length, 0) / groups.flat().length);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'x-'));
  const prisma = createPrismaClient(freshDatabase(dir, 'a'));
  await createRun(prisma, benchRunInput('r'));
  const tree = createEmptyTree('r');
  const t = { fold: 0, summary: 0, tx: 0, append: 0, nodes: 0, run: 0 };
  const N = 40;
  const flat = groups.flat(); const big: ExplorationEvent[][] = []; for (let i = 0; i < flat.length; i += 1000) big.push(flat.slice(i, i + 1000));
  for (const g of big) {
    let s = performance.now();
    const nodes = foldTouched(tree, g);
    t.fold += performance.now() - s; s = performance.now();
    const sum = summarizeTree(tree);
    t.summary += performance.now() - s; s = performance.now();
    const s0 = s;
    await prisma.$transaction(async (tx) => {
      let a = performance.now();
      await appendEventsInTransaction(tx, 'r', g);
      t.append += performance.now() - a; a = performance.now();
      if (nodes.length) await upsertNodes(tx, 'r', nodes);
      t.nodes += performance.now() - a; a = performance.now();
      await updateRun(tx, 'r', sum);
      t.run += performance.now() - a;
    });
    t.tx += performance.now() - s0;
  }
  for (const [k, v] of Object.entries(t)) console.log(k, (v / N).toFixed(3), 'ms/1000 events');
  const s = performance.now();
  for (let i = 0; i < 500; i++) await prisma.$transaction(async () => {});
  console.log('empty interactive tx', ((performance.now() - s) / 500).toFixed(3));
  const s2 = performance.now();
  for (let i = 0; i < 500; i++) await prisma.$executeRaw`SELECT 1`;
  console.log('SELECT 1', ((performance.now() - s2) / 500).toFixed(3));
}
void main();
