// The run page's two big reads, over plain HTTP (lib/server/http/run-reads.ts): the latest tree, whose seq comes in
// the headers ahead of its megabytes, and the light history up to that seq, one streamed answer read as it arrives
// (a piece's complete lines are parsed at once: lib/store NdjsonEvents) and taken up again from the last event
// received when it breaks off or the server is away. Both answers are the bytes the server stored, never walked by
// tRPC's transformer. Not responsible for folding (the caller hands the events to the run store) or for access
// (the server's; the browser sends its cookies, as with tRPC).
import { SNAPSHOT_SEQ_HEADER } from '@/lib/contract/run';
import type { ExplorationEvent, ThoughtTree } from '@/lib/engine/index';
import { isRefusal, NdjsonEvents, retryDelayMs } from '@/lib/store/index';

/** An answer that says no: asking again cannot change it (the page shows what the server said). */
export class RefusedRead extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const runPath = (runId: string) => `/api/runs/${encodeURIComponent(runId)}`;

/** What a failed answer says (its JSON error, else its status). */
async function failureOf(res: Response): Promise<Error> {
  const said = await res
    .json()
    .then((body: { error?: unknown }) => (typeof body.error === 'string' ? body.error : null))
    .catch(() => null);
  const message = said ?? `the server answered ${res.status}`;
  return isRefusal(res.status) ? new RefusedRead(res.status, message) : new Error(message);
}

/** A snapshot being read: its seq (from the headers), the moment its bytes are in, and its tree once parsed. */
export interface OpenedSnapshot {
  seq: number;
  /** Resolves when the whole text has arrived (before it is parsed); rejects with the tree. */
  arrived: Promise<void>;
  tree: Promise<ThoughtTree>;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Opens the latest tree: resolves as soon as the headers are in. The tree is parsed a task after its text arrived,
 * so whatever waits on `arrived` (the history's request) is sent before the parse holds the thread.
 */
export async function openSnapshot(runId: string, signal?: AbortSignal): Promise<OpenedSnapshot> {
  const res = await fetch(`${runPath(runId)}/snapshot.json`, { signal, cache: 'no-store' });
  if (!res.ok) throw await failureOf(res);
  const seq = Number(res.headers.get(SNAPSHOT_SEQ_HEADER));
  if (!Number.isInteger(seq) || seq < 0) throw new Error('the snapshot came without its seq');
  const text = res.text();
  const tree = text.then(async (body) => {
    await nextTask();
    return JSON.parse(body) as ThoughtTree;
  });
  return { seq, arrived: text.then(() => undefined), tree };
}

export interface HistoryRead {
  runId: string;
  /** The last seq the page has (0: from the start). */
  after: number;
  /** The last seq wanted: the snapshot's (the page's stream brings what follows). */
  until: number;
  /** Each piece's events, in seq order, each event once. */
  onEvents: (events: ExplorationEvent[]) => void;
  signal: AbortSignal;
  /** How long to wait before the next try (tests shorten it). */
  delayMs?: (failedBefore: number) => number;
}

/** Resolves after `ms`, or at once when the read is abandoned. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Reads the history (after, until]: resolves once it has all of it (or the log ends sooner), throws a RefusedRead
 * when the server says no, and tries again after anything else, from the last event received, waiting longer each
 * time (retryDelayMs). Abandoned quietly when the signal aborts.
 */
export async function readHistory(read: HistoryRead): Promise<void> {
  const delayMs = read.delayMs ?? retryDelayMs;
  let last = read.after;
  let failures = 0;
  while (last < read.until && !read.signal.aborted) {
    const before = last;
    try {
      const query = new URLSearchParams({ after: String(last), until: String(read.until) });
      const res = await fetch(`${runPath(read.runId)}/history.ndjson?${query}`, {
        signal: read.signal,
        cache: 'no-store',
      });
      if (!res.ok) throw await failureOf(res);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const text = new TextDecoder(); // streaming: a character cut between two pieces is decoded whole
      const lines = new NdjsonEvents(read.runId);
      for (let piece = await reader.read(); !piece.done; piece = await reader.read()) {
        const events = lines.push(text.decode(piece.value, { stream: true }));
        const end = events.at(-1);
        if (!end) continue;
        last = end.seq;
        read.onEvents(events);
      }
      if (last === before) return; // a whole answer with nothing more: the log ends before `until`
      failures = 0;
    } catch (error) {
      if (read.signal.aborted) return;
      if (error instanceof RefusedRead) throw error;
      // only failures in a row slow down: an answer that broke off after some events is asked again soon
      failures = last === before ? failures + 1 : 1;
      await pause(delayMs(failures - 1), read.signal);
    }
  }
}
