/**
 * `npm run bench:write` (and part of `npm run bench:server`, through benchWritePath): how fast the run manager's real
 * write path stores a live run, printed, never asserted. In one process, into fresh migrated database files:
 *   1. the groups an InstantModel search commits (onCommit), recorded once, pushed into the manager's write path
 *      (lib/server/run-log/live-writer.ts: enqueueWrite, the same fold, node projection, run summary, transaction and bus) as
 *      fast as the engine gives them (a turn of the event loop between groups), then drained;
 *   2. bare better-sqlite3 writing the same rows: the events, the node rows each chunk changed and one run row update
 *      per chunk, prepared statements, a transaction per 500 events (bench:store's ceiling, with the projection);
 *   3. append only: appendEvents in batches of 500 beside bare event inserts of the same events (what bench:store
 *      prints, on this run's events);
 *   4. a quiet run: the same groups one every ~50 ms, the time from a group's commit until the bus published it.
 * Rows are counted back from each file by a separate connection. Not a test; not responsible for the engine's figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { ExplorationEvent } from '../contract/events';
import { createEmptyTree, type ThoughtTree } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import {
  appendEvents,
  createPrismaClient,
  createRun,
  createWriteState,
  drainWrites,
  enqueueWrite,
  EventBus,
  foldTouched,
  nodeRow,
  RunLog,
  silentLogger,
  summarizeTree,
} from '../server/bench';
import { reportFigures } from './figures';
import { InstantModel } from './instant-model';
import { percentile } from './percentile';
import { BENCH_RUN, benchRaw, benchRunInput, freshDatabase, openDirect, rowsPerSec } from './server-store';

export interface WritePathBenchResult {
  nodes: number;
  groups: number;
  events: number;
  writePathRowsPerSec: number;
  rawRowsPerSec: number;
  /** write path / raw, in %. */
  writePathPercent: number;
  appendRowsPerSec: number;
  rawAppendRowsPerSec: number;
  /** appendEvents / raw event inserts, in %. */
  appendPercent: number;
  /** The run's end after its last event is published (snapshot of the tree, streams closed), median ms. */
  endMs: number;
  /** Groups (engine steps) per transaction under load. */
  stepsPerBatch: { median: number; max: number; batches: number };
  /** Quiet run: ms from a group's commit to its publication. */
  quiet: { groups: number; p50: number; p95: number; max: number };
}

const RAW_CHUNK = 500;
const QUIET_GAP_MS = 50;
const ROUNDS = 5;

