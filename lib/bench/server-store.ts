/**
 * `npm run bench:store` (and part of `npm run bench:server`): how fast the event log takes rows, printed, never
 * asserted. In one process on one machine, the same pre-built events (~200-byte JSON payloads) go
 *   1. through appendEvents (Prisma raw multi-row INSERT in an interactive transaction), in batches of 500 as the
 *      run manager writes them;
 *   2. through bare better-sqlite3: one prepared single-row INSERT, a transaction per 500 rows (the ceiling);
 *   3. through the same append logic as 1 (compare-and-set on lastSeq, multi-row INSERT) on a direct better-sqlite3
 *      connection: the alternative appendEvents did not take, measured so the choice stays honest;
 * each into its own fresh, migrated database file with the same pragmas (WAL, synchronous=NORMAL). Then the rows are
 * read back with listEvents. Not a test; not responsible for the engine's own figures (lib/bench/engine.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { ExplorationEvent } from '../contract/events';
import { DEFAULT_TOT_CONFIG } from '../engine/index';
import { appendEvents, createPrismaClient, createRun, type CreateRunInput, listEvents, migrate } from '../server/bench';

export interface EventStoreBenchResult {
  rows: number;
  batch: number;
  /** Mean payload size in bytes. */
  payloadBytes: number;
  appendEventsRowsPerSec: number;
  rawRowsPerSec: number;
  directAppendRowsPerSec: number;
  /** appendEvents / raw. */
  ratio: number;
  listEventsRowsPerSec: number;
}

/** The run id every store bench writes (its raw ceiling inserts this run's row itself). */
export const BENCH_RUN = 'bench-run';
const ANSWER_TAIL = 'so this is a final answer to the goal.';
const TRACE_TAIL = 'and uses 4 9 10 13 exactly once each, as the goal asks';
const BACKTRACK_TAIL = 'fell below the confidence threshold of 0.3; trying the best deferred alternative';
/** The pragmas the app's connection sets (lib/server/db/client.ts), for the bare better-sqlite3 connections. */
export const PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';

/** The run a store bench appends into (bench:store, bench:postgres). */
export function benchRunInput(id: string): CreateRunInput {
  return {
    id,
    taskId: 'game24',
    goal: 'bench',
    modelId: 'simulated',
    modelLabel: 'simulated',
    config: { ...DEFAULT_TOT_CONFIG },
  };
}

/** Events shaped like a real run's (scores with reasoning, model calls, node moves), ~200 bytes of JSON each. */
export function benchEvents(runId: string, count: number): ExplorationEvent[] {
  const t0 = 1_750_000_000_000;
  return Array.from({ length: count }, (_, i): ExplorationEvent => {
    const seq = i + 1;
    const ts = t0 + seq * 3;
    const nodeId = `n${Math.floor(seq / 4)}`;
    switch (seq % 4) {
      case 0:
        return {
          runId,
          seq,
          ts,
          type: 'candidate.dropped',
          payload: {
            nodeId,
            index: seq % 3,
            branch: {
              thought: `13 - 9 = 4 (left: 4 4 ${seq % 97})`,
              proposedAction: { type: 'response', content: '4' },
            },
            score: {
              confidence: 0.21,
              progress: 0.1,
              novelty: 0.4,
              composite: 0.22,
              reasoning: 'uses 13 twice; the remaining numbers cannot reach 24',
              fallback: false,
            },
            reason: 'composite 0.22 is below the confidence threshold 0.3',
          },
        };
      case 1:
        return {
          runId,
          seq,
          ts,
          type: 'node.completed',
          payload: {
            nodeId,
            result: {
              response: `(10 - 4) * (13 - 9) = 24, step ${seq}: every number used exactly once, ${ANSWER_TAIL}`,
              iterations: 1,
              isAnswer: seq % 5 === 0,
            },
          },
        };
      case 2:
        return {
          runId,
          seq,
          ts,
          type: 'node.verified',
          payload: {
            nodeId,
            passed: seq % 3 !== 0,
            trace: `checked ${seq % 97} against 24: (10 - 4) * (13 - 9) evaluates to 24 ${TRACE_TAIL}`,
          },
        };
      default:
        return {
          runId,
          seq,
          ts,
          type: 'backtrack',
          payload: {
            fromId: nodeId,
            toId: `n${Math.floor(seq / 8)}`,
            reason: `every candidate of the expansion of ${nodeId} ${BACKTRACK_TAIL}`,
          },
        };
    }
  });
}

/** A fresh database file in `dir`, migrated as the app migrates its own. */
export function freshDatabase(dir: string, name: string): string {
  const file = path.join(dir, `${name}.db`);
  migrate(file);
  return file;
}

/** A bare better-sqlite3 connection to `file` with the app's pragmas, holding the bench run's row. */
export function openDirect(file: string): Database.Database {
  const db = new Database(file, { timeout: 5_000 });
  db.exec(PRAGMAS);
  db.prepare(
    `INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status")
     VALUES (?, ?, 'game24', 'bench', 'simulated', 'simulated', '{}', 'running')`,
  ).run(BENCH_RUN, Date.now());
  return db;
}

