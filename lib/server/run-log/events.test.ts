/** The event log against real SQLite and PostgreSQL through real Prisma: order, contiguity, no duplicates, ranges. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import type { ExplorationEvent } from '../../contract/events';
import { eventOfHistoryLine, type HistoryLine } from '../../contract/run';
import { BACKENDS, sampleEvents, sampleRunInput, sharedTestDb } from '../testing/db';
import {
  EVENT_CHUNK_ROWS,
  EVENTS_CHANNEL,
  EventAppendError,
  appendEvents,
  appendEventsInTransaction,
  countEvents,
  type HistoryPage,
  lightHistoryPage,
  listEvents,
  splitAfterBlankLines,
} from './events';
import { getRun } from '../repositories/runs';
import { createRun } from './run-rows';

describe.each(BACKENDS)('the event log (%s)', (backend) => {
  const t = sharedTestDb(backend);
  beforeEach(async () => {
    await createRun(t.prisma, sampleRunInput('run-a'));
  });

  async function expectAppendError(promise: Promise<unknown>, reason: EventAppendError['reason'], message: RegExp) {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventAppendError);
    expect((error as EventAppendError).reason).toBe(reason);
    expect((error as EventAppendError).message).toMatch(message);
  }

  describe('appendEvents', () => {
    it('stores batches in seq order, larger than one statement, and advances lastSeq', async () => {
      const first = sampleEvents('run-a', 1, 3);
      const second = sampleEvents('run-a', 4, EVENT_CHUNK_ROWS * 2 + 7);
      expect(await appendEvents(t.prisma, 'run-a', first)).toEqual({ lastSeq: 3 });
      expect(await appendEvents(t.prisma, 'run-a', second)).toEqual({ lastSeq: 3 + second.length });

      const stored = await listEvents(t.prisma, 'run-a');
      expect(stored).toEqual([...first, ...second]);
      expect((await getRun(t.prisma, 'run-a'))?.lastSeq).toBe(3 + second.length);
      expect(await countEvents(t.prisma, 'run-a')).toBe(3 + second.length);
    });

    it('keeps payloads and millisecond timestamps exactly', async () => {
      const event = {
        runId: 'run-a',
        seq: 1,
        ts: Date.UTC(2030, 0, 1, 12, 0, 0, 123),
        type: 'steer.prune',
        payload: { nodeId: 'n\'1"; DROP TABLE "Event"; --', actor: 'ユーザー' },
      } as const;
      await appendEvents(t.prisma, 'run-a', [event]);
      expect(await listEvents(t.prisma, 'run-a')).toEqual([event]);
    });

    it('keeps awkward text exactly: quotes, backslashes, control characters, line separators, emoji', async () => {
      const reason = 'a "quoted" \\ path\n\t\u0000\u001f \u2028\u2029 🌳 é ﬁ \ud83c';
      const event = {
        runId: 'run-a',
        seq: 1,
        ts: 8_640_000_000_000,
        type: 'node.failed',
        payload: { nodeId: '{"seq": 2}', reason },
      } as const;
      await appendEvents(t.prisma, 'run-a', [event]);
      expect(await listEvents(t.prisma, 'run-a')).toEqual([event]);
    });

    it('an empty batch writes nothing and reports the stored lastSeq', async () => {
      await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 2));
      expect(await appendEvents(t.prisma, 'run-a', [])).toEqual({ lastSeq: 2 });
    });

    it('refuses a gap and writes nothing', async () => {
      await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 5));
      await expectAppendError(
        appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 7, 600)),
        'gap',
        /next must be seq 6/,
      );
      expect(await countEvents(t.prisma, 'run-a')).toBe(5);
      expect((await getRun(t.prisma, 'run-a'))?.lastSeq).toBe(5);
    });

    it('refuses a duplicate (a batch overlapping the stored log) and writes nothing', async () => {
      await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 5));
      await expectAppendError(
        appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 4, 10)),
        'duplicate',
        /up to seq 5/,
      );
      await expectAppendError(appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 1)), 'duplicate', /duplicate/);
      expect(await listEvents(t.prisma, 'run-a')).toEqual(sampleEvents('run-a', 1, 5));
      expect((await getRun(t.prisma, 'run-a'))?.lastSeq).toBe(5);
    });

    it('refuses a batch that is not contiguous in itself, or holds another run’s events', async () => {
      const events = sampleEvents('run-a', 1, 4);
      await expectAppendError(
        appendEvents(t.prisma, 'run-a', [events[0]!, events[1]!, events[3]!]),
        'not-contiguous',
        /expected seq 3 at position 2, got 4/,
      );
      await expectAppendError(
        appendEvents(t.prisma, 'run-a', [events[0]!, events[0]!]),
        'not-contiguous',
        /expected seq 2/,
      );
      await expectAppendError(appendEvents(t.prisma, 'run-a', sampleEvents('run-b', 1, 2)), 'wrong-run', /run-b/);
      await expectAppendError(appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 0, 2)), 'not-contiguous', /from 1/);
      expect(await countEvents(t.prisma, 'run-a')).toBe(0);
    });

    it('refuses a missing run', async () => {
      await expectAppendError(appendEvents(t.prisma, 'nope', sampleEvents('nope', 1, 2)), 'run-missing', /nope/);
      await expectAppendError(appendEvents(t.prisma, 'nope', []), 'run-missing', /nope/);
    });

    it('two writers racing for the same seq: one wins, the other is refused', async () => {
      const results = await Promise.allSettled([
        appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 300)),
        appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 200)),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const lastSeq = (await getRun(t.prisma, 'run-a'))!.lastSeq;
      expect(await countEvents(t.prisma, 'run-a')).toBe(lastSeq);
    });

    it('inside a caller’s transaction, commits and rolls back with it', async () => {
      await t.prisma.$transaction(async (tx) => {
        await appendEventsInTransaction(tx, 'run-a', sampleEvents('run-a', 1, 3));
      });
      await expect(
        t.prisma.$transaction(async (tx) => {
          await appendEventsInTransaction(tx, 'run-a', sampleEvents('run-a', 4, 3));
          throw new Error('the caller changes its mind');
        }),
      ).rejects.toThrow('changes its mind');
      expect(await countEvents(t.prisma, 'run-a')).toBe(3);
      expect((await getRun(t.prisma, 'run-a'))?.lastSeq).toBe(3);
    });
  });

  describe('listEvents', () => {
    beforeEach(async () => {
      await createRun(t.prisma, sampleRunInput('run-b'));
      await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 20));
      await appendEvents(t.prisma, 'run-b', sampleEvents('run-b', 1, 4));
    });

    const seqs = (events: { seq: number }[]) => events.map((e) => e.seq);

    it('reads one run only, in seq order', async () => {
      expect(seqs(await listEvents(t.prisma, 'run-b'))).toEqual([1, 2, 3, 4]);
      expect(await listEvents(t.prisma, 'missing')).toEqual([]);
    });

    it('honours afterSeq, untilSeq and limit', async () => {
      expect(seqs(await listEvents(t.prisma, 'run-a', { afterSeq: 17 }))).toEqual([18, 19, 20]);
      expect(seqs(await listEvents(t.prisma, 'run-a', { untilSeq: 3 }))).toEqual([1, 2, 3]);
      expect(seqs(await listEvents(t.prisma, 'run-a', { afterSeq: 5, untilSeq: 8 }))).toEqual([6, 7, 8]);
      expect(seqs(await listEvents(t.prisma, 'run-a', { afterSeq: 5, limit: 2 }))).toEqual([6, 7]);
      expect(await listEvents(t.prisma, 'run-a', { afterSeq: 20 })).toEqual([]);
      expect(await listEvents(t.prisma, 'run-a', { afterSeq: 8, untilSeq: 8 })).toEqual([]);
    });

    it('counts a run’s events', async () => {
      expect(await countEvents(t.prisma, 'run-a')).toBe(20);
      expect(await countEvents(t.prisma, 'missing')).toBe(0);
    });
  });

  describe('model calls’ prompts', () => {
    const call = (seq: number, user: string): ExplorationEvent => ({
      runId: 'run-a',
      seq,
      ts: 1_000 + seq,
      type: 'model.called',
      payload: {
        nodeId: 'n1',
        purpose: 'evaluate',
        modelId: 'gpt-4o',
        messages: [
          { role: 'system', content: `You judge steps of a search. ${'Rules. '.repeat(60)}` },
          { role: 'user', content: user },
        ],
        response: '{"confidence": 0.5}',
        error: null,
        usage: { inputTokens: 10, outputTokens: 2 },
        cost: 0.001,
        latencyMs: 5,
      },
    });

    it('stores a repeated long message once and gives every event back whole', async () => {
      const scratchpad = `Steps so far: ${'a step. '.repeat(50)}`;
      const events = [
        call(1, `${scratchpad}\n\nCandidate: A`),
        call(2, `${scratchpad}\n\nCandidate: B`),
        call(3, 'short'),
      ];
      await appendEvents(t.prisma, 'run-a', events.slice(0, 2));
      await appendEvents(t.prisma, 'run-a', events.slice(2));
      expect(await listEvents(t.prisma, 'run-a')).toEqual(events);
      // the system text once and the scratchpad block the two calls share once; short blocks stay inline
      expect(await t.prisma.promptText.count()).toBe(2);
      const stored = await t.prisma.event.findMany({ where: { runId: 'run-a' }, select: { payload: true } });
      expect(
        stored.every((row) => !row.payload.includes('Rules. Rules.') && !row.payload.includes('a step. a step.')),
      ).toBe(true);
      // light reads leave the messages out and keep the response
      const light = await listEvents(t.prisma, 'run-a', { light: true });
      expect(light.map((e) => (e.payload as { messages: unknown[] }).messages)).toEqual([[], [], []]);
      expect(light.map((e) => (e.payload as { response: string }).response)).toEqual(
        events.map((e) => (e.payload as { response: string }).response),
      );
    });
  });

  describe('the history (lightHistoryPage)', () => {
    /** A page's lines as the run page reads them: each given back its run's id. */
    const eventsOf = (page: HistoryPage, runId: string) =>
      new TextDecoder()
        .decode(page.ndjson)
        .split('\n')
        .filter(Boolean)
        .map((line) => eventOfHistoryLine(runId, JSON.parse(line) as HistoryLine));

    it('is the light log, a HistoryLine per line, as the text stored: quotes, escapes, any character, any number', async () => {
      const awkward = 'say "hi"\\ \n tab\t nul\u0000 sep\u2028 é 漢字 🌲 </script>';
      const events: ExplorationEvent[] = [
        ...sampleEvents('run-a', 1, 3),
        {
          runId: 'run-a',
          seq: 4,
          ts: 1_004,
          type: 'model.called',
          payload: {
            nodeId: 'n1',
            purpose: 'execute',
            modelId: 'gpt-4o',
            messages: [{ role: 'user', content: `a prompt that is left out ${awkward}` }],
            response: awkward,
            error: null,
            usage: { inputTokens: 10, outputTokens: 2 },
            cost: 0.1 + 0.2,
            latencyMs: 1e-7,
          },
        },
        ...sampleEvents('run-a', 5, 2),
      ];
      await appendEvents(t.prisma, 'run-a', events);
      const page = await lightHistoryPage(t.prisma, 'run-a');
      expect(page.count).toBe(6);
      expect(page.lastSeq).toBe(6);
      const text = new TextDecoder().decode(page.ndjson);
      expect(text.endsWith('\n')).toBe(true);
      expect(text).not.toContain('"runId"');
      expect(text).not.toContain('a prompt that is left out');
      expect(eventsOf(page, 'run-a')).toEqual(await listEvents(t.prisma, 'run-a', { light: true }));
      expect((eventsOf(page, 'run-a')[3]?.payload as { response: string }).response).toBe(awkward);
    });

    it('honours afterSeq, untilSeq and limit, and says when a range holds nothing', async () => {
      await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 20));
      const seqsOf = async (range: Parameters<typeof lightHistoryPage>[2]) => {
        const page = await lightHistoryPage(t.prisma, 'run-a', range);
        const seqs = eventsOf(page, 'run-a').map((e) => e.seq);
        expect(page.count).toBe(seqs.length);
        expect(page.lastSeq).toBe(seqs.at(-1) ?? null);
        return seqs;
      };
      expect(await seqsOf({ afterSeq: 5, untilSeq: 8 })).toEqual([6, 7, 8]);
      expect(await seqsOf({ afterSeq: 5, limit: 2 })).toEqual([6, 7]);
      expect(await seqsOf({ afterSeq: 20 })).toEqual([]);
      expect((await lightHistoryPage(t.prisma, 'missing')).ndjson.byteLength).toBe(0);
    });
  });
});

