/**
 * `npm run bench:history`: how long the server takes to write a run's history (the run page's history.ndjson: the light
 * log, one HistoryLine per line, a page of HISTORY_CHUNK rows at a time) and its latest tree (snapshot.json), printed,
 * never asserted. For each size of BENCH_HISTORY_SIZES (default 1k,10k,100k events), a finished run of about that many
 * events is built by the engine (lib/harness searchEvents, the simulated model) and imported into a fresh migrated
 * SQLite file and, unless BENCH_HISTORY_POSTGRES=0, a database on a throwaway PostgreSQL cluster (fsync off: read it
 * as the server's own work, not a durable disk's). Then the whole history is read 5 times, as the route reads it, and
 * the median printed with its size in MB and per 1,000 events (the ratio 100k / 1k: it must not grow with the run).
 * Beside it, the page's reader of those bytes (lib/store NdjsonEvents, here in Node) in 64 KB pieces, as a browser's
 * fetch hands them over: the time to decode and parse them into events.
 * Not a test; not responsible for what the browser does with the history after (bench:ui, bench:seek).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportFile, freePort, type PostgresCluster, searchEvents, startPostgres } from '../harness/index';
import { createPrismaClient, historyText, importRun, latestTreeText, migrate, migratePostgres } from '../server/bench';
import { type BenchFigure, reportFigures } from './figures';
import { NdjsonEvents } from '../store/index';
import { median } from './percentile';
import { parseSizes, type RunSize } from './ui-figures';

const READS = 5;
/** The size of the pieces a browser's fetch reader hands over (Chromium's, as seen: 64 KB). */
const PIECE = 65_536;
const SIZES = parseSizes(process.env.BENCH_HISTORY_SIZES ?? '1k,10k,100k');
const WITH_POSTGRES = process.env.BENCH_HISTORY_POSTGRES !== '0';

interface Measured {
  events: number;
  historyMs: number;
  /** The page's reader on the same bytes. */
  parseMs: number;
  historyMb: number;
  snapshotMs: number;
  snapshotMb: number;
}

type Database = 'sqlite' | 'postgresql';

async function measure(location: string, file: Parameters<typeof importRun>[1]): Promise<Measured> {
  const prisma = createPrismaClient(location);
  try {
    const { id } = await importRun(prisma, file, { importTag: 'bench:history' });
    const run = await prisma.run.findUniqueOrThrow({ where: { id }, select: { lastSeq: true } });
    const historyMs: number[] = [];
    const snapshotMs: number[] = [];
    let snapshotBytes = 0;
    let chunks: Uint8Array[] = [];
    for (let i = 0; i < READS; i++) {
      let t = performance.now();
      chunks = [];
      for await (const chunk of historyText(prisma, id, { afterSeq: 0, untilSeq: run.lastSeq })) chunks.push(chunk);
      historyMs.push(performance.now() - t);
      t = performance.now();
      const latest = await latestTreeText(prisma, id);
      snapshotMs.push(performance.now() - t);
      snapshotBytes = Buffer.byteLength(latest?.tree ?? '');
    }
    const bytes = Buffer.concat(chunks);
    return {
      events: run.lastSeq,
      historyMs: median(historyMs),
      parseMs: median(Array.from({ length: READS }, () => readAsThePageDoes(id, bytes, run.lastSeq))),
      historyMb: bytes.byteLength / 1e6,
      snapshotMs: median(snapshotMs),
      snapshotMb: snapshotBytes / 1e6,
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** The page's reader over the history's bytes in fetch-sized pieces: ms to have every event. */
function readAsThePageDoes(runId: string, bytes: Uint8Array, events: number): number {
  const t = performance.now();
  const reader = new NdjsonEvents(runId);
  const text = new TextDecoder();
  let read = 0;
  for (let at = 0; at < bytes.byteLength; at += PIECE) {
    read += reader.push(text.decode(bytes.subarray(at, at + PIECE), { stream: true })).length;
  }
  if (read !== events) throw new Error(`the reader gave ${read} of ${events} events`);
  return performance.now() - t;
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-bench-history-'));
  const cluster: PostgresCluster | null = WITH_POSTGRES ? startPostgres(await freePort()) : null;
  const results = new Map<Database, Map<RunSize, Measured>>([['sqlite', new Map()]]);
  if (cluster) results.set('postgresql', new Map());
  try {
    for (const size of SIZES) {
      const { events, config } = await searchEvents(size.events);
      const file = exportFile(events, config);
      const sqliteFile = path.join(dir, `${size.label}.db`);
      migrate(sqliteFile);
      results.get('sqlite')?.set(size, await measure(sqliteFile, file));
      if (cluster) {
        const url = await cluster.createDatabase(`history_${size.label}`);
        await migratePostgres(url);
        results.get('postgresql')?.set(size, await measure(url, file));
      }
      console.log(`${size.label}: ${events.length} events measured`);
    }
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const figures: BenchFigure[] = [];
  console.log(
    `\nthe run page's reads: the server's, and the page's reader on the history (medians of ${READS}; ms, MB)`,
  );
  console.log(
    'database\tsize\tevents\thistory ms\thistory MB\tms / 1k events\tsnapshot ms\tsnapshot MB\tread by the page ms',
  );
  for (const [database, bySize] of results) {
    const perThousand = [...bySize.values()].map((m) => (m.historyMs / m.events) * 1000);
    for (const [size, m] of bySize) {
      const per = (m.historyMs / m.events) * 1000;
      console.log(
        [database, size.label, m.events, m.historyMs.toFixed(0), m.historyMb.toFixed(1), per.toFixed(2)]
          .concat([m.snapshotMs.toFixed(0), m.snapshotMb.toFixed(1), m.parseMs.toFixed(0)])
          .join('\t'),
      );
      figures.push({ name: `history, ${database}, ${size.label} events`, value: Math.round(m.historyMs), unit: 'ms' });
    }
    const first = perThousand[0];
    const last = perThousand.at(-1);
    if (first && last && perThousand.length > 1) {
      console.log(`${database}: ms per 1k events, largest / smallest: ${(last / first).toFixed(2)}x`);
    }
  }
  reportFigures('history', figures);
}

void main();
