/**
 * The event log: the hot append path and reads in seq order.
 * A run's events are seq 1, 2, 3, ... with no gaps and no duplicates; appendEvents enforces it inside its
 * transaction with a compare-and-set on Run.lastSeq (the write lock is taken by that first statement, so a stale
 * writer fails cleanly instead of deadlocking), and the (runId, seq) primary key makes a duplicate impossible anyway.
 *
 * SQLite: the better-sqlite3 connection under Prisma's client (db/sqlite-connection.ts), prepared statements, a row at
 * a time, inside the caller's Prisma transaction. Not Prisma's raw API: it serialises every parameter to JSON and
 * parses it back and re-prepares every statement; even with a batch's rows packed into two parameters (json_each over
 * the short fields, one blob for the texts: issue 16) that and SQLite parsing the JSON again were most of a live
 * run's write path: npm run bench:write stored 39k events/s through it against 110k for bare better-sqlite3 on the
 * same rows (36%); on this connection, 103k against 142k (65%; appendEvents alone 78% of bare inserts). Not a second
 * connection either: better-sqlite3 is synchronous, so while Prisma's connection holds the write lock across an await, a second one blocks the event loop
 * in its busy wait, then fails with SQLITE_BUSY (tried: a 2 s timeout froze the process 2 s). On the same connection
 * the append commits atomically with the run and node updates (appendEventsInTransaction) and the caller's fence.
 * (createMany is ~2% of raw speed per shared/STACK.md: never use it here.)
 *
 * PostgreSQL (npm run bench:postgres, 50k rows, 2 shared cores under a load of ~7, so read the ratios): a batch of up
 * to EVENT_CHUNK_ROWS is ONE statement (appendStatement: the compare-and-set in a data-modifying WITH, the rows as
 * one JSON parameter), inside the caller's transaction or, for appendEvents, with none around it. Back to back,
 * before -> after: batches of 50, 9.9k -> 13.2k rows/s (36% -> 39% of bare `pg` multi-row inserts, whose own figure
 * moved with the load); batches of 500, 30.8k -> 50.7k rows/s (80% -> 85%). What is left is Prisma's per call
 * (~0.6 ms for a SELECT 1 under that load) and per parameter byte (~1 ms more for a 12 kB one), not PostgreSQL's:
 * a run writes tens of events a second, far below either.
 *
 * ts is stored as BIGINT (unix ms): epoch milliseconds overflow Prisma's 32-bit Int.
 *
 * A model call's long messages are stored once (PromptText, keyed by the sha256 of the text) and the stored event
 * names them by hash: a run's calls resend their system text and most of their scratchpad, which made a long run's
 * log mostly copies. listEvents puts the text back, so every reader (pages, the stream, exports, NDJSON) gets
 * whole events; `light` reads leave the messages out altogether. Each batch also writes which texts its run names
 * (PromptUse, gone with the run), so sweepPromptTexts can delete the texts no run names any more.
 * Not responsible for folding events into a tree (lib/engine reduce), publishing them live, or the node projection.
 */
import { createHash } from 'node:crypto';
import type { ExplorationEvent } from '../../contract/events';
import { historyLineOf } from '../../contract/run';
import type { ChatMessage } from '../../contract/vocabulary';
import { Prisma } from '../../generated/prisma/client';
import { type Db, type PrismaClient, databaseKindOf } from '../db/client';
import { type SqliteStatements, sqliteStatementsOf } from '../db/sqlite-connection';
import type { EventBus } from './event-bus';

/** Rows per INSERT statement: 500 x 5 parameters stays far below SQLite's and Postgres's bound-parameter limits. */
export const EVENT_CHUNK_ROWS = 500;

export type EventAppendFailure = 'wrong-run' | 'not-contiguous' | 'run-missing' | 'gap' | 'duplicate';

/** Thrown when a batch cannot be appended; nothing of the batch was written. */
export class EventAppendError extends Error {
  override readonly name = 'EventAppendError';
  constructor(
    message: string,
    readonly runId: string,
    readonly reason: EventAppendFailure,
  ) {
    super(message);
  }
}

/**
 * Appends a batch of events in one transaction and advances Run.lastSeq to the last one.
 * The batch must continue the stored log exactly (first seq = lastSeq + 1, then +1 each); otherwise it throws an
 * EventAppendError and writes nothing. An empty batch writes nothing and returns the stored lastSeq.
 */
