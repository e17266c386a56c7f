// Real size (issue 9): a run of about 10,000 nodes opens on its latest tree and its search hits are reachable;
// the runs list finds an imported Tree-of-Thoughts game by its goal.
// The big run is searched by the engine in this process and stored through the import path (importRun on the test
// server's own database file, as bench:ui does: its export passes the upload limit).
// data-testid used: run-status, canvas-lod (data-drawn), run-search-input, run-search-count, inspector-node,
// runs-search, run-row (data-run-id).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { recordRun } from '../lib/harness/index';
import { E2E_BASE } from './api';

test('a run of about 10,000 nodes opens on its latest tree, and its search hits are selected one by one on Enter', async ({
  page,
}) => {
  test.setTimeout(240_000);
  // only what recordRun reads of a bench server: where it is and its database file
  const server = { base: E2E_BASE, databaseFile: path.resolve('data/e2e.db') };
  const run = await recordRun(server, 70_000, 'e2e scale');
  expect(run.nodes).toBeGreaterThan(9_000);

  await page.goto(`/runs/${run.id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 30_000 });
  // the far-zoom canvas draws the tree (no DOM card per node at this size)
  await expect
    .poll(async () =>
      Object.keys(JSON.parse((await page.getByTestId('canvas-lod').getAttribute('data-drawn')) ?? '{}')),
    )
    .not.toHaveLength(0);

  // searched once the history is in: model responses arriving with it would add hits while the test steps
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0, { timeout: 60_000 });

  // every node of this search says one of a few thoughts: "Write the final plan" is one a node deep in the tree has
  await page.keyboard.press('/');
  await page.getByTestId('run-search-input').fill('write the final plan');
  await expect(page.getByTestId('run-search-count')).toHaveText(/^\d[\d,]* match/);
  await page.getByTestId('run-search-input').press('Enter');
  await expect(page.getByTestId('run-search-count')).toHaveText(/^1 of \d/);
  const inspector = page.getByTestId('inspector-node');
  await expect(inspector).toBeVisible();
  await expect(inspector).toContainText(/write the final plan/i);
  // the next hit is another node, as deep or deeper, also reachable
  const first = await inspector.getAttribute('data-node-id');
  await page.getByTestId('run-search-input').press('Enter');
  await expect(page.getByTestId('run-search-count')).toHaveText(/^2 of \d/);
  await expect(inspector).not.toHaveAttribute('data-node-id', first ?? '');
  await expect(inspector).toContainText(/write the final plan/i);

  // linked to the first hit, the page shows its card readable; stepping the hits from there, each one is drawn in
  // view, however far from the last it sits (React Flow is handed only the cards around the view: useElementWindow)
  await page.goto(`/runs/${run.id}?node=${first}`);
  const card = (id: string) => page.locator(`[data-testid=thought-node][data-node-id="${id}"]`);
  await expect(card(first ?? '')).toBeInViewport({ timeout: 30_000 });
  await expect(page.getByTestId('canvas-lod')).toHaveAttribute('data-level', 'card');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0, { timeout: 60_000 });
  const pane = (await page.locator('.react-flow__pane').boundingBox()) as { width: number };
  /** Where a card sits in the canvas's own coordinates, whatever the view. */
  const flowX = (id: string) =>
    page.evaluate(
      (nodeId) =>
        new DOMMatrix(getComputedStyle(document.querySelector(`.react-flow__node[data-id="${nodeId}"]`)!).transform)
          .m41,
      id,
    );
  const startX = await flowX(first ?? '');
  await page.keyboard.press('/');
  await page.getByTestId('run-search-input').fill('write the final plan');
  await expect(page.getByTestId('run-search-count')).toHaveText(/^\d[\d,]* match/);
  let farthest = 0;
  for (let hit = 1; hit <= 12 && farthest <= 2 * pane.width; hit++) {
    await page.getByTestId('run-search-input').press('Enter');
    await expect(page.getByTestId('run-search-count')).toHaveText(new RegExp(`^${hit} of `));
    const id = (await inspector.getAttribute('data-node-id')) as string;
    await expect(card(id)).toBeInViewport();
    await expect(page.getByTestId('canvas-lod')).toHaveAttribute('data-level', 'card');
    farthest = Math.max(farthest, Math.abs((await flowX(id)) - startX));
  }
  // the walk reached hits beyond the cards handed when the page opened (a pane on each side of the view)
  expect(farthest).toBeGreaterThan(2 * pane.width);
});

test('the runs list finds an imported Tree-of-Thoughts game by its goal', async ({ page }) => {
  const res = await fetch(`${E2E_BASE}/api/runs/import?name=scale-search.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: readFileSync('lib/formats/fixtures/tot-game24-gpt4-bfs-sample.json', 'utf8'),
  });
  expect(res.status).toBe(200);
  const { runs } = (await res.json()) as { runs: { id: string; goal: string }[] };
  const game = runs.find((r) => r.goal === '2 5 8 11');
  expect(game).toBeDefined();

  await page.goto('/');
  await page.getByTestId('runs-search').fill('2 5 8 11');
  const rows = page.getByTestId('run-row');
  await expect(rows.filter({ has: page.locator(`[href="/runs/${game?.id}"]`) })).toHaveCount(1);
  // the file's other games are not listed (a row may still match by its output: the search covers goal, output, tag)
  for (const other of runs.filter((r) => r.goal !== '2 5 8 11'))
    await expect(rows.filter({ has: page.locator(`[href="/runs/${other.id}"]`) })).toHaveCount(0);
});
