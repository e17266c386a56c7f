// Export and import over HTTP against the production server: the demo run exported and imported again is the same
// log under a new id; the Tree-of-Thoughts GPT-4 sample becomes 5 runs whose answers are verified as the log's r
// says; a wrong file is refused with its reason and writes nothing. (The drop zone and the export button are
// components the run and runs pages mount; their own checks belong with those pages.)
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { fold, type ThoughtNode } from '../lib/engine/index';
import { demoRunId, query, E2E_BASE } from './api';

const SAMPLE = 'lib/formats/fixtures/tot-game24-gpt4-bfs-sample.json';

interface RunExport {
  format: string;
  run: { id: string; goal: string; status: string };
  events: ExplorationEvent[];
}
interface RunRow {
  id: string;
  goal: string;
  status: string;
  verified: boolean | null;
  importTag: string | null;
}
interface ImportAnswer {
  kind?: string;
  runs?: { id: string; goal: string }[];
  error?: string;
}

async function exportOf(base: string, id: string): Promise<RunExport> {
  const res = await fetch(`${base}/api/runs/${id}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="arborist-run-${id}.json"`);
  return (await res.json()) as RunExport;
}

async function postImport(base: string, body: string, query = ''): Promise<{ status: number; answer: ImportAnswer }> {
  const res = await fetch(`${base}/api/runs/import${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, answer: (await res.json()) as ImportAnswer };
}

/** How many runs the server holds (the summary counts them all; a page of the list would stop at its limit). */
async function runCount(base: string): Promise<number> {
  return (await query<{ runs: number }>(base, 'run.summary', {})).runs;
}

async function demoRun(base: string): Promise<RunRow> {
  let demo: RunRow | undefined;
  await expect
    .poll(
      async () => {
        // the runs started here with its goal (the server's runs list holds every spec's runs, experiments' too)
        const started = (await query<{ items: RunRow[] }>(base, 'run.list', { limit: 200, mine: true, q: '4 9 10 13' }))
          .items;
        // a finished one: another spec's run of the same goal may be left paused or running
        demo =
          started.find((r) => r.goal === '4 9 10 13' && r.importTag === null && r.status === 'finished') ??
          started.find((r) => r.goal === '4 9 10 13' && r.importTag === null);
        return demo?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('finished');
  return demo as RunRow;
}

const withoutRunId = (events: ExplorationEvent[]) => events.map(({ runId: _runId, ...rest }) => rest);

test('the demo run exported and imported again has the same events under a new id', async ({ baseURL }) => {
  const base = baseURL as string;
  const demo = await demoRun(base);
  const file = await exportOf(base, demo.id);
  expect(file).toMatchObject({ format: 'arborist.run', run: { id: demo.id, status: 'finished' } });

  const { status, answer } = await postImport(base, JSON.stringify(file), '?tag=e2e-copy');
  expect(status).toBe(200);
  expect(answer.runs).toEqual([{ id: expect.any(String), goal: '4 9 10 13' }]);
  const copyId = answer.runs?.[0]?.id as string;
  expect(copyId).not.toBe(demo.id);

  const copy = await exportOf(base, copyId);
  expect(copy.events.length).toBe(file.events.length);
  expect(copy.events.every((e) => e.runId === copyId)).toBe(true);
  expect(withoutRunId(copy.events)).toEqual(withoutRunId(file.events)); // types, payloads, seqs and times
  const row = await query<RunRow>(base, 'run.byId', { id: copyId });
  expect(row).toMatchObject({ status: 'finished', verified: demo.verified, importTag: 'e2e-copy' });
});

test("the ToT GPT-4 sample becomes 5 runs whose answers are verified as the log's r says", async ({ baseURL }) => {
  const base = baseURL as string;
  const text = readFileSync(SAMPLE, 'utf8');
  const log = JSON.parse(text) as { infos: { r: number }[] }[];
  const { status, answer } = await postImport(base, text, '?name=tot-sample.json');
  expect(status).toBe(200);
  expect(answer.kind).toBe('tot-log');
  expect(answer.runs?.map((r) => r.goal)).toEqual(['4 5 6 10', '1 2 4 7', '2 5 8 11', '3 4 4 13', '6 7 8 9']);

  for (const [g, run] of (answer.runs ?? []).entries()) {
    const file = await exportOf(base, run.id);
    const tree = fold(file.events);
    // the final candidates, in the order they ran: the game's ys
    const finals = file.events
      .filter((e) => e.type === 'node.completed')
      .map((e) => tree.nodes[(e.payload as { nodeId: string }).nodeId] as ThoughtNode)
      .filter((n) => n.depth === 4);
    const right = finals.map((n) => (n.result?.isAnswer && n.verification?.passed ? 1 : 0));
    expect(right).toEqual(log[g]?.infos.map((i) => i.r));
    const row = await query<RunRow>(base, 'run.byId', { id: run.id });
    expect(row.status).toBe('finished');
    expect(row.importTag).toMatch(/^tot-log:tot-sample\.json:/);
    expect(row.verified).toBe(log[g]?.infos[0]?.r === 1); // the best final candidate is the first of ys here
  }
});

test('a wrong file is refused with its reason and writes nothing', async ({ baseURL }) => {
  const base = baseURL as string;
  const demo = await demoRun(base);
  const file = await exportOf(base, demo.id);
  const before = await runCount(base);

  const gap = structuredClone(file);
  (gap.events[41] as ExplorationEvent).seq = 44;
  expect(await postImport(base, JSON.stringify(gap))).toEqual({
    status: 400,
    answer: { error: 'events[41].seq: expected 42, got 44' },
  });
  const truncated = await postImport(base, JSON.stringify(file).slice(0, 1234));
  expect(truncated.status).toBe(400);
  expect(truncated.answer.error).toMatch(/^the file is not JSON: /);
  expect(await postImport(base, JSON.stringify({ format: 'csv' }))).toEqual({
    status: 400,
    answer: { error: "not an Arborist export: format must be 'arborist.run'" },
  });
  const missing = await fetch(`${base}/api/runs/no-such-run/export`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: 'no run no-such-run' });

  expect(await runCount(base)).toBe(before);
});

test('the runs page imports a ToT log dropped on it, and the imported runs open', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('import-file-input').setInputFiles(SAMPLE);
  const status = page.getByTestId('import-status');
  const runs = status.getByRole('listitem').getByRole('link');
  await expect(runs).toHaveCount(5, { timeout: 30_000 });
  // the five games are one experiment as well
  await expect(status.getByTestId('import-experiment')).toBeVisible();
  await runs.first().click();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.locator('[data-testid=thought-node]').first()).toBeVisible();
  await expect(page.getByTestId('run-header')).toContainText('gpt-4');
});

test('the run page exports the run it shows', async ({ page }) => {
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-run').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^arborist-run-.*\.json$/);
});