export async function appendEvents(
  prisma: PrismaClient,
  runId: string,
  events: readonly ExplorationEvent[],
): Promise<{ lastSeq: number }> {
  if (events.length === 0) return { lastSeq: await storedLastSeq(prisma, runId) };
  checkBatch(runId, events);
  // PostgreSQL: a batch that fits one statement is that statement alone, atomic without a transaction around it;
  // each round trip through Prisma costs ~0.35 ms, so one trip instead of four (BEGIN, the compare-and-set, the
  // INSERT, COMMIT) is what lets small batches keep up (npm run bench:postgres).
  const single = await appendInOneStatement(prisma, runId, events);
  if (single) return single;
  // The default 5 s interactive-transaction limit is generous for a batch of 500 (~4 ms) but not for an import.
  return prisma.$transaction((tx) => appendEventsInTransaction(tx, runId, events), {
    timeout: Math.max(10_000, events.length),
  });
}

/**
 * On PostgreSQL, a batch of at most one chunk (of events and of prompt texts) appended by appendStatement, then
 * announced (notifyAppended); null when the batch is larger or the database is SQLite (the caller takes the
 * statement-by-statement path, which announces its batch too). Throws the EventAppendError when the compare-and-set
 * refused it (nothing was written, nothing announced).
 */
async function appendInOneStatement(
  db: Db,
  runId: string,
  events: readonly ExplorationEvent[],
): Promise<{ lastSeq: number } | null> {
  if (databaseKindOf(db) !== 'postgresql' || events.length > EVENT_CHUNK_ROWS) return null;
  const prompts = new Map<string, string>();
  const payloads = events.map((e) => storedPayload(e, prompts));
  if (prompts.size > EVENT_CHUNK_ROWS) return null;
  const inserted = await db.$executeRaw(appendStatement(runId, events, payloads, [...prompts]));
  if (inserted !== events.length) throw await sequenceError(db, runId, events[0]!.seq);
  const lastSeq = events[0]!.seq + events.length - 1;
  // in the caller's transaction when there is one (delivered at its commit); else just after the statement's own
  await notifyAppended(db, runId, lastSeq);
  return { lastSeq };
}

/**
 * PostgreSQL's append of one chunk in one statement: the compare-and-set on Run.lastSeq in a data-modifying WITH (run
 * once, whatever reads it), the prompt texts and the events inserted only when it advanced. A stale or racing writer's
 * UPDATE matches no row (READ COMMITTED re-checks lastSeq once the winner commits), so it inserts nothing: the count
 * of inserted events says which happened. The rows travel as ONE JSON parameter expanded by json_to_recordset:
 * Prisma handles each bound parameter on its own, which made 250 parameters cost more than the round trip
 * (bench:postgres). SQLite has no data-modifying WITH: it keeps the statements of appendEventsInTransaction.
 */
function appendStatement(
  runId: string,
  events: readonly ExplorationEvent[],
  payloads: readonly string[],
  texts: readonly [string, string][],
): Prisma.Sql {
  const firstSeq = events[0]!.seq;
  const lastSeq = firstSeq + events.length - 1;
  const rows = JSON.stringify(events.map((e, i) => ({ seq: e.seq, type: e.type, payload: payloads[i], ts: e.ts })));
  const now = new Date();
  // the texts: named-again ones refreshed first (their rows locked: see sweepPromptTexts), then the new ones inserted
  // (the count of "refreshed" makes the INSERT wait for that UPDATE), then the run's uses
  const prompts =
    texts.length === 0
      ? Prisma.empty
      : Prisma.sql`, "texts" AS (
          SELECT p."hash", p."content" FROM json_to_recordset(${JSON.stringify(texts.map(([hash, content]) => ({ hash, content })))}::json)
            AS p("hash" text, "content" text)
        ), "refreshed" AS (
          UPDATE "PromptText" t SET "usedAt" = ${now} FROM "texts" p
          WHERE t."hash" = p."hash" AND t."usedAt" < ${staleBefore(now)} AND EXISTS (SELECT 1 FROM "advanced")
          RETURNING t."hash"
        ), "prompts" AS (
          INSERT INTO "PromptText" ("hash", "content", "usedAt")
          SELECT p."hash", p."content", ${now} FROM "texts" p
          WHERE EXISTS (SELECT 1 FROM "advanced") AND (SELECT count(*) FROM "refreshed") >= 0
          ON CONFLICT ("hash") DO NOTHING
        ), "uses" AS (
          INSERT INTO "PromptUse" ("runId", "hash")
          SELECT ${runId}, p."hash" FROM "texts" p
          WHERE EXISTS (SELECT 1 FROM "advanced")
          ON CONFLICT DO NOTHING)`;
  return Prisma.sql`WITH "advanced" AS (
      UPDATE "Run" SET "lastSeq" = ${lastSeq} WHERE "id" = ${runId} AND "lastSeq" = ${firstSeq - 1} RETURNING "id"
    )${prompts}
    INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts")
    SELECT ${runId}, e."seq", e."type", e."payload", e."ts"
    FROM json_to_recordset(${rows}::json) AS e("seq" integer, "type" text, "payload" text, "ts" bigint)
    WHERE EXISTS (SELECT 1 FROM "advanced")`;
}

