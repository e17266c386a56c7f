/**
 * A run's events from a cursor onwards, exactly once and in order: stored ones first, then live ones as they are
 * committed, ending when the run has finished. Used by the tRPC subscription and the NDJSON download.
 * The live listener is attached before the catch-up query, so nothing committed in between is missed; anything
 * the cursor already covers is skipped, and a gap (never expected) is filled from the database.
 * In a cluster the bus carries no events, only `more` (the table has more: read it after the cursor), so the events
 * come from the table alone, whichever instance wrote them; a reconnect's `more` re-reads and checks the run's end.
 * The events come in pages (a page of the table, or a committed batch): the NDJSON download writes a page as one
 * chunk (one chunk per event made a 159 MB log 100k socket writes). A reader slower than the run keeps at most
 * INBOX_EVENTS events of the bus in memory: past that it is told `more` and reads them from the table when it gets there
 * (committed before published, so nothing is lost), instead of holding a copy of the whole run.
 * A follower that asks (`live`, the run page's subscription) also gets the run's transient figures between the pages
 * (its calls in flight: run-log/event-bus.ts `publishLive`): never stored, only the newest kept, never in a download.
 * A follower that asks for the discussion (`discussion`, the run page) is also told when the run's comments or labels
 * change (items of kind `discussed`, a signal: the page reads them again), and its stream does not end with the log: a
 * finished or imported run is still discussed, so the stream stays open until the follower goes (or the instance, or
 * the run).
 * Not responsible for SSE framing or for resuming clients (they pass their last seq back).
 */
import type { ExplorationEvent } from '../../contract/events';
import type { PrismaClient } from '../db/client';
import { type BusMessage, type EventBus, type LiveFigures, STREAMS_CLOSING } from '../run-log/index';
import { listEvents } from '../run-log/index';
import { getRun } from '../repositories/runs';
import { hasEnded } from '../../contract/run-status';

const PAGE = 1_000;
/** Live events a follower may hold unread; past it, they are read from the table instead. */
export const INBOX_EVENTS = 5_000;

/** The last event a run's log can have: nothing follows a finish or a failure. */
function isLast(event: ExplorationEvent): boolean {
  return event.type === 'run.finished' || event.type === 'run.failed';
}

export interface StreamOptions {
  prisma: PrismaClient;
  bus: EventBus;
  runId: string;
  /** The last seq the client has (0 for none). */
  afterSeq: number;
  /** Keep streaming live events until the run finishes (false: stop after the stored ones). */
  follow: boolean;
  signal?: AbortSignal;
  /** Also the live run's transient figures (items of kind `live`, streamRunItems only); default none. */
  live?: boolean;
  /**
   * Also a signal whenever the run's discussion changes (items of kind `discussed`, streamRunItems only), following
   * on after the log has ended until the follower goes; default none.
   */
  discussion?: boolean;
}

/** What a follower of a run receives: a page of its log, or the live run's newest transient figures. */
export type RunStreamItem =
  { kind: 'events'; events: ExplorationEvent[] } | { kind: 'live'; live: LiveFigures } | { kind: 'discussed' };

/** The run's events one at a time (the tRPC subscription, tests). */
export async function* streamRunEvents(options: StreamOptions): AsyncGenerator<ExplorationEvent> {
  for await (const page of streamRunEventPages(options)) yield* page;
}

/**
 * Where a follower's messages wait: a batch of events while fewer than INBOX_EVENTS are held, else a `more` up to its
 * last seq; consecutive `more`s merge into one (a reconnect's unknown seq wins: read everything, then check the end).
 * The live figures wait in one slot of their own, the newest replacing the last: a slow follower holds one, however
 * often they change, and gets them ahead of the pages still waiting (they say how the run is now).
 */
export class FollowerInbox {
  private readonly messages: BusMessage[] = [];
  private held = 0;
  private live: LiveFigures | null = null;
  private discussed = false;

  get events(): number {
    return this.held;
  }

  /** Messages of the log waiting (the live slot is not one). */
  get length(): number {
    return this.messages.length;
  }

  /** Whether anything waits: a message of the log or live figures. */
  get empty(): boolean {
    return this.messages.length === 0 && this.live === null && !this.discussed;
  }

  push(message: BusMessage): void {
    if (message.kind === 'live') {
      this.live = message.live;
      return;
    }
    if (message.kind === 'discussed') {
      this.discussed = true; // a signal: any number of changes waiting are read at once
      return;
    }
    let next = message;
    if (next.kind === 'events') {
      const last = next.events.at(-1);
      if (!last) return;
      if (this.held + next.events.length <= INBOX_EVENTS) this.held += next.events.length;
      else next = { kind: 'more', seq: last.seq }; // committed before published: the table has them
    }
    const tail = this.messages.at(-1);
    if (next.kind === 'more' && tail?.kind === 'more') {
      const seq = tail.seq === null || next.seq === null ? null : Math.max(tail.seq, next.seq);
      this.messages[this.messages.length - 1] = { kind: 'more', seq }; // a new object: the bus shares messages
      return;
    }
    this.messages.push(next);
  }

  /** The newest live figures not taken yet (null: none since the last take). */
  takeLive(): LiveFigures | null {
    const live = this.live;
    this.live = null;
    return live;
  }

  /** Whether the discussion changed since the last take. */
  takeDiscussed(): boolean {
    const discussed = this.discussed;
    this.discussed = false;
    return discussed;
  }

  shift(): BusMessage | undefined {
    const message = this.messages.shift();
    if (message?.kind === 'events') this.held -= message.events.length;
    return message;
  }
}

