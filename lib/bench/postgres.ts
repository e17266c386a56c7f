/**
 * `npm run bench:postgres`: how fast the event log takes rows on PostgreSQL, printed, never asserted. On a throwaway
 * cluster (lib/harness startPostgres), the same pre-built events as bench:store (~200-byte JSON payloads, the same run
 * id) go, in batches of 50 and of 500, each method into its own fresh migrated database:
 *   1. through appendEvents (Prisma's pg adapter: the compare-and-set on lastSeq, then a multi-row INSERT, in one
 *      transaction), as the run manager writes them;
 *   2. through bare `pg`: one multi-row INSERT per batch in a transaction (the ceiling of the same statement);
 *   3. through bare `pg`: appendEvents' own statements (BEGIN, compare-and-set, multi-row INSERT, COMMIT);
 *   4. through COPY FROM STDIN on bare `pg`, a transaction per batch (no pg-copy-streams: the few lines below drive
 *      pg's copy-in messages themselves, as that package does).
 * Twice: on a cluster with fsync, synchronous_commit and full-page writes off (as the tests' clusters run: every
 * method pays the same, so the ratios are what to read), then on one with PostgreSQL's defaults, durable, as a team's
 * server runs (each commit waits for the disk: the absolute figures a team gets, on this machine's disk). The
 * appendEvents figures are printed side by side at the end. BENCH_POSTGRES_DURABLE=0 skips the durable cluster.
 * Not a test; not responsible for SQLite's figures (lib/bench/server-store.ts, which also makes the events).
 */
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Client, type Connection, type Submittable } from 'pg';
import type { ExplorationEvent } from '../contract/events';
import { freePort, startPostgres, type PostgresCluster } from '../harness/index';
import { appendEvents, createPrismaClient, createRun, migratePostgres } from '../server/bench';
import { benchEvents, benchRunInput } from './server-store';

const BENCH_RUN = 'bench-run';
const TEMPLATE = 'bench_template';

/** A run row for the bare-pg methods (appendEvents' database gets its own through createRun). */
const INSERT_RUN = `INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status")
  VALUES ($1, now(), 'game24', 'bench', 'simulated', 'simulated', '{}', 'running')`;

const row = (e: ExplorationEvent) => [e.runId, e.seq, e.type, JSON.stringify(e.payload), e.ts];

