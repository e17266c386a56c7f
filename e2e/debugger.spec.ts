// The debugger's canvas and steering (issue 4): a live Game of 24 run grows; a person prunes a branch (it never
// runs afterwards), expands a node again (new children), steps, and moves around with the keyboard.
// data-testid used: thought-node (data-node-id, data-status), fold-node, run-status, node-menu, mark-expand.
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { demoRunId, mutate, ndjson, E2E_BASE } from './api';

const BASE = E2E_BASE;

async function startRun(page: Page, latencyMs: number, seed = 3): Promise<string> {
  const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    // one call at a time: a level's calls run together otherwise, and the run would end before it is watched
    config: { beamWidth: 2, maxConcurrentCalls: 1 },
    model: { provider: 'simulated', seed, latencyMs },
  });
  await page.goto(`/runs/${id}`);
  return id;
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);

async function pauseAfter(page: Page, id: string, predicate: (events: ExplorationEvent[]) => boolean) {
  await expect.poll(async () => predicate(await ndjson(BASE, id)), { timeout: 30_000 }).toBe(true);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
}

test('a live Game of 24 run grows on the canvas, one running node at a time', async ({ page }) => {
  await startRun(page, 250);
  const nodes = page.getByTestId('thought-node');
  await expect(nodes.first()).toBeVisible();
  await expect(page.locator('[data-testid=thought-node][data-status=running]')).toHaveCount(1, { timeout: 15_000 });
  const seen = await nodes.count();
  await expect.poll(() => nodes.count(), { timeout: 20_000 }).toBeGreaterThan(seen);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  await expect(page.locator('[data-testid=thought-node][data-status=running]')).toHaveCount(0);
});

test('a pruned branch never runs afterwards and stays marked as pruned by a person', async ({ page }) => {
  const id = await startRun(page, 300);
  // pause once the root has its children, then prune the second one (queued, not yet run)
  await pauseAfter(page, id, (events) => events.some((e) => e.type === 'node.expanded' && e.payload.nodeId === 'n0'));
  const events = await ndjson(BASE, id);
  const started = new Set(
    events.filter((e) => e.type === 'node.started').map((e) => (e.payload as { nodeId: string }).nodeId),
  );
  const queued = events
    .filter((e) => e.type === 'node.queued' && e.payload.mode === 'execute')
    .map((e) => (e.payload as { nodeId: string }).nodeId);
  const target = queued.find((n) => !started.has(n)) as string;
  expect(target).toMatch(/^n\d+$/); // a queued child that has not run yet

  await card(page, target).click({ button: 'right' });
  await page
    .getByTestId('node-menu')
    .getByRole('menuitem', { name: /Prune branch/ })
    .click();
  // shown at once, then confirmed by the log; folded with the other dead ends unless selected
  await expect(card(page, target)).toHaveAttribute('data-status', 'pruned');
  await expect(card(page, target)).toContainText('pruned by person');

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  const log = await ndjson(BASE, id);
  const pruneSeq = log.find((e) => e.type === 'steer.prune')?.seq ?? 0;
  expect(pruneSeq).toBeGreaterThan(0);
  expect(log.filter((e) => e.seq > pruneSeq && e.type === 'node.started' && e.payload.nodeId === target)).toEqual([]);
  // still selected, so shown; once deselected it folds in with its parent's other dead ends
  await expect(card(page, target)).toContainText('pruned by person');
  await page.keyboard.press('Escape');
  await expect(card(page, target)).toHaveCount(0);
  await expect(page.getByTestId('fold-node').filter({ hasText: /\d+ pruned/ })).not.toHaveCount(0);
});

