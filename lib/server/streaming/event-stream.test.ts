// The live stream over a long run: however many times it waits for the next batch, it holds one abort listener on
// the client's signal (a listener per wait piled up on a long run: a leak, and Node's MaxListenersExceeded warning).
// A follower slower than its run holds a bounded number of events (the rest it reads from the table) and still gets
// every event once, in order; the NDJSON body is pulled a page at a time, only as fast as its client reads. A
// follower that asks gets the running run's live figures (its calls in flight) between the pages: the newest only,
// at once when it subscribes mid-run; the others, and the log, never see them.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { getRun } from '../repositories/runs';
import { hasEnded } from '../../contract/run-status';
import {
  eventPagesText,
  FollowerInbox,
  INBOX_EVENTS,
  ndjsonBody,
  type RunStreamItem,
  streamRunEventPages,
  streamRunEvents,
  streamRunItems,
} from './event-stream';
import { servicesPerTest } from '../testing/services';

const testServices = servicesPerTest();

describe('streamRunEvents', () => {
  it('keeps at most one abort listener on the signal while it follows a run through many batches', async () => {
    const s = testServices.create();
    const { id } = await s.manager.create({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 5 },
    });
    const client = new AbortController();
    let most = 0;
    let seen = 0;
    for await (const event of streamRunEvents({
      prisma: s.prisma,
      bus: s.bus,
      runId: id,
      afterSeq: 0,
      follow: true,
      signal: client.signal,
    })) {
      seen = event.seq;
      most = Math.max(most, getEventListeners(client.signal, 'abort').length);
    }
    expect(seen).toBeGreaterThan(30); // many waits for the next batch
    expect(most).toBeLessThanOrEqual(1);
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
  });
});

/** Events 1..n of a run (the inbox and the body only look at seq). */
function batch(from: number, count: number): ExplorationEvent[] {
  return Array.from(
    { length: count },
    (_, i) => ({ runId: 'r', seq: from + i, ts: 0, type: 'progress', payload: {} }) as unknown as ExplorationEvent,
  );
}

describe('FollowerInbox', () => {
  it('holds at most INBOX_EVENTS events; past that a batch becomes one `more` up to its last seq', () => {
    const inbox = new FollowerInbox();
    inbox.push({ kind: 'events', events: batch(1, INBOX_EVENTS - 10) });
    inbox.push({ kind: 'events', events: batch(INBOX_EVENTS - 9, 20) });
    inbox.push({ kind: 'events', events: batch(INBOX_EVENTS + 11, 20) });
    expect(inbox.events).toBe(INBOX_EVENTS - 10);
    expect(inbox.length).toBe(2); // the two late batches merged into one `more`
    expect(inbox.shift()).toMatchObject({ kind: 'events' });
    expect(inbox.events).toBe(0);
    expect(inbox.shift()).toEqual({ kind: 'more', seq: INBOX_EVENTS + 30 });
  });

  it("merges a reconnect's `more` (no seq) into one that reads everything, without changing the bus's message", () => {
    const inbox = new FollowerInbox();
    const shared = { kind: 'more' as const, seq: 5 };
    inbox.push(shared);
    inbox.push({ kind: 'more', seq: null });
    inbox.push({ kind: 'more', seq: 9 });
    expect(inbox.length).toBe(1);
    expect(inbox.shift()).toEqual({ kind: 'more', seq: null });
    expect(shared).toEqual({ kind: 'more', seq: 5 });
  });
});

describe('live figures in the inbox', () => {
  it('wait in a slot of their own, the newest replacing the last, apart from the log’s messages', () => {
    const inbox = new FollowerInbox();
    expect(inbox.empty).toBe(true);
    inbox.push({ kind: 'live', live: { callsInFlight: 3 } });
    inbox.push({ kind: 'events', events: batch(1, 2) });
    inbox.push({ kind: 'live', live: { callsInFlight: 5 } });
    expect(inbox.length).toBe(1);
    expect(inbox.events).toBe(2);
    expect(inbox.takeLive()).toEqual({ callsInFlight: 5 });
    expect(inbox.takeLive()).toBeNull();
    expect(inbox.empty).toBe(false);
    inbox.shift();
    expect(inbox.empty).toBe(true);
    inbox.push({ kind: 'live', live: { callsInFlight: 0 } });
    expect(inbox.empty).toBe(false); // a figure alone wakes the follower
  });
});