function insertSql(rows: number): string {
  const values = Array.from({ length: rows }, (_, i) => {
    const p = i * 5;
    return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5})`;
  });
  return `INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES ${values.join(', ')}`;
}

/** COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyField = (value: string | number) =>
  String(value).replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c);

/**
 * One COPY ... FROM STDIN with its whole input in memory. pg has no API for it; pg-copy-streams submits a query
 * object that answers the server's copy-in response with the data, and so does this (pg's Submittable interface).
 */
class CopyIn extends EventEmitter implements Submittable {
  private error: Error | null = null;
  constructor(
    private readonly text: string,
    private readonly data: Buffer,
    private readonly done: (error: Error | null) => void,
  ) {
    super();
  }
  submit(connection: Connection): void {
    (connection as unknown as { query(text: string): void }).query(this.text);
  }
  handleCopyInResponse(connection: Connection): void {
    const copy = connection as unknown as { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void };
    copy.sendCopyFromChunk(this.data);
    copy.endCopyFrom();
  }
  handleError(error: Error): void {
    this.error = error;
  }
  handleReadyForQuery(): void {
    this.done(this.error);
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

function copyIn(client: Client, text: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    client.query(new CopyIn(text, data, (error) => (error ? reject(error) : resolve())));
  });
}

type Method = (url: string, events: ExplorationEvent[], batch: number) => Promise<number>;

/** Times `write` over every batch on one bare connection to a database holding the bench run. */
async function onBarePg(
  url: string,
  events: ExplorationEvent[],
  batch: number,
  write: (client: Client, chunk: ExplorationEvent[]) => Promise<void>,
): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(INSERT_RUN, [BENCH_RUN]);
    const start = performance.now();
    for (let i = 0; i < events.length; i += batch) await write(client, events.slice(i, i + batch));
    return performance.now() - start;
  } finally {
    await client.end();
  }
}

const METHODS: Record<string, Method> = {
  'appendEvents (Prisma pg adapter)       ': async (url, events, batch) => {
    const prisma = createPrismaClient(url);
    try {
      // warm the wasm query compiler and the pool so the timing is the steady state
      await createRun(prisma, benchRunInput('warm-up'));
      const warm = benchEvents('warm-up', 1_000);
      for (let i = 0; i < warm.length; i += batch) await appendEvents(prisma, 'warm-up', warm.slice(i, i + batch));
      await createRun(prisma, benchRunInput(BENCH_RUN));
      const start = performance.now();
      for (let i = 0; i < events.length; i += batch) await appendEvents(prisma, BENCH_RUN, events.slice(i, i + batch));
      return performance.now() - start;
    } finally {
      await prisma.$disconnect();
    }
  },
  'pg multi-row INSERT, tx per batch      ': (url, events, batch) =>
    onBarePg(url, events, batch, async (client, chunk) => {
      await client.query('BEGIN');
      await client.query(insertSql(chunk.length), chunk.flatMap(row));
      await client.query('COMMIT');
    }),
  'pg, appendEvents statements (CAS+INSERT)': (url, events, batch) =>
    onBarePg(url, events, batch, async (client, chunk) => {
      const first = chunk[0]!.seq;
      await client.query('BEGIN');
      const advanced = await client.query('UPDATE "Run" SET "lastSeq" = $1 WHERE "id" = $2 AND "lastSeq" = $3', [
        first + chunk.length - 1,
        BENCH_RUN,
        first - 1,
      ]);
      if (advanced.rowCount !== 1) throw new Error('seq conflict');
      await client.query(insertSql(chunk.length), chunk.flatMap(row));
      await client.query('COMMIT');
    }),
  'pg COPY FROM STDIN, tx per batch       ': (url, events, batch) =>
    onBarePg(url, events, batch, async (client, chunk) => {
      const data = Buffer.from(chunk.map((e) => `${row(e).map(copyField).join('\t')}\n`).join(''));
      await client.query('BEGIN');
      await copyIn(client, 'COPY "Event" ("runId", "seq", "type", "payload", "ts") FROM STDIN', data);
      await client.query('COMMIT');
    }),
};

async function countEvents(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "Event" WHERE "runId" = $1', [
      BENCH_RUN,
    ]);
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

export async function benchPostgresAppend({
  cluster,
  rows,
  batch,
  log = console.log,
}: {
  cluster: PostgresCluster;
  rows: number;
  batch: number;
  log?: (line: string) => void;
}): Promise<Record<string, number>> {
  const events = benchEvents(BENCH_RUN, rows);
  const results: Record<string, number> = {};
  let n = 0;
  for (const [name, method] of Object.entries(METHODS)) {
    const url = await cluster.createDatabase(`bench_${batch}_${n++}`, TEMPLATE);
    const ms = await method(url, events, batch);
    const stored = await countEvents(url);
    if (stored !== rows) throw new Error(`${name.trim()} stored ${stored} of ${rows} rows`);
    results[name.trim()] = Math.round((rows / ms) * 1000);
  }
  const base = results['pg multi-row INSERT, tx per batch'] ?? 1;
  log(
    `PostgreSQL event append, ${rows.toLocaleString('en-US')} rows into one run, batches of ${batch}:\n` +
      Object.entries(results)
        .map(
          ([name, perSec]) =>
            `  ${name.padEnd(41)} ${perSec.toLocaleString('en-US').padStart(9)} rows/s ` +
            `(${((perSec / base) * 100).toFixed(0).padStart(3)} % of the multi-row INSERT)`,
        )
        .join('\n'),
  );
  return results;
}

const BATCHES = [50, 500];
const APPEND = 'appendEvents (Prisma pg adapter)';

/** Each batch size's figures on one fresh cluster. */
async function onCluster(durable: boolean): Promise<Record<number, Record<string, number>>> {
  console.log(durable ? '\n-- durable: PostgreSQL defaults (fsync on) --' : '-- fsync off (as the tests run it) --');
  const cluster = startPostgres(await freePort(), { durable });
  try {
    await migratePostgres(await cluster.createDatabase(TEMPLATE));
    const figures: Record<number, Record<string, number>> = {};
    for (const batch of BATCHES) figures[batch] = await benchPostgresAppend({ cluster, rows: 50_000, batch });
    return figures;
  } finally {
    cluster.stop();
  }
}

async function main() {
  const fast = await onCluster(false);
  if (process.env.BENCH_POSTGRES_DURABLE === '0') return;
  const durable = await onCluster(true);
  console.log("\nthe run manager's path (appendEvents), rows/s: fsync off | durable | durable / off");
  for (const batch of BATCHES) {
    const off = fast[batch]?.[APPEND] ?? 0;
    const on = durable[batch]?.[APPEND] ?? 0;
    console.log(
      `  batches of ${String(batch).padEnd(4)} ${off.toLocaleString('en-US').padStart(9)} | ` +
        `${on.toLocaleString('en-US').padStart(9)} | ${off ? ((on / off) * 100).toFixed(0) : '-'} %`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