test('expand again gives a node fresh children; step runs exactly one step', async ({ page }) => {
  const id = await startRun(page, 300);
  await pauseAfter(page, id, (events) => events.filter((e) => e.type === 'node.completed').length >= 1);
  const completed = (await ndjson(BASE, id)).filter((e) => e.type === 'node.completed');
  const nodeId = (completed[0]?.payload as { nodeId: string }).nodeId;
  const before = (await ndjson(BASE, id)).filter(
    (e) => e.type === 'node.created' && e.payload.parentId === nodeId,
  ).length;

  // select it (by link: where the pause lands decides whether the node is still open on the canvas or folded into
  // its parent's "+N more" card; a selected node is always open), expand with the keyboard, then one step runs it
  await page.goto(`/runs/${id}?node=${nodeId}`);
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  // the link selected it (the page's keys act on the selected node); no click on the card, which the canvas may be
  // moving into view on a loaded machine (CI once saw it never hold still for 90 s)
  await expect(card(page, nodeId)).toHaveClass(/is-selected/);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', nodeId);
  await page.keyboard.press('e');
  await expect(card(page, nodeId).getByTestId('mark-expand')).toBeVisible(); // the person's action, on the node
  const startsBefore = (await ndjson(BASE, id)).filter((e) => e.type === 'node.started').length;
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(async () => (await ndjson(BASE, id)).filter((e) => e.type === 'run.paused').length).toBe(1);
  const log = await ndjson(BASE, id);
  expect(log.filter((e) => e.type === 'node.started').length).toBe(startsBefore + 1);
  const step = log.filter((e) => e.type === 'node.started').at(-1);
  expect(step?.payload).toEqual({ nodeId, mode: 'expand' });
  // a fresh generation for that node: each candidate becomes a child or is dropped below the threshold, with its
  // score (which of the two depends on where the pause landed, so the test counts both)
  const stepAt = step?.seq ?? 0;
  const generated = log.find((e) => e.seq > stepAt && e.type === 'branches.generated' && e.payload.nodeId === nodeId);
  const fresh = (generated?.payload as { branches: unknown[] } | undefined)?.branches.length ?? 0;
  expect(fresh).toBeGreaterThan(0);
  const children = log.filter((e) => e.type === 'node.created' && e.payload.parentId === nodeId).length;
  const dropped = log.filter((e) => e.seq > stepAt && e.type === 'candidate.dropped' && e.payload.nodeId === nodeId);
  expect(children - before + dropped.length).toBe(fresh);
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await page.getByRole('button', { name: 'Abort' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
});

test('the keyboard moves between parent, children and siblings, and lists its keys', async ({ page }) => {
  await page.goto(`/runs/${await demoRunId(BASE)}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  const selected = page.locator('.tnode.is-selected');
  await page.locator('.react-flow__pane').click();
  await page.keyboard.press('ArrowDown'); // nothing selected: the root
  await expect(selected).toHaveAttribute('data-node-id', 'n0');
  await page.keyboard.press('ArrowDown');
  await expect(selected).toHaveAttribute('data-node-id', 'n1');
  await page.keyboard.press('ArrowRight');
  await expect(selected).toHaveAttribute('data-node-id', 'n2');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowDown');
  await expect(selected).toHaveAttribute('data-node-id', 'n3');
  await page.keyboard.press('ArrowUp');
  await expect(selected).toHaveAttribute('data-node-id', 'n1');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toContainText('prune the selected branch');
  await page.keyboard.press('Escape');
});

for (const [width, height] of [
  [1280, 800],
  [1920, 1080],
] as const) {
  test(`the run page at ${width}x${height}`, async ({ page }, info) => {
    await page.setViewportSize({ width, height });
    await page.goto(`/runs/${await demoRunId(BASE)}`);
    await expect(page.getByTestId('run-status')).toHaveText('finished');
    await page.locator('[data-testid=thought-node][data-node-id=n3]').click();
    await page.waitForTimeout(400);
    // nothing overlaps the header: its controls stay inside the viewport
    const box = await page.getByRole('button', { name: 'Abort' }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: info.outputPath(`run-page-${width}x${height}.png`) });
    await page.screenshot({ path: `test-results/screens/run-page-${width}x${height}.png` });
  });
}