describe('streamRunItems with live figures', () => {
  it('gives a follower that asks the newest figure, at once when it subscribes mid-run, and no one else', async () => {
    // a run that waits as queued (no slot), so the only figures are the test's own (in a real run the run manager
    // says the engine's count: lib/server/trpc/router.test.ts)
    const s = testServices.create({ maxConcurrentRuns: 0 });
    const { id } = await s.manager.create({
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 0 },
    });
    const base = { prisma: s.prisma, bus: s.bus, runId: id, afterSeq: 0, follow: true };
    s.bus.publishLive(id, { callsInFlight: 2 });
    const withLive = streamRunItems({ ...base, live: true });
    const plain = streamRunEventPages(base);
    const items: RunStreamItem[] = [];
    for (;;) {
      const next = await withLive.next();
      if (next.done) break;
      items.push(next.value);
      if (next.value.kind === 'live') break;
    }
    // the catch-up pages first, then the figure said before it subscribed
    expect(items.at(-1)).toEqual({ kind: 'live', live: { callsInFlight: 2 } });
    expect(items.slice(0, -1).every((item) => item.kind === 'events')).toBe(true);
    s.bus.publishLive(id, { callsInFlight: 4 });
    s.bus.publishLive(id, { callsInFlight: 6 });
    let newest: RunStreamItem | undefined;
    do newest = (await withLive.next()).value as RunStreamItem;
    while (newest.kind !== 'live');
    expect(newest).toEqual({ kind: 'live', live: { callsInFlight: 6 } }); // the newest only: 4 was never sent
    await s.manager.command(id, { type: 'abort', actor: 'test' });
    await s.manager.settled(id);
    const rest: RunStreamItem[] = [];
    for await (const item of withLive) rest.push(item);
    expect(rest.at(-1)).toMatchObject({ kind: 'events' }); // it ends with the log, not a figure
    const pages: ExplorationEvent[][] = [];
    for await (const page of plain) pages.push(page);
    expect(pages.flat().every((e) => typeof e.seq === 'number')).toBe(true);
    expect(pages.flat().at(-1)?.type).toBe('run.finished');
  });
});

describe('a follower slower than its run', () => {
  it('gets every event once and in order, though the run wrote more than its inbox holds while it did not read', async () => {
    const s = testServices.create();
    const { id } = await s.manager.create({
      taskId: 'open-goal',
      goal: 'Reduce the p99 latency of the checkout API',
      config: { maxTotalNodes: 600, maxDepth: 12, terminationConfidence: 1, confidenceThreshold: 0 },
      model: { provider: 'simulated', seed: 11, latencyMs: 0 },
    });
    const pages = streamRunEventPages({ prisma: s.prisma, bus: s.bus, runId: id, afterSeq: 0, follow: true });
    const seqs = ((await pages.next()).value as ExplorationEvent[]).map((e) => e.seq); // subscribed from here on
    await s.manager.settled(id); // the whole run written while the follower did not read
    const run = await getRun(s.prisma, id);
    expect(hasEnded(run!.status)).toBe(true);
    expect(run!.lastSeq).toBeGreaterThan(INBOX_EVENTS + seqs.length);
    for await (const page of pages) seqs.push(...page.map((e) => e.seq));
    expect(seqs).toEqual(Array.from({ length: run!.lastSeq }, (_, i) => i + 1));
  });
});

describe('ndjsonBody over eventPagesText', () => {
  it('writes a page as one chunk of lines, and pulls the next page only once the client has read', async () => {
    let pulled = 0;
    let ended = false;
    let firstPull!: () => void;
    const pulledOnce = new Promise<void>((resolve) => (firstPull = resolve));
    async function* pages(): AsyncGenerator<ExplorationEvent[]> {
      try {
        for (let page = 0; page < 100; page++) {
          pulled++;
          firstPull();
          yield batch(page * 3 + 1, 3);
        }
      } finally {
        ended = true;
      }
    }
    const reader = ndjsonBody(eventPagesText(pages())).getReader();
    await pulledOnce;
    await new Promise((resolve) => setImmediate(resolve)); // a chance to run ahead, if it would
    expect(pulled).toBe(1); // one page waits for a client that has read nothing
    const first = await reader.read();
    expect(
      new TextDecoder()
        .decode(first.value)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).seq),
    ).toEqual([1, 2, 3]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(2);
    await reader.cancel();
    expect(ended).toBe(true); // a client gone ends the pages (the database reads and the bus subscription)
  });
});
