/**
 * The recorded runs that bench:ui, bench:playback and the big-run browser tests open: a search of about N events
 * run by the engine in this process with the offline simulated model (no latency), written as an Arborist export
 * file (lib/formats/export.ts) and stored through the import path: POSTed to /api/runs/import when the file fits the
 * route's size limit, else handed to the same importRun the route calls, on the server's own database file (a
 * 100k-event run's file is ~180 MB, over the 50 MB an upload may weigh). Either way the server stores and projects
 * it exactly as an imported file. Not responsible for measuring anything (lib/bench) or for the server (server.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import { fold } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { buildExport, type RunExport } from '../formats/index';
import { createPrismaClient, importRun, MAX_IMPORT_BYTES } from '../server/index';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import type { BenchServer } from './server';

export const BENCH_GOAL = 'Reduce the p99 latency of the checkout API';
/**
 * The search the recorded runs use: deep, never stopping early, best-first (it grows about two nodes per step).
 * Depth 16: at depth 12 this search runs out of frontier at 8,190 nodes (~87k events), short of 100k.
 */
export const BENCH_CONFIG = {
  maxDepth: 16,
  terminationConfidence: 1,
  confidenceThreshold: 0,
  explorationStrategy: 'best-first',
} as const satisfies Partial<ToTConfig>;
/** Events per executed node of that search with the simulated model (measured: 11.6 at 9,700 nodes, more in small runs). */
const EVENTS_PER_EXECUTED_NODE = 11.9;
const SEED = 11;

/**
 * A recorded run as stored on a server: its id there, its size and how it got in. Not the log itself (that stays in
 * this process; lib/tasks/testing's RecordedLog is a log kept in memory for unit tests).
 */
export interface StoredRun {
  id: string;
  events: number;
  /** Nodes in the final tree and the header's "explored / total" of the finished run. */
  nodes: number;
  explored: number;
  /** The header's "total" (tree.stats.totalNodes): the page shows it once the final tree is in. */
  total: number;
  /** The export file's size in bytes (its JSON). */
  bytes: number;
  via: 'POST /api/runs/import' | 'importRun on the database file';
  buildMs: number;
  importMs: number;
}

/** One search of `maxTotalNodes` executed nodes; its log. */
async function search(maxTotalNodes: number): Promise<ExplorationEvent[]> {
  const events: ExplorationEvent[] = [];
  const executor = new ThoughtTreeExecutor({ ...BENCH_CONFIG, maxTotalNodes });
  await executor.explore({ name: 'arborist', model: createSimulatedModel({ seed: SEED, latencyMs: 0 }) }, BENCH_GOAL, {
    task: getTaskEntry('open-goal').task,
    runId: randomUUID(),
    onEvent: (event) => events.push(event),
  });
  return events;
}

/**
 * A finished search of about `targetEvents` events: a first guess at the node cap from the usual events per node,
 * then, when that lands more than 10% off (the ratio drifts with the tree's size), once more with the cap scaled.
 */
export async function searchEvents(targetEvents: number): Promise<{ events: ExplorationEvent[]; config: ToTConfig }> {
  let nodes = Math.max(10, Math.round(targetEvents / EVENTS_PER_EXECUTED_NODE));
  let events = await search(nodes);
  if (Math.abs(events.length - targetEvents) / targetEvents > 0.1) {
    nodes = Math.max(10, Math.round((nodes * targetEvents) / events.length));
    events = await search(nodes);
  }
  const started = events[0];
  if (started?.type !== 'run.started') throw new Error('the engine wrote no run.started');
  return { events, config: started.payload.config };
}

/** A search's events as the Arborist export file of a finished run of BENCH_GOAL (what recordRun stores). */
export function exportFile(events: ExplorationEvent[], config: ToTConfig): RunExport {
  const first = events[0] as ExplorationEvent;
  const last = events.at(-1) as ExplorationEvent;
  return buildExport(
    {
      id: first.runId,
      taskId: 'open-goal',
      goal: BENCH_GOAL,
      modelId: 'simulated',
      modelLabel: 'simulated',
      modelSettings: { provider: 'simulated', seed: SEED, latencyMs: 0 },
      config,
      seed: SEED,
      status: 'finished',
      finishReason: last.type === 'run.finished' ? last.payload.reason : null,
      createdAt: new Date(first.ts),
      startedAt: new Date(first.ts),
      finishedAt: new Date(last.ts),
      importTag: null,
      parentRunId: null,
      parentNodeId: null,
    },
    events,
  );
}

/** Builds a finished run of about `targetEvents` events and stores it on the bench server; `label` tags it. */
export async function recordRun(
  server: Pick<BenchServer, 'base' | 'databaseFile'>,
  targetEvents: number,
  label: string,
): Promise<StoredRun> {
  const t0 = performance.now();
  const { events, config } = await searchEvents(targetEvents);
  const file = exportFile(events, config);
  const text = JSON.stringify(file);
  const bytes = Buffer.byteLength(text);
  const tree = fold(events);
  const buildMs = performance.now() - t0;
  const tag = `bench:ui ${label}`;
  const t1 = performance.now();
  let id: string;
  let via: StoredRun['via'];
  if (bytes <= MAX_IMPORT_BYTES) {
    via = 'POST /api/runs/import';
    const res = await fetch(`${server.base}/api/runs/import?tag=${encodeURIComponent(tag)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-arborist-actor': 'bench' },
      body: text,
    });
    const body = (await res.json()) as { runs?: { id: string }[]; error?: string };
    const run = body.runs?.[0];
    if (!res.ok || !run) throw new Error(`import failed (${res.status}): ${body.error ?? JSON.stringify(body)}`);
    id = run.id;
  } else {
    via = 'importRun on the database file';
    const prisma = createPrismaClient(server.databaseFile);
    try {
      id = (await importRun(prisma, file, { importTag: tag })).id;
    } finally {
      await prisma.$disconnect();
    }
  }
  return {
    id,
    events: events.length,
    nodes: Object.keys(tree.nodes).length,
    explored: tree.stats.exploredNodes,
    total: tree.stats.totalNodes,
    bytes,
    via,
    buildMs,
    importMs: performance.now() - t1,
  };
}