/** The groups an InstantModel beam search of `nodes` nodes commits, in order. */
async function recordGroups(runId: string, nodes: number): Promise<ExplorationEvent[][]> {
  const groups: ExplorationEvent[][] = [];
  await new ThoughtTreeExecutor({ maxTotalNodes: nodes, maxDepth: 50, confidenceThreshold: 0 }).explore(
    { name: 'bench', model: new InstantModel() },
    'benchmark goal',
    { runId, onCommit: (group) => groups.push([...group]) },
  );
  return groups;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Pushes the groups into the real write path (to the last event published; the run's end after it is `endMs`); `gapMs` 0 gives one turn of the event loop between groups (the
 * engine's pace with a model that answers at once), else a timer. Returns the time taken, how many groups each
 * published batch held, and each group's commit-to-publish latency.
 */
async function driveWriter(file: string, runId: string, groups: readonly ExplorationEvent[][], gapMs: number) {
  const prisma = createPrismaClient(file);
  try {
    await createRun(prisma, benchRunInput(runId));
    const bus = new EventBus();
    const runLog = new RunLog({ prisma, bus, log: silentLogger });
    const state = createWriteState(runId, createEmptyTree(runId));
    const committedAt = new Map<number, number>(); // a group's last seq -> when the engine committed it
    const latencies: number[] = [];
    const stepsPerBatch: number[] = [];
    let lastPublished = NaN;
    bus.subscribe(runId, (message) => {
      if (message.kind !== 'events') return;
      const now = performance.now();
      lastPublished = now;
      let steps = 0;
      for (const event of message.events) {
        const at = committedAt.get(event.seq);
        if (at === undefined) continue;
        steps++;
        latencies.push(now - at);
      }
      stepsPerBatch.push(steps);
    });
    const start = performance.now();
    for (const group of groups) {
      committedAt.set(group.at(-1)!.seq, performance.now());
      enqueueWrite({ runLog }, state, group);
      await (gapMs > 0 ? sleep(gapMs) : nextTurn());
    }
    await drainWrites(state);
    if (state.writeError) throw state.writeError;
    // the write path's time runs until the last event is published; what follows is the end of the run (its
    // snapshot, the streams closed), timed on its own: the raw ceiling stores no snapshot
    return { ms: lastPublished - start, endMs: performance.now() - lastPublished, stepsPerBatch, latencies };
  } finally {
    await prisma.$disconnect();
  }
}

/** What the raw ceiling writes per chunk of events: the node rows the chunk changed and the run row's summary. */
interface RawChunk {
  events: ExplorationEvent[];
  nodes: (string | number | null)[][];
  summary: ReturnType<typeof summarizeTree>;
}

function rawChunks(runId: string, events: readonly ExplorationEvent[]): RawChunk[] {
  const tree: ThoughtTree = createEmptyTree(runId);
  const chunks: RawChunk[] = [];
  for (let i = 0; i < events.length; i += RAW_CHUNK) {
    const chunk = events.slice(i, i + RAW_CHUNK);
    // better-sqlite3 binds no booleans: the verdict as SQLite keeps it, 0 or 1
    const nodes = foldTouched(tree, chunk).map((n) =>
      [runId, ...nodeRow(n)].map((value) => (typeof value === 'boolean' ? Number(value) : value)),
    );
    chunks.push({ events: chunk, nodes, summary: { ...summarizeTree(tree), stats: { ...tree.stats } } });
  }
  return chunks;
}

/** The ceiling: bare better-sqlite3, prepared statements, the events + node rows + one run update per transaction. */
function rawWritePath(file: string, chunks: readonly RawChunk[]): number {
  const db = openDirect(file);
  const insertEvent = db.prepare(
    'INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES (?, ?, ?, ?, ?)',
  );
  const upsertNode = db.prepare(`INSERT INTO "Node" ("runId", "nodeId", "parentId", "depth", "status", "thought",
      "composite", "cumulativeScore", "verified", "createdSeq") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT ("runId", "nodeId") DO UPDATE SET "parentId" = excluded."parentId", "depth" = excluded."depth",
      "status" = excluded."status", "thought" = excluded."thought", "composite" = excluded."composite",
      "cumulativeScore" = excluded."cumulativeScore", "verified" = excluded."verified",
      "createdSeq" = excluded."createdSeq"`);
  const updateRun = db.prepare(`UPDATE "Run" SET "lastSeq" = ?, "status" = ?, "stats" = ?, "exploredNodes" = ?,
      "totalNodes" = ?, "cost" = ?, "unpricedCalls" = ?, "bestScore" = ?, "updatedAt" = ? WHERE "id" = ?`);
  const write = db.transaction((chunk: RawChunk) => {
    for (const e of chunk.events) insertEvent.run(e.runId, e.seq, e.type, JSON.stringify(e.payload), e.ts);
    for (const row of chunk.nodes) upsertNode.run(row);
    const s = chunk.summary;
    updateRun.run(
      chunk.events.at(-1)!.seq,
      s.status,
      JSON.stringify(s.stats),
      s.exploredNodes,
      s.totalNodes,
      s.cost,
      s.unpricedCalls,
      s.bestScore ?? null,
      Date.now(),
      BENCH_RUN,
    );
  });
  const start = performance.now();
  for (const chunk of chunks) write(chunk);
  const ms = performance.now() - start;
  db.close();
  return ms;
}

/** appendEvents alone, batches of 500 (bench:store's figure, on this run's events). */
async function appendOnly(file: string, events: readonly ExplorationEvent[]): Promise<number> {
  const prisma = createPrismaClient(file);
  try {
    await createRun(prisma, benchRunInput(BENCH_RUN));
    const start = performance.now();
    for (let i = 0; i < events.length; i += RAW_CHUNK)
      await appendEvents(prisma, BENCH_RUN, events.slice(i, i + RAW_CHUNK));
    return performance.now() - start;
  } finally {
    await prisma.$disconnect();
  }
}

/** Rows really stored, counted by a connection of its own. */
function countRows(file: string): { events: number; nodes: number; lastSeq: number } {
  const db = new Database(file, { readonly: true });
  try {
    const events = (db.prepare('SELECT count(*) AS n FROM "Event" WHERE "runId" = ?').get(BENCH_RUN) as { n: number })
      .n;
    const nodes = (db.prepare('SELECT count(*) AS n FROM "Node" WHERE "runId" = ?').get(BENCH_RUN) as { n: number }).n;
    const run = db.prepare('SELECT "lastSeq" FROM "Run" WHERE "id" = ?').get(BENCH_RUN) as { lastSeq: number };
    return { events, nodes, lastSeq: run.lastSeq };
  } finally {
    db.close();
  }
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
}

export async function benchWritePath({
  nodes = 3_000,
  quietGroups = 100,
  log = console.log,
}: { nodes?: number; quietGroups?: number; log?: (line: string) => void } = {}): Promise<WritePathBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-bench-write-'));
  try {
    const groups = await recordGroups(BENCH_RUN, nodes);
    const events = groups.flat();
    // a round of every path first, not counted: Prisma's query compiler, the adapter and the JIT reach their steady
    // state (measured: the write path's first rounds ran at 2/3 of its later ones, the raw inserts' did not)
    await driveWriter(freshDatabase(dir, 'warm-write'), BENCH_RUN, groups, 0);
    rawWritePath(freshDatabase(dir, 'warm-raw'), rawChunks(BENCH_RUN, events));
    await appendOnly(freshDatabase(dir, 'warm-append'), events);

    // the machine is shared: each path runs ROUNDS times, alternating, and the medians are compared
    const chunks = rawChunks(BENCH_RUN, events);
    const loadedRuns: Awaited<ReturnType<typeof driveWriter>>[] = [];
    const rawRuns: number[] = [];
    const appendRuns: number[] = [];
    const rawAppendRuns: number[] = [];
    let writeFile = '';
    let rawFile = '';
    let appendFile = '';
    for (let round = 0; round < ROUNDS; round++) {
      writeFile = freshDatabase(dir, `write-path-${round}`);
      loadedRuns.push(await driveWriter(writeFile, BENCH_RUN, groups, 0));
      rawFile = freshDatabase(dir, `raw-${round}`);
      rawRuns.push(rawWritePath(rawFile, chunks));
      appendFile = freshDatabase(dir, `append-${round}`);
      appendRuns.push(await appendOnly(appendFile, events));
      rawAppendRuns.push(benchRaw(freshDatabase(dir, `raw-append-${round}`), events, RAW_CHUNK));
    }
    // ratios are taken within each round (the same load on both sides), then their median
    const loaded = [...loadedRuns].sort((a, b) => a.ms - b.ms)[Math.floor(ROUNDS / 2)]!;
    const rawMs = median(rawRuns);
    const appendMs = median(appendRuns);
    const rawAppendMs = median(rawAppendRuns);
    const roundPercents = loadedRuns.map((run, i) => (rawRuns[i]! / run.ms) * 100);
    const writePathPercent = median(roundPercents);
    const appendPercent = median(appendRuns.map((ms, i) => (rawAppendRuns[i]! / ms) * 100));

    // the figures are rows really stored: count them back, and the two paths must hold the same node rows
    const stored = countRows(writeFile);
    const rawStored = countRows(rawFile);
    const appended = countRows(appendFile);
    if (stored.events !== events.length || stored.lastSeq !== events.length || appended.events !== events.length)
      throw new Error(`rows missing: ${JSON.stringify({ stored, appended, expected: events.length })}`);
    if (rawStored.events !== events.length || rawStored.nodes !== stored.nodes)
      throw new Error(`the raw ceiling wrote other rows: ${JSON.stringify({ stored, rawStored })}`);

    const quietFile = freshDatabase(dir, 'quiet');
    const quiet = await driveWriter(quietFile, BENCH_RUN, groups.slice(0, quietGroups), QUIET_GAP_MS);
    const quietSorted = [...quiet.latencies].sort((a, b) => a - b);

    const result: WritePathBenchResult = {
      nodes,
      groups: groups.length,
      events: events.length,
      writePathRowsPerSec: rowsPerSec(events.length, loaded.ms),
      rawRowsPerSec: rowsPerSec(events.length, rawMs),
      writePathPercent,
      appendRowsPerSec: rowsPerSec(events.length, appendMs),
      rawAppendRowsPerSec: rowsPerSec(events.length, rawAppendMs),
      appendPercent,
      endMs: median(loadedRuns.map((run) => run.endMs)),
      stepsPerBatch: {
        median: median(loaded.stepsPerBatch),
        max: Math.max(...loaded.stepsPerBatch),
        batches: loaded.stepsPerBatch.length,
      },
      quiet: {
        groups: quietSorted.length,
        p50: percentile(quietSorted, 50),
        p95: percentile(quietSorted, 95),
        max: quietSorted.at(-1) ?? NaN,
      },
    };
    const fmt = (n: number) => n.toLocaleString('en-US').padStart(9);
    const pct = (n: number) => `${n.toFixed(0).padStart(8)} %`;
    log(
      `write path, an InstantModel search of ${nodes.toLocaleString('en-US')} nodes: ${result.groups} groups, ` +
        `${result.events.toLocaleString('en-US')} events, ${stored.nodes} node rows (counted back from the files), ${ROUNDS} alternating rounds (rates: medians; ratios: the median of each round's):\n` +
        `  run manager's write path (live-writer.ts) ${fmt(result.writePathRowsPerSec)} events/s\n` +
        `  better-sqlite3: events + nodes + run row   ${fmt(result.rawRowsPerSec)} events/s\n` +
        `  write path / raw                           ${pct(result.writePathPercent)}` +
        ` (rounds: ${roundPercents.map((p) => p.toFixed(0)).join(', ')})\n` +
        `  then the run's end (snapshot, streams)     ${result.endMs.toFixed(1).padStart(9)} ms (not in the rate above)\n` +
        `  steps per transaction (median, max)        ${String(result.stepsPerBatch.median).padStart(9)}, ` +
        `${result.stepsPerBatch.max} (${result.stepsPerBatch.batches} transactions)\n` +
        `  appendEvents alone, batches of ${RAW_CHUNK}         ${fmt(result.appendRowsPerSec)} events/s\n` +
        `  better-sqlite3 event inserts alone         ${fmt(result.rawAppendRowsPerSec)} events/s\n` +
        `  append only / raw                          ${pct(result.appendPercent)}\n` +
        `  quiet run (a group every ${QUIET_GAP_MS} ms, ${result.quiet.groups} groups): commit -> published ` +
        `p50 ${result.quiet.p50.toFixed(1)} ms, p95 ${result.quiet.p95.toFixed(1)} ms, max ${result.quiet.max.toFixed(1)} ms`,
    );
    reportFigures('server', [
      {
        name: 'write path / raw better-sqlite3',
        value: Math.round(result.writePathPercent),
        unit: '%',
        goal: { op: '>=', value: 50 },
        note: `${result.writePathRowsPerSec.toLocaleString('en-US')} vs ${result.rawRowsPerSec.toLocaleString('en-US')} events/s`,
      },
      {
        name: 'append only / raw',
        value: Math.round(result.appendPercent),
        unit: '%',
        note: `appendEvents, batches of ${RAW_CHUNK}`,
      },
      {
        name: 'quiet run: commit -> published, p95',
        value: Math.round(result.quiet.p95 * 10) / 10,
        unit: 'ms',
        goal: { op: '<=', value: 16 },
        note: `a group every ${QUIET_GAP_MS} ms`,
      },
    ]);
    return result;
  } finally {
    // BENCH_WRITE_KEEP=1 keeps the files, to count their rows from outside (sqlite3 <file> 'SELECT count(*) ...')
    if (process.env.BENCH_WRITE_KEEP === '1') log(`  database files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void benchWritePath();