// The team server's fan-out: every instance learns of a committed batch from PostgreSQL's notification, then reads
// the events from the table. A batch that is stored but not announced would reach other instances' pages only when
// the run ends, so every append path must announce its batch, once, with its last seq.
describe('announcing appended batches (postgresql)', () => {
  const t = sharedTestDb('postgresql');
  let listener: Client;
  const heard: { runId: string; seq: number }[] = [];
  beforeEach(async () => {
    heard.length = 0;
    await createRun(t.prisma, sampleRunInput('run-a'));
    listener = new Client({ connectionString: t.file });
    await listener.connect();
    listener.on('notification', (message) => heard.push(JSON.parse(message.payload ?? '{}')));
    await listener.query(`LISTEN "${EVENTS_CHANNEL}"`);
  });
  afterEach(async () => {
    await listener.end();
  });

  it('announces each batch at its commit, from every path: alone, in a transaction, larger than one statement', async () => {
    await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 3));
    await t.prisma.$transaction((tx) => appendEventsInTransaction(tx, 'run-a', sampleEvents('run-a', 4, 2)));
    await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 6, EVENT_CHUNK_ROWS + 5));
    const last = 5 + EVENT_CHUNK_ROWS + 5;
    await expect.poll(() => heard.length).toBe(3);
    expect(heard).toEqual([
      { runId: 'run-a', seq: 3 },
      { runId: 'run-a', seq: 5 },
      { runId: 'run-a', seq: last },
    ]);
  });

  it('announces nothing for a batch that was refused or rolled back', async () => {
    await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 1, 2));
    await expect(appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 5, 1))).rejects.toThrow(EventAppendError);
    await expect(
      t.prisma.$transaction(async (tx) => {
        await appendEventsInTransaction(tx, 'run-a', sampleEvents('run-a', 3, 1));
        throw new Error('the rest of the batch failed');
      }),
    ).rejects.toThrow('the rest of the batch failed');
    await appendEvents(t.prisma, 'run-a', sampleEvents('run-a', 3, 1));
    await expect.poll(() => heard.length).toBe(2);
    expect(heard.map((h) => h.seq)).toEqual([2, 3]);
  });
});

describe('splitAfterBlankLines', () => {
  it('splits as text.split(/(?<=\\n\\n)/) does, on every arrangement of newlines and letters', () => {
    const samples = [
      '',
      'a',
      '\n\n',
      'a\n\nb',
      'a\n\n',
      '\n\na',
      'a\n\n\nb',
      'a\n\n\n\n',
      '\n\n\n',
      'x\ny\n\nz\n\n\n\nw',
    ];
    // every string of up to 7 characters over { a, \n } covers runs of newlines at the start, middle and end
    for (let length = 1; length <= 7; length++) {
      for (let bits = 0; bits < 1 << length; bits++) {
        samples.push(Array.from({ length }, (_, i) => ((bits >> i) & 1 ? '\n' : 'a')).join(''));
      }
    }
    for (const text of samples) expect(splitAfterBlankLines(text)).toEqual(text.split(/(?<=\n\n)/));
  });
});
