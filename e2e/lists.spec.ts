// Issue 10, the list, fork, compare and model-panel items: numbers and links that tell the truth.
// - a fork of a run on a real (non-simulated) model keeps that model, and opens with its own copy of the node
//   selected (ids are renumbered in a fork); Escape closes the fork dialog;
// - the compare page lists where two runs diverge and says "unpriced" for a model with no price;
// - the runs list with more than a page of runs sorts on the server, filters by import tag and sums the filter;
// - the model panel shows "Custom URL…" as chosen when it is.
// The real model is the test's own OpenAI-compatible server (a custom base URL: no key involved), its model unpriced.
// data-testid used: thought-node, fork-dialog, fork-model, fork-model-note, compare-diff, diverge-B, only-B,
// compare-table, runs-summary, run-row, run-row-best, run-row-tag, origin-filter, sort-best, load-more,
// field-provider, field-preset, field-baseURL.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fold, type ThoughtTree } from '../lib/engine/index';
import { game24Handler } from '../lib/tasks/testing/game24-openai';
import { startFakeOpenAI, type FakeOpenAIServer } from '../lib/models/testing';
import { E2E_BASE, mutate, ndjson, query } from './api';

interface Run {
  id: string;
  status: string;
  modelLabel: string;
  modelSettings: unknown;
  bestScore: number | null;
  verified: boolean | null;
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);

async function finished(id: string): Promise<Run> {
  await expect
    .poll(async () => (await query<Run>(E2E_BASE, 'run.byId', { id })).status, { timeout: 60_000 })
    .toBe('finished');
  return query<Run>(E2E_BASE, 'run.byId', { id });
}

async function treeOf(id: string): Promise<ThoughtTree> {
  return fold(await ndjson(E2E_BASE, id));
}

test.describe('a run on a real model: fork and compare', () => {
  test.describe.configure({ mode: 'serial' });
  let fake: FakeOpenAIServer;
  let parent: Run;

  test.beforeAll(async () => {
    fake = await startFakeOpenAI(game24Handler(7));
    const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'openai', baseUrlPreset: 'custom', baseURL: fake.baseURL, model: 'fake-24' },
    });
    parent = await finished(id);
    expect(parent.modelLabel).toContain('fake-24');
  });
  test.afterAll(async () => {
    await fake?.close();
  });

  test("a fork keeps the parent's model and opens with its own copy of the node selected; Escape closes the dialog", async ({
    page,
  }) => {
    const tree = await treeOf(parent.id);
    // a node two steps down, not numbered as its copy will be (the fork's path is n0, n1, n2)
    const deep = tree.nodeOrder.map((id) => tree.nodes[id]).find((n) => n?.depth === 2 && n.id !== 'n2');
    expect(deep).toBeDefined();
    const nodeId = deep?.id as string;
    await page.goto(`/runs/${parent.id}?node=${nodeId}`);
    await expect(page.getByTestId('run-status')).toHaveText('finished');

    const openDialog = async () => {
      await card(page, nodeId).click({ button: 'right' });
      await page.getByRole('menuitem', { name: /Fork from here/ }).click();
      await expect(page.getByTestId('fork-dialog')).toBeVisible();
    };
    await openDialog();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('fork-dialog')).toHaveCount(0);

    await openDialog();
    const dialog = page.getByTestId('fork-dialog');
    await expect(dialog.getByTestId('fork-model')).toHaveValue('parent');
    await expect(dialog.getByTestId('fork-model-note')).toContainText(parent.modelLabel);
    await expect(dialog.getByTestId('fork-model-note')).not.toContainText('simulated');
    await page.screenshot({ path: test.info().outputPath('fork-dialog.png') });
    await dialog.getByRole('button', { name: 'Start the fork' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parent.id));
    const forkId = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(new URL(page.url()).searchParams.get('node')).toBe('n2');
    await expect(page.locator('.tnode.is-selected')).toHaveAttribute('data-node-id', 'n2');
    await expect(page.locator('.tnode.is-selected')).toContainText(deep?.branch?.thought.slice(0, 12) ?? '');

    const fork = await finished(forkId);
    expect(fork.modelSettings).toEqual(parent.modelSettings);
    expect(fork.modelLabel).toBe(parent.modelLabel);
  });

  test('the compare page lists where two runs diverge and says "unpriced" for a model with no price', async ({
    page,
  }) => {
    const tree = await treeOf(parent.id);
    const first = tree.nodeOrder.map((id) => tree.nodes[id]).find((n) => n?.depth === 1);
    const edited = '13 - 4 = 9 (left: 9 9 10)';
    expect(first?.branch?.thought).not.toBe(edited);
    const { id: forkId } = await mutate<{ id: string }>(E2E_BASE, 'run.fork', {
      runId: parent.id,
      nodeId: first?.id,
      thought: edited,
    });
    await finished(forkId);

    await page.goto(`/compare?a=${parent.id}&b=${forkId}`);
    const diff = page.getByTestId('compare-diff');
    await expect(diff.getByTestId('diverge-B')).toContainText(edited);
    await expect(diff.getByTestId('diverge-B')).toContainText('depth 1');
    await expect(diff.getByTestId('only-B')).toContainText(edited);
    const costRow = page.getByTestId('compare-table').getByRole('row').filter({ hasText: /^cost/ });
    await expect(costRow).toContainText('unpriced');
    await expect(costRow).not.toContainText('$0.0000');
    await page.screenshot({ path: test.info().outputPath('compare.png') });
  });
});