export function rowsPerSec(rows: number, ms: number): number {
  return Math.round((rows / ms) * 1000);
}

/** The ceiling: one prepared single-row INSERT, a transaction per batch. */
export function benchRaw(file: string, events: ExplorationEvent[], batch: number): number {
  const db = openDirect(file);
  const insert = db.prepare('INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES (?, ?, ?, ?, ?)');
  const writeBatch = db.transaction((chunk: ExplorationEvent[]) => {
    for (const e of chunk) insert.run(e.runId, e.seq, e.type, JSON.stringify(e.payload), e.ts);
  });
  const start = performance.now();
  for (let i = 0; i < events.length; i += batch) writeBatch(events.slice(i, i + batch));
  const ms = performance.now() - start;
  db.close();
  return ms;
}

/** appendEvents' logic on a direct better-sqlite3 connection (the path not taken). */
function benchDirectAppend(file: string, events: ExplorationEvent[], batch: number): number {
  const db = openDirect(file);
  const advance = db.prepare('UPDATE "Run" SET "lastSeq" = ? WHERE "id" = ? AND "lastSeq" = ?');
  const inserts = new Map<number, Database.Statement>();
  const insertFor = (rows: number) => {
    let statement = inserts.get(rows);
    if (!statement) {
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
      statement = db.prepare(`INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES ${values}`);
      inserts.set(rows, statement);
    }
    return statement;
  };
  const append = db.transaction((chunk: ExplorationEvent[]) => {
    const first = chunk[0]!.seq;
    if (advance.run(first + chunk.length - 1, BENCH_RUN, first - 1).changes !== 1) throw new Error('seq conflict');
    insertFor(chunk.length).run(chunk.flatMap((e) => [e.runId, e.seq, e.type, JSON.stringify(e.payload), e.ts]));
  });
  const start = performance.now();
  for (let i = 0; i < events.length; i += batch) append.immediate(events.slice(i, i + batch));
  const ms = performance.now() - start;
  db.close();
  return ms;
}

export async function benchEventStore({
  rows,
  batch = 500,
  log = console.log,
}: {
  rows: number;
  batch?: number;
  log?: (line: string) => void;
}): Promise<EventStoreBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-bench-'));
  try {
    const events = benchEvents(BENCH_RUN, rows);
    const payloadBytes = Math.round(
      events.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e.payload)), 0) / Math.max(rows, 1),
    );

    const rawMs = benchRaw(freshDatabase(dir, 'raw'), events, batch);
    const directMs = benchDirectAppend(freshDatabase(dir, 'direct'), events, batch);

    const prisma = createPrismaClient(freshDatabase(dir, 'prisma'));
    try {
      await createRun(prisma, benchRunInput('warm-up'));
      // Warm up Prisma's wasm query compiler and the adapter so the timing below is the steady state.
      await appendEvents(prisma, 'warm-up', benchEvents('warm-up', 2_000).slice(0, 1_000));
      await listEvents(prisma, 'warm-up');
      await createRun(prisma, benchRunInput(BENCH_RUN));

      let start = performance.now();
      for (let i = 0; i < events.length; i += batch) await appendEvents(prisma, BENCH_RUN, events.slice(i, i + batch));
      const appendMs = performance.now() - start;

      start = performance.now();
      const read = await listEvents(prisma, BENCH_RUN);
      const readMs = performance.now() - start;
      if (read.length !== rows || read[rows - 1]?.seq !== rows)
        throw new Error('listEvents did not read back every row');

      const result: EventStoreBenchResult = {
        rows,
        batch,
        payloadBytes,
        appendEventsRowsPerSec: rowsPerSec(rows, appendMs),
        rawRowsPerSec: rowsPerSec(rows, rawMs),
        directAppendRowsPerSec: rowsPerSec(rows, directMs),
        ratio: rawMs / appendMs,
        listEventsRowsPerSec: rowsPerSec(rows, readMs),
      };
      const fmt = (n: number) => n.toLocaleString('en-US').padStart(9);
      log(
        `event store, ${rows.toLocaleString('en-US')} rows, batches of ${batch}, payload ~${payloadBytes} B:\n` +
          `  appendEvents (Prisma raw, interactive tx) ${fmt(result.appendEventsRowsPerSec)} rows/s\n` +
          `  better-sqlite3 prepared, tx per batch     ${fmt(result.rawRowsPerSec)} rows/s\n` +
          `  same append logic, direct better-sqlite3  ${fmt(result.directAppendRowsPerSec)} rows/s\n` +
          `  appendEvents / raw                        ${(result.ratio * 100).toFixed(0).padStart(8)} %\n` +
          `  listEvents (read back, one call)          ${fmt(result.listEventsRowsPerSec)} rows/s`,
      );
      return result;
    } finally {
      await prisma.$disconnect();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  for (const rows of [50_000, 200_000]) await benchEventStore({ rows });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