/**
 * appendEvents' body for a caller that already holds a transaction (to update the run or the node projection in
 * the same commit). Throwing rolls the caller's transaction back.
 */
export async function appendEventsInTransaction(
  tx: Prisma.TransactionClient,
  runId: string,
  events: readonly ExplorationEvent[],
): Promise<{ lastSeq: number }> {
  if (events.length === 0) return { lastSeq: await storedLastSeq(tx, runId) };
  checkBatch(runId, events);
  const single = await appendInOneStatement(tx, runId, events);
  if (single) return single;
  const firstSeq = events[0]!.seq;
  const lastSeq = firstSeq + events.length - 1;
  const prompts = new Map<string, string>();
  const payloads = events.map((e) => storedPayload(e, prompts));
  const texts = [...prompts];
  const sqlite = await sqliteStatementsOf(tx);
  if (sqlite) {
    if (!appendOnSqlite(sqlite, runId, events, payloads, texts)) throw await sequenceError(tx, runId, firstSeq);
    return { lastSeq };
  }
  // PostgreSQL, a batch larger than one statement: the compare-and-set first, then the rows in chunks
  const advanced =
    await tx.$executeRaw`UPDATE "Run" SET "lastSeq" = ${lastSeq} WHERE "id" = ${runId} AND "lastSeq" = ${firstSeq - 1}`;
  if (advanced !== 1) throw await sequenceError(tx, runId, firstSeq);
  const now = new Date();
  for (let start = 0; start < texts.length; start += EVENT_CHUNK_ROWS) {
    const chunk = texts.slice(start, start + EVENT_CHUNK_ROWS);
    const hashes = chunk.map(([hash]) => hash);
    // named-again texts refreshed before the new ones are inserted (sweepPromptTexts says why)
    await tx.$executeRaw`UPDATE "PromptText" SET "usedAt" = ${now}
      WHERE "hash" IN (${Prisma.join(hashes)}) AND "usedAt" < ${staleBefore(now)}`;
    const rows = chunk.map(([hash, text]) => Prisma.sql`(${hash}, ${text}, ${now})`);
    await tx.$executeRaw`INSERT INTO "PromptText" ("hash", "content", "usedAt") VALUES ${Prisma.join(rows)}
      ON CONFLICT ("hash") DO NOTHING`;
    const uses = hashes.map((hash) => Prisma.sql`(${runId}, ${hash})`);
    await tx.$executeRaw`INSERT INTO "PromptUse" ("runId", "hash") VALUES ${Prisma.join(uses)} ON CONFLICT DO NOTHING`;
  }
  for (let start = 0; start < events.length; start += EVENT_CHUNK_ROWS) {
    const rows = events
      .slice(start, start + EVENT_CHUNK_ROWS)
      .map((e, i) => Prisma.sql`(${runId}, ${e.seq}, ${e.type}, ${payloads[start + i]}, ${e.ts})`);
    await tx.$executeRaw`INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES ${Prisma.join(rows)}`;
  }
  await notifyAppended(tx, runId, lastSeq);
  return { lastSeq };
}

/**
 * SQLite's append on Prisma's own connection (sqlite-connection.ts), synchronously, prepared statements with the
 * values bound as they are: the compare-and-set first (it checks the seq and takes the write lock in one statement),
 * then a row at a time, as bare better-sqlite3 writes them. False when the compare-and-set refused the batch (nothing
 * written).
 */
