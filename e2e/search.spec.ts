// Search (issue 9): in a run, the search box finds a thought three levels down, counts the hits, steps to them with
// Enter / Shift+Enter (the inspector shows the node stepped to) and Escape clears it; the runs list finds a run by a
// word of its goal; the inspector's "This branch" gives a subtree's cost and its share of the run.
// data-testid used: run-search-input, run-search-count, run-search-snippet, inspector-node (data-node-id),
// inspector-branch, inspector-branch-cost, runs-search, run-row.
import { expect, test, type Page } from '@playwright/test';
import { fold, type ThoughtNode, type ThoughtTree } from '../lib/engine/index';
import { subtreeRollups } from '../lib/layout/index';
import { searchTree } from '../lib/search/index';
import { E2E_BASE, mutate, ndjson, query } from './api';

const BASE = E2E_BASE;

/** A finished Game of 24 run of a few dozen nodes, and its tree folded from the API's log. */
async function finishedGame(): Promise<{ id: string; tree: ThoughtTree; events: Awaited<ReturnType<typeof ndjson>> }> {
  const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    config: { beamWidth: 3, branchFactor: 4, maxDepth: 4, terminationConfidence: 1 },
    model: { provider: 'simulated', seed: 3, latencyMs: 0 },
  });
  await expect
    .poll(async () => (await query<{ status: string }>(BASE, 'run.byId', { id })).status, { timeout: 30_000 })
    .toBe('finished');
  const events = await ndjson(BASE, id);
  return { id, tree: fold(events), events };
}

const inspected = (page: Page) => page.getByTestId('inspector-node');

test('search finds a thought three levels down, steps through the hits with Enter and Shift+Enter, Escape clears', async ({
  page,
}) => {
  const { id, tree, events } = await finishedGame();
  const nodes = tree.nodeOrder.map((n) => tree.nodes[n] as ThoughtNode);
  expect(nodes.length).toBeGreaterThan(20);
  // a thought at depth 3 that no other node thinks
  const target = nodes.find(
    (n) => n.depth === 3 && n.branch && nodes.filter((o) => o.branch?.thought === n.branch?.thought).length === 1,
  ) as ThoughtNode;
  const text = target.branch!.thought;
  // the hits the page must step through: the node itself, and nodes whose model answered with that text
  const hits = searchTree(tree, events, text).map((h) => h.nodeId);
  const at = hits.indexOf(target.id);
  expect(at).toBeGreaterThanOrEqual(0);

  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await page.locator('.react-flow__pane').click();
  await page.keyboard.press('/'); // focuses the box
  const box = page.getByTestId('run-search-input');
  await expect(box).toBeFocused();
  await page.keyboard.type(text.toUpperCase()); // case does not matter
  const count = page.getByTestId('run-search-count');
  await expect(count).toHaveText(`${hits.length} match${hits.length === 1 ? '' : 'es'}`);

  for (let i = 0; i <= at; i++) await box.press('Enter');
  await expect(count).toHaveText(`${at + 1} of ${hits.length}`);
  await expect(inspected(page)).toHaveAttribute('data-node-id', target.id);
  await expect(page.getByTestId('inspector-thought')).toHaveText(text);
  await expect(page.getByTestId('run-search-snippet')).toContainText(`${target.id} · thought`);
  await page.screenshot({ path: test.info().outputPath('search-stepped.png') });

  await box.press('Shift+Enter');
  const previous = hits[(at - 1 + hits.length) % hits.length] as string;
  await expect(inspected(page)).toHaveAttribute('data-node-id', previous);
  await expect(count).toHaveText(`${((at - 1 + hits.length) % hits.length) + 1} of ${hits.length}`);

  await box.press('Escape');
  await expect(box).toHaveValue('');
  await expect(count).toHaveText('');
  await expect(box).not.toBeFocused();
  // the keys are the canvas's again: Escape there clears the selection
  await page.keyboard.press('Escape');
  await expect(inspected(page)).toHaveCount(0);

  // Ctrl+F focuses the box too; a text no node says is "no match"
  await page.keyboard.press('Control+f');
  await expect(box).toBeFocused();
  await page.keyboard.type('no such thought anywhere');
  await expect(count).toHaveText('no match');
});

test('the inspector’s "This branch" gives the subtree’s cost and its share of the run', async ({ page }) => {
  const { id, tree } = await finishedGame();
  const rollups = subtreeRollups(tree);
  const branch = tree.nodes[tree.rootId!]!.childIds.map((c) => tree.nodes[c] as ThoughtNode).find(
    (n) => n.childIds.length > 0,
  ) as ThoughtNode;
  const rollup = rollups.get(branch.id)!;
  const share = Math.round((rollup.cost / tree.usage.cost) * 100);
  expect(share).toBeGreaterThan(0);

  await page.goto(`/runs/${id}?node=${branch.id}`);
  await expect(inspected(page)).toHaveAttribute('data-node-id', branch.id);
  const section = page.getByTestId('inspector-branch');
  await expect(section).toContainText(`${rollup.nodes} nodes`);
  await expect(page.getByTestId('inspector-branch-cost')).toHaveText(/^\$0\.\d+$/);
  await expect(section).toContainText(`${share}% of the run`);
  await expect(page.getByTestId('inspector-branch-verified')).toHaveText(String(rollup.verifiedAnswers));
  await section.scrollIntoViewIfNeeded();
});

test('the runs list finds a run by a word of its goal', async ({ page }) => {
  const word = `quokka${Date.now().toString(36)}`;
  const other = `wombat${Date.now().toString(36)}`;
  const create = (goal: string) =>
    mutate<{ id: string }>(BASE, 'run.create', {
      taskId: 'open-goal',
      goal,
      config: { maxTotalNodes: 3 },
      model: { provider: 'simulated', seed: 1, latencyMs: 0 },
    });
  const wanted = await create(`Name a pet ${word} for a lighthouse keeper`);
  await create(`Name a pet ${other} for a lighthouse keeper`);

  await page.goto('/');
  await page.getByTestId('runs-search').fill(word.slice(0, -2)); // a prefix is enough
  const rows = page.getByTestId('run-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-run-id', wanted.id);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word.slice(0, -2)}`));

  // a word no run has: the filtered empty state, and Clear filters brings every run back
  await page.getByTestId('runs-search').fill('"NEAR( zzzznothing');
  await expect(page.getByTestId('runs-empty-filtered')).toBeVisible();
  await page.getByTestId('clear-filters').click();
  await expect(page.getByTestId('runs-search')).toHaveValue('');
  await expect(rows.nth(1)).toBeVisible();
});
