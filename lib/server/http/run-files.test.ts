// The export and import endpoints as the Route Handlers call them: a Request in, a Response out, on a temporary
// database. Status codes, headers and the error bodies a browser shows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunExport } from '../../formats/index';
import { listEvents } from '../run-log/events';
import { servicesPerTest, settledGame24Run, type TestServices } from '../testing/services';
import { exportFileName, exportRunResponse, type ImportRequestOptions, importRunsResponse } from './run-files';

const SAMPLE = new URL('../../formats/fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);

const testServices = servicesPerTest();

async function setupWithRun() {
  const s = testServices.create();
  return { s, runId: await settledGame24Run(s) };
}

const post = (body: BodyInit | null, query = '', headers: Record<string, string> = {}) =>
  new Request(`http://localhost/api/runs/import${query}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** The import route on the test's own database file (its worker opens the file, not the test's client). */
const importRuns = (s: TestServices, request: Request, options: ImportRequestOptions = {}) =>
  importRunsResponse(s, request, { database: s.file, ...options });

async function rowCount(s: TestServices) {
  return (await s.prisma.run.count()) + (await s.prisma.event.count()) + (await s.prisma.node.count());
}

describe('GET /api/runs/<id>/export', () => {
  it('downloads the run as arborist-run-<id>.json', async () => {
    const { s, runId } = await setupWithRun();
    const res = await exportRunResponse(s, runId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="arborist-run-${runId}.json"`);
    const file = (await res.json()) as RunExport;
    expect(file.run.id).toBe(runId);
    expect(file.events).toEqual(await listEvents(s.prisma, runId));
  });

  it('answers 404 with a JSON error for a missing run', async () => {
    const { s } = await setupWithRun();
    const res = await exportRunResponse(s, 'nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no run nope' });
  });

  it('keeps the file name header-safe', () => {
    expect(exportFileName('a"b\r\nc')).toBe('arborist-run-a_b__c.json');
  });
});