function appendOnSqlite(
  sqlite: SqliteStatements,
  runId: string,
  events: readonly ExplorationEvent[],
  payloads: readonly string[],
  texts: readonly [string, string][],
): boolean {
  const firstSeq = events[0]!.seq;
  const advance = sqlite.get('UPDATE "Run" SET "lastSeq" = ? WHERE "id" = ? AND "lastSeq" = ?');
  if (advance.run(firstSeq + events.length - 1, runId, firstSeq - 1).changes !== 1) return false;
  // no refresh of usedAt here: SQLite runs one write transaction at a time, so a sweep sees these uses or none of
  // this batch (sweepPromptTexts); DateTime as the adapter stores it, unix ms
  const insertText = sqlite.get(
    'INSERT INTO "PromptText" ("hash", "content", "usedAt") VALUES (?, ?, ?) ON CONFLICT ("hash") DO NOTHING',
  );
  const insertUse = sqlite.get('INSERT INTO "PromptUse" ("runId", "hash") VALUES (?, ?) ON CONFLICT DO NOTHING');
  const now = Date.now();
  for (const [hash, content] of texts) {
    insertText.run(hash, content, now);
    insertUse.run(runId, hash);
  }
  const insertEvent = sqlite.get(
    'INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES (?, ?, ?, ?, ?)',
  );
  events.forEach((e, i) => insertEvent.run(runId, e.seq, e.type, payloads[i], e.ts));
  return true;
}

/**
 * The channel on which PostgreSQL announces each committed batch to every instance (lib/server/cluster listens):
 * `{"runId": ..., "seq": <the batch's last seq>}`, or `{"runId": ..., "closed": <reason>}` when a live run stops or is
 * deleted, or `{"runId": ..., "discussed": true}` when its comments or labels changed (issue 34). It carries no event:
 * a listener reads them from the table after its cursor.
 */
export const EVENTS_CHANNEL = 'arborist_events';

/**
 * Announces an appended batch, inside the append's transaction, so PostgreSQL delivers it at the commit and never
 * before (nor at all when the batch rolls back). SQLite has one process and its in-memory bus: nothing to send.
 */
async function notifyAppended(tx: Db, runId: string, seq: number): Promise<void> {
  if (databaseKindOf(tx) !== 'postgresql') return;
  await sendEventsNotice(tx, { runId, seq });
}

/** What the events channel carries: a committed batch's last seq, or the end of a live run (or its deletion). */
export type EventsNotice =
  { runId: string; seq: number } | { runId: string; closed: string } | { runId: string; discussed: true };

