// The run page's snapshot and history reads as their Route Handlers call them: a Request in, a Response out, on a
// temporary database. What the page folds (the latest tree, the light log of a range, page by page) and the errors
// a bad query or a missing run gets (who may read is the routes' admitToRun: trpc/access.test.ts, e2e/team-api.spec.ts).
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { fold } from '../../engine/index';
import { listEvents } from '../run-log/events';
import { HISTORY_CHUNK } from '../streaming/history-text';
import { servicesPerTest, settledGame24Run } from '../testing/services';
import { eventOfHistoryLine, type HistoryLine, SNAPSHOT_SEQ_HEADER } from '../../contract/run';
import { historyResponse, logQueryOf, snapshotResponse } from './run-reads';

const testServices = servicesPerTest();

async function setupWithRun() {
  const s = testServices.create();
  return { s, runId: await settledGame24Run(s) };
}

const history = (runId: string, query = '') => new Request(`http://localhost/api/runs/${runId}/history.ndjson${query}`);

/** A history answer's events (its lines, each given back its run's id) and the chunks they came in. */
async function readHistory(res: Response, runId: string): Promise<{ events: ExplorationEvent[]; chunks: string[] }> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value));
  const text = chunks.join('');
  const events =
    text === ''
      ? []
      : text
          .trimEnd()
          .split('\n')
          .map((line) => eventOfHistoryLine(runId, JSON.parse(line) as HistoryLine));
  return { events, chunks };
}

describe('GET /api/runs/<id>/snapshot.json', () => {
  it("is the run's latest tree as its log folds, with its seq in a header", async () => {
    const { s, runId } = await setupWithRun();
    const events = await listEvents(s.prisma, runId);
    const res = await snapshotResponse(s, runId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get(SNAPSHOT_SEQ_HEADER)).toBe(String(events.length));
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(fold(events))));
  });

  it('answers 404 with a JSON error for a missing run', async () => {
    const { s } = await setupWithRun();
    const res = await snapshotResponse(s, 'nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no run nope' });
  });
});

describe('GET /api/runs/<id>/history.ndjson', () => {
  it('is the light log of the range asked for, one event per line: model calls without their prompts', async () => {
    const { s, runId } = await setupWithRun();
    const light = await listEvents(s.prisma, runId, { light: true });
    const whole = await readHistory(
      await historyResponse(s, { id: runId, lastSeq: light.length }, history(runId)),
      runId,
    );
    expect(whole.events).toEqual(light);
    expect(whole.chunks.join('')).not.toContain('"runId"'); // the reader knows the run
    const calls = whole.events.filter((e) => e.type === 'model.called');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((e) => e.payload.messages.length === 0)).toBe(true);

    const res = await historyResponse(s, { id: runId, lastSeq: light.length }, history(runId, '?after=3&until=8'));
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect((await readHistory(res, runId)).events).toEqual(light.slice(3, 8));
    // past the end: nothing, not an error
    const after = await historyResponse(
      s,
      { id: runId, lastSeq: light.length },
      history(runId, `?after=${light.length}`),
    );
    expect((await readHistory(after, runId)).events).toEqual([]);
  });

  it('comes a page of the table per chunk, each ending at a line', async () => {
    const s = testServices.create();
    const run = await s.manager.create({
      taskId: 'open-goal',
      goal: 'Reduce the p99 latency of the checkout API',
      model: { provider: 'simulated', seed: 11, latencyMs: 0 },
      config: { maxTotalNodes: 2_000, maxDepth: 8, terminationConfidence: 1, confidenceThreshold: 0 },
    });
    await s.manager.settled(run.id);
    const light = await listEvents(s.prisma, run.id, { light: true });
    expect(light.length).toBeGreaterThan(HISTORY_CHUNK);
    const { events, chunks } = await readHistory(
      await historyResponse(s, { id: run.id, lastSeq: light.length }, history(run.id)),
      run.id,
    );
    expect(events).toEqual(light);
    expect(chunks.length).toBeGreaterThanOrEqual(Math.ceil(light.length / HISTORY_CHUNK));
    expect(chunks.every((chunk) => chunk.endsWith('\n'))).toBe(true);
  });

  it('says what is wrong with a bad range', async () => {
    const { s, runId } = await setupWithRun();
    const light = await listEvents(s.prisma, runId, { light: true });
    for (const [query, problem] of [
      ['?after=-1', '"after" must be at least 0'],
      ['?after=1.5', '"after" must be a whole number'],
      ['?until=soon', '"until" must be a number'],
    ]) {
      const res = await historyResponse(s, { id: runId, lastSeq: light.length }, history(runId, query));
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: problem });
    }
  });
});

describe('logQueryOf (events.ndjson and history.ndjson)', () => {
  it('reads after, until and follow, with their defaults', () => {
    const at = (query: string) => logQueryOf(new Request(`http://localhost/api/runs/r/events.ndjson${query}`));
    expect(at('')).toEqual({ after: 0, follow: false });
    expect(at('?after=7&until=9&follow=1')).toEqual({ after: 7, until: 9, follow: true });
    expect(at('?follow=yes')).toEqual({ after: 0, follow: false }); // only follow=1 follows, as the docs say
    expect((at('?after=x') as Response).status).toBe(400);
  });
});