describe('POST /api/runs/import', () => {
  it('imports an export and answers with the new run', async () => {
    const { s, runId } = await setupWithRun();
    const text = await (await exportRunResponse(s, runId)).text();
    const res = await importRuns(s, post(text, '?tag=copy'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { kind: string; runs: { id: string; goal: string }[] };
    expect(body).toEqual({ kind: 'arborist.run', runs: [{ id: expect.any(String), goal: '4 9 10 13' }] });
    expect(body.runs[0]?.id).not.toBe(runId);
    expect((await s.prisma.run.findUnique({ where: { id: body.runs[0]?.id } }))?.importTag).toBe('copy');
  });

  it('detects a ToT log and imports every game, tagged with the file name', async () => {
    const { s } = await setupWithRun();
    const res = await importRuns(s, post(readFileSync(SAMPLE), '?name=sample.json'), {
      now: new Date('2025-01-01T00:00:00.000Z'),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { kind: string; runs: { id: string; goal: string }[] };
    expect(body.kind).toBe('tot-log');
    expect(body.runs.map((r) => r.goal)).toEqual(['4 5 6 10', '1 2 4 7', '2 5 8 11', '3 4 4 13', '6 7 8 9']);
    const tags = await s.prisma.run.findMany({ where: { id: { in: body.runs.map((r) => r.id) } } });
    expect(new Set(tags.map((t) => t.importTag))).toEqual(new Set(['tot-log:sample.json:2025-01-01T00:00:00.000Z']));
  });

  it('makes a log of many games an experiment over those games, with the log’s own outcomes and cost', async () => {
    const { s } = await setupWithRun();
    const res = await importRuns(s, post(readFileSync(SAMPLE), '?name=sample.json'));
    const body = (await res.json()) as { runs: { id: string; goal: string }[]; experimentId: string };
    expect(body.experimentId).toEqual(expect.any(String));
    const view = await s.experiments.view(body.experimentId);
    expect(view).toMatchObject({ status: 'finished', taskId: 'game24', importTag: expect.stringMatching(/^tot-log:/) });
    expect(view.name).toBe('sample.json (5 games)');
    expect(view.items.map((i) => i.goal)).toEqual(body.runs.map((r) => r.goal));
    expect(view.configurations).toHaveLength(1);
    expect(view.configurations[0]!.label).toMatch(/gpt-4/);
    const runs = await s.prisma.run.findMany({ where: { id: { in: body.runs.map((r) => r.id) } } });
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect(view.cells.map((c) => c.runId)).toEqual(body.runs.map((r) => r.id));
    for (const cell of view.cells) {
      const run = byId.get(cell.runId!)!;
      expect(cell.outcome).toBe(run.success ? 'solved' : 'failed');
      expect(cell.costUsd).toBe(run.cost);
    }
    expect(view.configurations[0]!.solved).toBe(runs.filter((r) => r.success).length);
    expect(view.configurations[0]!.costUsd).toBeCloseTo(
      runs.reduce((sum, r) => sum + r.cost, 0),
      10,
    );
    expect((await s.experiments.list()).map((e) => e.id)).toContain(body.experimentId);
  });

  it('answers 400 with the reason, and writes nothing', async () => {
    const { s, runId } = await setupWithRun();
    const text = await (await exportRunResponse(s, runId)).text();
    const before = await rowCount(s);
    const error = async (req: Request) => {
      const res = await importRuns(s, req);
      return { status: res.status, ...((await res.json()) as { error: string }) };
    };
    expect(await error(post(text.slice(0, 1234)))).toEqual({
      status: 400,
      error: expect.stringMatching(/^the file is not JSON: .+/),
    });
    expect(await error(post('{"format": "csv"}'))).toEqual({
      status: 400,
      error: "not an Arborist export: format must be 'arborist.run'",
    });
    expect(await error(post(text.replace('"seq":42,', '"seq":44,')))).toEqual({
      status: 400,
      error: 'events[41].seq: expected 42, got 44',
    });
    expect(await error(post(''))).toEqual({
      status: 400,
      error: 'the request has no body: send the JSON of an export or a ToT log',
    });
    expect(await error(post('[]', '?tag=' + 'x'.repeat(201)))).toEqual({
      status: 400,
      error: 'tag: at most 200 characters',
    });
    expect(await rowCount(s)).toBe(before);
  });

  it('answers 413 over the size limit, by header or by the bytes that arrive', async () => {
    const { s } = await setupWithRun();
    const before = await rowCount(s);
    const big = JSON.stringify({ format: 'arborist.run', padding: 'x'.repeat(2_000) });
    const declared = await importRuns(s, post(big, '', { 'content-length': String(big.length) }), {
      maxBytes: 1_000,
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'the file is larger than the 1000 bytes import limit' });
    // a streamed body without a length is counted as it arrives
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await importRuns(
      s,
      new Request('http://localhost/api/runs/import', { method: 'POST', body: stream, duplex: 'half' } as RequestInit),
      { maxBytes: 5_000 },
    );
    expect(streamed.status).toBe(413);
    expect(await rowCount(s)).toBe(before);
  });

  it('answers 429 to a second import of the same user while the first runs, and to a third import at once', async () => {
    const { s } = await setupWithRun();
    const sample = () => post(readFileSync(SAMPLE));
    const refusal = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: string }) });
    // the slot is taken before the body is read: the first call holds it from its first tick
    const alice = importRuns(s, sample(), { who: 'alice', ownerId: 'alice' });
    expect(await refusal(await importRuns(s, sample(), { who: 'alice' }))).toEqual({
      status: 429,
      error: 'an import of yours is still running: wait for it to finish',
    });
    const bob = importRuns(s, sample(), { who: 'bob', ownerId: 'bob' });
    const carol = await importRuns(s, sample(), { who: 'carol' });
    expect(carol.status).toBe(429);
    expect(carol.headers.get('retry-after')).toBe('30');
    expect((await carol.json()) as unknown).toEqual({
      error: 'the server is already running 2 imports: try again in a minute',
    });
    expect((await alice).status).toBe(200);
    expect((await bob).status).toBe(200);
    // once finished, the same user may import again
    expect((await importRuns(s, sample(), { who: 'alice' })).status).toBe(200);
    const owners = await s.prisma.run.groupBy({ by: ['ownerId'], _count: { _all: true } });
    expect(new Map(owners.map((g) => [g.ownerId, g._count._all]))).toEqual(
      new Map([
        ['alice', 5],
        ['bob', 5],
        [null, 6], // the run the test started, and local-mode's import (ownerId null)
      ]),
    );
  });

  it('answers 400 naming the field and its cap for a thought over the cap, and writes nothing', async () => {
    const { s } = await setupWithRun();
    const before = await rowCount(s);
    const log = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { steps: { new_ys: string[] }[] }[];
    log[1]!.steps[0]!.new_ys[2] = 'y'.repeat(100_001);
    const res = await importRuns(s, post(JSON.stringify(log)));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error:
        'not a usable Tree-of-Thoughts log: [1].steps[0].new_ys[2]: 100,001 characters, over the 100,000-character cap on a thought',
    });
    expect(await rowCount(s)).toBe(before);
  });
});