/** Sends a notice on the events channel (PostgreSQL; in a transaction, delivered at its commit). */
export async function sendEventsNotice(db: Db, notice: EventsNotice): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(notice)})`;
}

/** A notice as received, or null when the payload is not one (never thrown: a stray NOTIFY must not stop a listener). */
export function parseEventsNotice(payload: string): EventsNotice | null {
  let message: { runId?: unknown; seq?: unknown; closed?: unknown; discussed?: unknown };
  try {
    message = JSON.parse(payload) as typeof message;
  } catch {
    return null;
  }
  if (typeof message.runId !== 'string') return null;
  if (typeof message.closed === 'string') return { runId: message.runId, closed: message.closed };
  if (message.discussed === true) return { runId: message.runId, discussed: true };
  if (typeof message.seq === 'number') return { runId: message.runId, seq: message.seq };
  return null;
}

export interface ListEventsOptions {
  /** Only events with seq > afterSeq (default 0: from the start). */
  afterSeq?: number;
  /** Only events with seq <= untilSeq. */
  untilSeq?: number;
  limit?: number;
  /**
   * Leave out what only the inspector's open model call shows: model.called events come with `messages` empty
   * (their response, usage, cost and latency stay). Most of a long run's log is prompts that repeat the scratchpad.
   */
  light?: boolean;
}

/** An event as a light read gives it: a model call without its messages (the prompt); every other event as is. */
export function withoutPrompt(event: ExplorationEvent): ExplorationEvent {
  return event.type === 'model.called' ? { ...event, payload: { ...event.payload, messages: [] } } : event;
}

/** A run's events in seq order, payloads parsed. */
export async function listEvents(
  db: Db,
  runId: string,
  { afterSeq = 0, untilSeq, limit, light = false }: ListEventsOptions = {},
): Promise<ExplorationEvent[]> {
  const rows = await eventRows(db, runId, { afterSeq, untilSeq, limit });
  const events = rows.map((row) => eventOf(runId, row));
  if (light) return events.map(withoutPrompt);
  await resolvePrompts(db, events);
  return events;
}

type EventRow = Awaited<ReturnType<typeof eventRows>>[number];

/** A stored row as its event. The type and payload were written from an ExplorationEvent by appendEvents: trusted, not re-validated. */
function eventOf(runId: string, row: EventRow): ExplorationEvent {
  return {
    runId,
    seq: row.seq,
    ts: Number(row.ts),
    type: row.type,
    payload: JSON.parse(row.payload),
  } as ExplorationEvent;
}

/**
 * The last seq a range can hold: its untilSeq, and no further than `limit` seqs on from afterSeq. A run's seqs have
 * no gaps, so the bound leaves out no row the limit would keep, and it lets the database read just the page's rows:
 * PostgreSQL, with a limit alone, sorted every row after afterSeq for each page (a freshly imported run's statistics
 * say nothing of it): a 98,831-event history took 2.2 s to read in pages of 5,000, its rows' sort spilling to disk.
 */
function rangeEnd({ afterSeq = 0, untilSeq, limit }: Omit<ListEventsOptions, 'light'>): number | undefined {
  if (limit === undefined) return untilSeq;
  return Math.min(untilSeq ?? Number.MAX_SAFE_INTEGER, afterSeq + limit);
}

/** The stored rows of a seq range, in seq order. */
function eventRows(db: Db, runId: string, range: Omit<ListEventsOptions, 'light'>) {
  const { afterSeq = 0, limit } = range;
  const untilSeq = rangeEnd(range);
  return db.event.findMany({
    where: { runId, seq: { gt: afterSeq, ...(untilSeq !== undefined && { lte: untilSeq }) } },
    orderBy: { seq: 'asc' },
    ...(limit !== undefined && { take: limit }),
    select: { seq: true, type: true, payload: true, ts: true },
  });
}

/** A page of a run's history as the bytes sent (history-text.ts): its lines, each ending in a newline. */
export interface HistoryPage {
  /** UTF-8 NDJSON, one HistoryLine (lib/contract/run.ts) per line; empty when the range holds no event. */
  ndjson: Uint8Array;
  /** How many lines it holds. */
  count: number;
  /** The last seq in it (null when it holds none). */
  lastSeq: number | null;
}

/**
 * The light log of a seq range (as listEvents with light: true) as NDJSON bytes, each event without its runId (a
 * HistoryLine: the reader knows the run, and the id repeated on every line was a tenth of a long run's history),
 * written from the stored rows: a model call's payload loses its messages, every other row's stored JSON is copied as
 * it is. The run page's history (app/api/runs/[id]/history.ndjson). Each database writes the page itself, in one
 * statement: sqliteHistoryPage, postgresHistoryPage.
 */
export async function lightHistoryPage(
  db: Db,
  runId: string,
  range: Omit<ListEventsOptions, 'light'> = {},
): Promise<HistoryPage> {
  const sqlite = await sqliteStatementsOf(db);
  return sqlite ? sqliteHistoryPage(sqlite, runId, range) : postgresHistoryPage(db, runId, range);
}

/**
 * A history page written by PostgreSQL, as sqliteHistoryPage's is by SQLite: the lines by concatenation, a model
 * call's payload through jsonb_set, the page by string_agg in seq order, one text per page. jsonb refuses
 * a \u0000 escape (a model's response may hold one): such a payload's line is left out (NULL), and a page missing a
 * line is written in JavaScript from its rows instead (historyPageFromRows). For a 98,831-event history: 2.4-2.7 s of
 * the server through Prisma's findMany and JavaScript with a limit alone (rangeEnd says why); here 0.8 s (npm run
 * bench:history).
 */
async function postgresHistoryPage(
  db: Db,
  runId: string,
  range: Omit<ListEventsOptions, 'light'>,
): Promise<HistoryPage> {
  const { afterSeq = 0, limit } = range;
  const untilSeq = rangeEnd(range);
  const rows = await db.$queryRaw<{ lastSeq: number | null; count: number; written: number; ndjson: string | null }[]>`
    SELECT max("seq") AS "lastSeq", count(*)::int AS "count", count("line")::int AS "written",
      string_agg("line", E'\n' ORDER BY "seq") || E'\n' AS "ndjson"
    FROM (SELECT "seq", '{"seq":' || "seq" || ',"ts":' || "ts" || ',"type":' || to_json("type")::text || ',"payload":'
        || CASE
          WHEN "type" <> 'model.called' THEN "payload"
          WHEN strpos("payload", ${NUL_ESCAPE}) = 0 THEN jsonb_set("payload"::jsonb, '{messages}', '[]')::text
        END || '}' AS "line"
      FROM "Event"
      WHERE "runId" = ${runId} AND "seq" > ${afterSeq}
        ${untilSeq === undefined ? Prisma.empty : Prisma.sql`AND "seq" <= ${untilSeq}`}
      ORDER BY "seq" ${limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${limit}`}) AS "page"`;
  const page = rows[0];
  if (!page || page.count === 0) return { ndjson: new Uint8Array(), count: 0, lastSeq: null };
  if (page.written < page.count) return historyPageFromRows(db, runId, range);
  return { ndjson: Buffer.from(page.ndjson ?? ''), count: page.count, lastSeq: page.lastSeq };
}

/** The JSON escape of the NUL character, as JSON.stringify writes it (jsonb cannot hold it). */
const NUL_ESCAPE = '\\u0000';

/** A history page written in JavaScript from Prisma's rows: only a model call's payload is parsed, to empty it. */
async function historyPageFromRows(
  db: Db,
  runId: string,
  range: Omit<ListEventsOptions, 'light'>,
): Promise<HistoryPage> {
  const rows = await eventRows(db, runId, range);
  const lines = rows.map((row) =>
    row.type === 'model.called'
      ? JSON.stringify(historyLineOf(withoutPrompt(eventOf(runId, row))))
      : // the keys in the order historyLineOf writes them
        `{"seq":${row.seq},"ts":${Number(row.ts)},"type":${JSON.stringify(row.type)},"payload":${row.payload}}`,
  );
  const text = lines.map((line) => `${line}\n`).join('');
  return { ndjson: Buffer.from(text), count: rows.length, lastSeq: rows.at(-1)?.seq ?? null };
}

/**
 * A history page written by SQLite, in C, on Prisma's connection (sqlite-connection.ts): each line by concatenation (a
 * model call's payload through json_set), the page by group_concat in seq order, handed over as the UTF-8 bytes to send
 * (a BLOB: no JavaScript string to build and encode again). For a 98,831-event history: 1.4 s of the server's thread
 * through Prisma's findMany, JSON.parse and JSON.stringify of each model call and a join; here 0.3-0.4 s (npm run
 * bench:history). The ORDER BY inside group_concat is what promises the order (without it, 40% faster, the order is
 * SQLite's to choose). Synchronous: a page of the history's 5,000 rows holds the thread ~20 ms. It reads what Prisma's
 * own reads outside a transaction read: the same connection, no lock taken.
 */
const HISTORY_PAGE_SQL = `SELECT max("seq"), count(*),
    CAST(group_concat("line", char(10) ORDER BY "seq") || char(10) AS BLOB)
  FROM (SELECT "seq", '{"seq":' || "seq" || ',"ts":' || "ts" || ',"type":' || json_quote("type") || ',"payload":'
      || CASE "type" WHEN 'model.called' THEN json_set("payload", '$.messages', json('[]')) ELSE "payload" END || '}'
      AS "line"
    FROM "Event" WHERE "runId" = ? AND "seq" > ? AND "seq" <= ? ORDER BY "seq" LIMIT ?)`;

function sqliteHistoryPage(
  sqlite: SqliteStatements,
  runId: string,
  range: Omit<ListEventsOptions, 'light'>,
): HistoryPage {
  const { afterSeq = 0, limit = -1 } = range;
  const untilSeq = rangeEnd(range) ?? Number.MAX_SAFE_INTEGER;
  // integers come back as BigInt: Prisma's adapter reads its connection with safe integers on
  const [lastSeq, count, ndjson] = sqlite.get(HISTORY_PAGE_SQL).raw().get(runId, afterSeq, untilSeq, limit) as [
    bigint | number | null,
    bigint | number,
    Buffer | null,
  ];
  return {
    ndjson: ndjson ?? new Uint8Array(),
    count: Number(count),
    lastSeq: lastSeq === null ? null : Number(lastSeq),
  };
}

/** Blocks at least this long are stored once by hash; shorter ones cost less inline than as a reference. */
const SHARED_TEXT_MIN = 200;

/**
 * A stored message: its text as blocks (split after blank lines, so the scratchpad's steps that one call shares
 * with the next are separate blocks), each inline or the hash of its text in PromptText.
 */
type StoredMessage = { role: string; content: string } | { role: string; blocks: (string | { sha256: string })[] };

/**
 * A text split after each blank line ("\n\n"), as `text.split(/(?<=\n\n)/)` does, without the regular expression
 * (a lookbehind tried at every character was a tenth of a live run's write path: npm run bench:write).
 */
export function splitAfterBlankLines(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let at = text.indexOf('\n\n'); at !== -1; at = text.indexOf('\n\n', at + 1)) {
    const end = at + 2;
    if (end >= text.length) break;
    parts.push(text.slice(start, end));
    start = end;
  }
  parts.push(text.slice(start));
  return parts;
}