/** The run's events a page at a time: pages of the table, then each committed batch as it is published. */
export async function* streamRunEventPages(options: StreamOptions): AsyncGenerator<ExplorationEvent[]> {
  for await (const item of streamRunItems({ ...options, live: false, discussion: false }))
    if (item.kind === 'events') yield item.events;
}

/** The run's events a page at a time and, when asked (`live`), its transient figures between them. */
export async function* streamRunItems(options: StreamOptions): AsyncGenerator<RunStreamItem> {
  const { prisma, bus, runId, signal } = options;
  const live = options.live ?? false;
  const discussion = (options.discussion ?? false) && options.follow;
  const inbox = new FollowerInbox();
  let wake: (() => void) | null = null;
  const unsubscribe = options.follow
    ? bus.subscribe(runId, (message) => {
        if (message.kind === 'live' && !live) return;
        if (message.kind === 'discussed' && !discussion) return;
        inbox.push(message);
        wake?.();
      })
    : () => {};
  // a follower arriving mid-run learns the figures at once, not at their next change
  const already = live && options.follow ? bus.liveOf(runId) : null;
  if (already) inbox.push({ kind: 'live', live: already });
  // one abort listener for the whole stream (a listener per wait would pile up over a long run's batches)
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  let cursor = options.afterSeq;
  let finished = false;

  async function* fromDatabase(): AsyncGenerator<RunStreamItem> {
    for (;;) {
      const page = await listEvents(prisma, runId, { afterSeq: cursor, limit: PAGE });
      const last = page.at(-1);
      if (last) {
        cursor = last.seq;
        if (page.some(isLast)) finished = true;
        yield { kind: 'events', events: page };
      }
      if (page.length < PAGE) return;
    }
  }

  /** The log to its end (or until the follower goes); with `finished` set when it brought the end. */
  async function* logItems(): AsyncGenerator<RunStreamItem> {
    yield* fromDatabase();
    if (!options.follow || finished) return;
    const run = await getRun(prisma, runId);
    if (!run || hasEnded(run.status)) {
      yield* fromDatabase(); // committed between the catch-up and the status check
      return;
    }
    while (!signal?.aborted && !finished) {
      const figures = inbox.takeLive();
      if (figures) {
        yield { kind: 'live', live: figures };
        continue;
      }
      if (inbox.takeDiscussed()) {
        yield { kind: 'discussed' };
        continue;
      }
      if (inbox.empty) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      const message = inbox.shift() as BusMessage;
      if (message.kind === 'more') {
        // a committed batch (from any instance), or a reconnect's "read again": the table is the source
        if (message.seq === null || message.seq > cursor) yield* fromDatabase();
        if (message.seq === null && !finished) {
          const after = await getRun(prisma, runId);
          if (!after || hasEnded(after.status)) {
            yield* fromDatabase();
            return;
          }
        }
        continue;
      }
      if (message.kind === 'closed') {
        yield* fromDatabase();
        if (message.reason === STREAMS_CLOSING) return; // this instance is going away: the client reconnects elsewhere
        const after = await getRun(prisma, runId);
        if (!after || hasEnded(after.status)) return; // stopped for good (finished, failed, deleted)
        // one process: a run stopped and not queued again will not go on here (shut down). In a cluster the run goes
        // on wherever it is claimed next (handed back, taken over): the stream ends only with its log.
        if (bus.carriesEvents && after.status !== 'queued') return;
        continue;
      }
      if (message.kind === 'live' || message.kind === 'discussed') continue; // never queued: each waits in its slot
      let fresh: ExplorationEvent[] = [];
      for (const event of message.events) {
        if (event.seq <= cursor) continue;
        if (event.seq > cursor + 1) {
          // a gap (never expected): what is taken so far first, then the table up to here
          if (fresh.length) yield { kind: 'events', events: fresh };
          fresh = [];
          yield* fromDatabase();
          if (event.seq <= cursor) continue;
        }
        cursor = event.seq;
        if (isLast(event)) finished = true;
        fresh.push(event);
      }
      if (fresh.length) yield { kind: 'events', events: fresh };
    }
  }

  /** After a log that has ended: the discussion's signals until the follower, the instance or the run goes. */
  async function* discussionItems(): AsyncGenerator<RunStreamItem> {
    while (!signal?.aborted) {
      if (inbox.takeDiscussed()) {
        yield { kind: 'discussed' };
        continue;
      }
      const message = inbox.shift();
      if (message === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (message.kind !== 'closed') continue; // nothing follows an ended log
      if (message.reason === STREAMS_CLOSING || !(await getRun(prisma, runId))) return; // going away, or deleted
    }
  }

  try {
    yield* logItems();
    if (!discussion || signal?.aborted) return;
    // only a log that has ended for good is followed by its discussion alone (an interrupted run's stream waits on)
    if (!finished && !hasEnded((await getRun(prisma, runId))?.status ?? null)) return;
    yield* discussionItems();
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Pages of events as NDJSON text, `line` turning an event into its JSON (a reader without prompts gets them out). */
export async function* eventPagesText(
  pages: AsyncGenerator<ExplorationEvent[]>,
  line: (event: ExplorationEvent) => string = (event) => JSON.stringify(event),
): AsyncGenerator<string> {
  for await (const page of pages) yield page.map((event) => `${line(event)}\n`).join('');
}

/**
 * A response body of NDJSON, one chunk per page (text, encoded here, or bytes already UTF-8), pulled only as the
 * client reads (a stream's default queue holds one chunk: a slow client holds the server to one page ahead).
 * Cancelling (the client went away) ends the pages' generator, so its reads and its bus subscription stop.
 */
export function ndjsonBody(chunks: AsyncGenerator<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