test('the runs list with more than a page sorts on the server, filters by import tag and sums the filter', async ({
  page,
}) => {
  const tag = `e2e-list-${Date.now()}`;
  const body = readFileSync('lib/formats/fixtures/tot-game24-gpt4-bfs-sample.json', 'utf8');
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${E2E_BASE}/api/runs/import?tag=${tag}&name=lists-${i}.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
  }
  const all = (await query<{ items: Run[] }>(E2E_BASE, 'run.list', { limit: 200, tag })).items;
  expect(all).toHaveLength(25);
  const solved = all.filter((r) => r.verified === true).length;

  await page.goto('/');
  await page.getByTestId('origin-filter').selectOption(`tag:${tag}`);
  await expect(page).toHaveURL(new RegExp(`tag=${tag}`));
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId('runs-summary')).toContainText('25 runs');
  await expect(page.getByTestId('runs-summary')).toContainText(`solved ${solved} / 25`);
  await expect(rows.getByTestId('run-row-tag').first()).toHaveText(tag);

  // sorted by best score over all 25 (not the 20 shown): the top row holds the highest of them
  const scores = all.map((r) => r.bestScore ?? -1);
  const fmt = (score: number) => (score < 0 ? '—' : score.toFixed(2));
  await page.getByTestId('sort-best').click();
  await expect(page).toHaveURL(/sort=best&dir=desc/);
  await expect(rows.first().getByTestId('run-row-best')).toHaveText(fmt(Math.max(...scores)));
  await page.getByTestId('load-more').click();
  await expect(rows).toHaveCount(25);
  const shown = (await rows.getByTestId('run-row-best').allTextContents()).map((t) => (t === '—' ? -1 : Number(t)));
  expect(shown).toEqual([...shown].sort((a, b) => b - a));
  await page.screenshot({ path: test.info().outputPath('list.png'), fullPage: true });
  await page.getByTestId('sort-best').click();
  await expect(page).toHaveURL(/sort=best&dir=asc/);
  await expect(rows.first().getByTestId('run-row-best')).toHaveText(fmt(Math.min(...scores)));

  // the runs started here, apart from any import
  await page.getByTestId('origin-filter').selectOption('mine');
  await expect(page).toHaveURL(/origin=mine/);
  await expect(rows.first()).toBeVisible();
  await expect(rows.getByTestId('run-row-tag').filter({ hasText: tag })).toHaveCount(0);
  // the sum is the filter's: every run started here (counted by the API), never the import's 25 (whatever the
  // other specs happened to start, which may be 25 runs too)
  const mine = (await query<{ items: Run[] }>(E2E_BASE, 'run.list', { limit: 200, mine: true })).items.length;
  await expect(page.getByTestId('runs-summary')).toContainText(new RegExp(`^${mine} runs?`));
});

test('the model panel shows "Custom URL…" as chosen when it is', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('field-provider').selectOption('openai');
  await page.getByTestId('field-preset').selectOption('custom');
  await expect(page.getByTestId('field-preset')).toHaveValue('custom');
  await expect(page.getByTestId('field-baseURL')).toBeVisible();
  await page.getByTestId('field-baseURL').fill('http://gpu-box:9000/v1');
  await expect(page.getByTestId('field-preset')).toHaveValue('custom');
  await expect(page.getByTestId('field-preset').locator('option:checked')).toHaveText('Custom URL…');
  await page.getByTestId('model-picker').screenshot({ path: test.info().outputPath('model-panel.png') });
});