/** sha256 of recently stored blocks: a run's calls resend the same system text and scratchpad steps. */
const recentHashes = new Map<string, string>();
const RECENT_HASHES_MAX = 2_000;

/** A block's sha256 (hex), remembered for the next calls (a pure function of the text: the cache cannot be stale). */
function blockHash(block: string): string {
  let sha256 = recentHashes.get(block);
  if (sha256 === undefined) {
    sha256 = createHash('sha256').update(block).digest('hex');
    // bounded: dropped whole when full (a run's repeating blocks come back at once)
    if (recentHashes.size >= RECENT_HASHES_MAX) recentHashes.clear();
    recentHashes.set(block, sha256);
  }
  return sha256;
}

/** The payload as stored: a model call's long message blocks replaced by their hashes (collected in `prompts`). */
function storedPayload(event: ExplorationEvent, prompts: Map<string, string>): string {
  if (event.type !== 'model.called') return JSON.stringify(event.payload);
  const messages: StoredMessage[] = event.payload.messages.map(({ role, content }) => {
    if (content.length < SHARED_TEXT_MIN) return { role, content };
    const blocks = splitAfterBlankLines(content).map((block) => {
      if (block.length < SHARED_TEXT_MIN) return block;
      const sha256 = blockHash(block);
      prompts.set(sha256, block);
      return { sha256 };
    });
    return { role, blocks };
  });
  return JSON.stringify({ ...event.payload, messages });
}

/** Puts the texts of stored messages back (in place): the events leave here whole. */
async function resolvePrompts(db: Db, events: ExplorationEvent[]): Promise<void> {
  const wanted = new Set<string>();
  for (const event of events) {
    if (event.type !== 'model.called') continue;
    for (const message of event.payload.messages as StoredMessage[]) {
      if ('blocks' in message)
        for (const block of message.blocks) if (typeof block !== 'string') wanted.add(block.sha256);
    }
  }
  if (wanted.size === 0) return;
  const texts = await promptTexts(db, wanted);
  for (const event of events) {
    if (event.type !== 'model.called') continue;
    event.payload.messages = (event.payload.messages as StoredMessage[]).map((message) =>
      'blocks' in message
        ? {
            role: message.role,
            content: message.blocks.map((b) => (typeof b === 'string' ? b : (texts.get(b.sha256) ?? ''))).join(''),
          }
        : message,
    ) as ChatMessage[];
  }
}

/**
 * How long a prompt text no run names is kept: a writer may be naming it in a transaction not yet committed, which
 * the sweep cannot see. Writers refresh a text's usedAt when it is older than half of this (staleBefore), so a text a
 * writer names is always younger than this or refreshed under the writer's row lock; the other half is far more than
 * a transaction may last (30 s) or two instances' clocks may differ.
 */
export const PROMPT_TEXT_IDLE_MS = 2 * 60 * 60_000;

/** The usedAt below which a writer refreshes a text it names (half PROMPT_TEXT_IDLE_MS before `now`). */
function staleBefore(now: Date): Date {
  return new Date(now.getTime() - PROMPT_TEXT_IDLE_MS / 2);
}

/** Texts deleted per statement: a statement stays short however many a run deleted long ago left. */
const PROMPT_SWEEP_ROWS = 500;

/**
 * Deletes the prompt texts no run names (no PromptUse: their runs deleted, or a failed import's staged runs) that no
 * write has named for PROMPT_TEXT_IDLE_MS; how many went. Safe against a writer naming such a text as it runs, which
 * inserts the text (ON CONFLICT DO NOTHING) and its use in one transaction the sweep cannot see until it commits:
 * - SQLite: one write transaction at a time; each DELETE sees a batch's text and use together, or neither.
 * - PostgreSQL: a writer first refreshes usedAt of a text older than half the idle time, which locks its row: the
 *   DELETE waits for the writer, then checks usedAt again on the row as the writer left it (READ COMMITTED re-checks
 *   an updated row's own conditions) and keeps it; a text it did not refresh is younger than the idle time, never
 *   chosen. A text the sweep deleted first is inserted again by the writer (refreshed before inserted, in that order).
 * Not run in the transaction that deletes a run: texts are shared by hash, and a sweep of the whole table on a timer
 * also takes what a failed import or a crash left, whoever deleted the runs.
 */
export async function sweepPromptTexts(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PROMPT_TEXT_IDLE_MS);
  let deleted = 0;
  for (;;) {
    // the conditions on the deleted row itself (not only in the subquery) are what PostgreSQL checks again
    const count = await db.$executeRaw`DELETE FROM "PromptText"
      WHERE "usedAt" < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM "PromptUse" u WHERE u."hash" = "PromptText"."hash")
        AND "hash" IN (
          SELECT t."hash" FROM "PromptText" t
          WHERE t."usedAt" < ${cutoff} AND NOT EXISTS (SELECT 1 FROM "PromptUse" u WHERE u."hash" = t."hash")
          LIMIT ${PROMPT_SWEEP_ROWS})`;
    deleted += count;
    if (count < PROMPT_SWEEP_ROWS) return deleted;
  }
}

/** The stored texts of these hashes (PromptText). */
async function promptTexts(db: Db, wanted: ReadonlySet<string>): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const hashes = [...wanted];
  for (let start = 0; start < hashes.length; start += EVENT_CHUNK_ROWS) {
    const rows = await db.promptText.findMany({
      where: { hash: { in: hashes.slice(start, start + EVENT_CHUNK_ROWS) } },
      select: { hash: true, content: true },
    });
    for (const row of rows) texts.set(row.hash, row.content);
  }
  return texts;
}

/**
 * One event of a run, whole (a model call with its prompt); null when the run has no such seq. Whether the run may be
 * read (it exists, is not a staged import, the caller may see prompts) is the caller's check (run.event's runFor).
 */
export async function getEvent(db: Db, runId: string, seq: number): Promise<ExplorationEvent | null> {
  return (await listEvents(db, runId, { afterSeq: seq - 1, untilSeq: seq }))[0] ?? null;
}

export async function countEvents(db: Db, runId: string): Promise<number> {
  return db.event.count({ where: { runId } });
}

function checkBatch(runId: string, events: readonly ExplorationEvent[]): void {
  const firstSeq = events[0]!.seq;
  if (!Number.isSafeInteger(firstSeq) || firstSeq < 1) {
    throw new EventAppendError(`Event seq must be an integer from 1, got ${firstSeq}.`, runId, 'not-contiguous');
  }
  events.forEach((event, i) => {
    if (event.runId !== runId) {
      throw new EventAppendError(
        `Event seq ${event.seq} belongs to run ${event.runId}, not ${runId}.`,
        runId,
        'wrong-run',
      );
    }
    if (event.seq !== firstSeq + i) {
      throw new EventAppendError(
        `Events of run ${runId} must be seq-contiguous: ` +
          `expected seq ${firstSeq + i} at position ${i}, got ${event.seq}.`,
        runId,
        'not-contiguous',
      );
    }
  });
}

async function storedLastSeq(db: Db, runId: string): Promise<number> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { lastSeq: true } });
  if (!run) throw new EventAppendError(`Run ${runId} does not exist.`, runId, 'run-missing');
  return run.lastSeq;
}

async function sequenceError(db: Db, runId: string, firstSeq: number): Promise<EventAppendError> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { lastSeq: true } });
  if (!run) return new EventAppendError(`Run ${runId} does not exist.`, runId, 'run-missing');
  const expected = run.lastSeq + 1;
  if (firstSeq < expected) {
    return new EventAppendError(
      `Run ${runId} already has events up to seq ${run.lastSeq}; ` +
        `a batch starting at seq ${firstSeq} would duplicate them.`,
      runId,
      'duplicate',
    );
  }
  return new EventAppendError(
    `Run ${runId} has events up to seq ${run.lastSeq}; the next must be seq ${expected}, got ${firstSeq} (a gap).`,
    runId,
    'gap',
  );
}

/**
 * Tells every open page of the run that its discussion changed: in a cluster (the bus carries no events) through the
 * events channel, which every instance's listener, this one's too, hands to its bus; in one process straight to its bus.
 */
export async function announceDiscussed(db: Db, bus: EventBus, runId: string): Promise<void> {
  if (bus.carriesEvents) bus.discussed(runId);
  else await sendEventsNotice(db, { runId, discussed: true });
}
