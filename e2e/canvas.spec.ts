// The canvas at every size (issue 9): a Game of 24 search with the paper's settings (beam of 5, 8 proposals, 4
// steps) at 1280x720 shows every node's status at fit; zooming out goes card -> pill -> one canvas and back;
// the orientation switch lays depth out as columns and is remembered; a "+N more" summary opens in place; the arrow
// keys walk siblings at the zoom the person chose.
// data-testid used: canvas-lod (data-level, data-drawn), thought-node (data-level), summary-node, show-all,
// canvas-fit, orientation.
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE, mutate, ndjson, query } from './api';

test.use({ viewport: { width: 1280, height: 720 } });

let runId = '';
let nodeCount = 0;
let rootId = '';
let rootChildren: string[] = [];

test.beforeAll(async () => {
  ({ id: runId } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    config: {
      explorationStrategy: 'beam',
      beamWidth: 5,
      branchFactor: 8,
      maxDepth: 4,
      confidenceThreshold: 0,
      terminationConfidence: 1,
      maxTotalNodes: 33,
    },
    model: { provider: 'simulated', seed: 1, latencyMs: 0 },
  }));
  await expect
    .poll(async () => (await query<{ status: string }>(E2E_BASE, 'run.byId', { id: runId })).status, {
      timeout: 60_000,
    })
    .toBe('finished');
  const created = (await ndjson(E2E_BASE, runId)).filter((e) => e.type === 'node.created');
  nodeCount = created.length;
  const payloads = created.map((e) => e.payload as { nodeId: string; parentId: string | null });
  rootId = payloads.find((p) => p.parentId === null)?.nodeId ?? '';
  rootChildren = payloads.filter((p) => p.parentId === rootId).map((p) => p.nodeId);
});

const lod = (page: Page) => page.getByTestId('canvas-lod');
const drawnTotal = async (page: Page) => {
  const drawn = JSON.parse((await lod(page).getAttribute('data-drawn')) ?? '{}') as Record<string, number>;
  // dropped candidates are not nodes; every other colour is one node (the root's included)
  return Object.entries(drawn).reduce((sum, [status, n]) => sum + (status === 'dropped' ? 0 : n), 0);
};
const level = (page: Page) => lod(page).getAttribute('data-level');

async function open(page: Page) {
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(lod(page)).toHaveAttribute('data-level', /card|pill|shape/);
}

async function zoomUntil(page: Page, button: 'Zoom In' | 'Zoom Out', target: string) {
  await expect
    .poll(
      async () => {
        if ((await level(page)) === target) return target;
        await page.getByRole('button', { name: button }).click();
        return level(page);
      },
      { timeout: 20_000, intervals: [300] },
    )
    .toBe(target);
}

test('at fit, with every branch shown, the far-zoom canvas draws every node of a ~100-node run in its status colour', async ({
  page,
}) => {
  expect(nodeCount).toBeGreaterThan(80);
  await open(page);
  await page.getByTestId('canvas-view').click();
  await page.getByTestId('show-all').click();
  await expect(page.getByTestId('show-all')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('canvas-fit').click();
  await expect(lod(page)).toHaveAttribute('data-level', 'shape');
  await expect.poll(() => drawnTotal(page)).toBe(nodeCount);
  // no DOM card per node at this level
  await expect(page.getByTestId('thought-node')).toHaveCount(0);
});

test('focused by default, zooming out goes card -> pill -> canvas and back, with no DOM cards on the canvas level', async ({
  page,
}) => {
  await open(page);
  await page.getByTestId('canvas-view').click();
  await expect(page.getByTestId('show-all')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('canvas-view').click(); // closed again: the menu would cover the canvas
  await expect(page.getByTestId('summary-node').first()).toBeAttached();
  // focused, the summaries still stand for every hidden node
  await zoomUntil(page, 'Zoom In', 'card');
  await expect(page.locator('[data-testid=thought-node][data-level=card]').first()).toBeVisible();
  await expect(page.locator('[data-testid=thought-node][data-level=pill]')).toHaveCount(0);

  await zoomUntil(page, 'Zoom Out', 'pill');
  await expect(page.locator('[data-testid=thought-node][data-level=pill]').first()).toBeVisible();
  await expect(page.locator('[data-testid=thought-node][data-level=card]')).toHaveCount(0);

  await zoomUntil(page, 'Zoom Out', 'shape');
  await expect(page.getByTestId('thought-node')).toHaveCount(0);
  await expect.poll(() => drawnTotal(page)).toBeGreaterThan(0);

  // a shape shows its thought on hover and selects its node on click (hit-tested on the canvas)
  const pane = (await page.locator('.react-flow__pane').boundingBox()) as {
    x: number;
    y: number;
    width: number;
    height: number;
  };
  const tooltip = page.getByRole('tooltip');
  let found = false;
  for (let row = 0; row < 12 && !found; row++) {
    for (let col = 0; col < 16 && !found; col++) {
      await page.mouse.move(pane.x + ((col + 0.5) * pane.width) / 16, pane.y + ((row + 0.5) * pane.height) / 12);
      found = (await tooltip.isVisible()) && /^n\d+ · /.test((await tooltip.textContent()) ?? '');
    }
  }
  expect(found).toBe(true);
  const nodeId = ((await tooltip.textContent()) ?? '').split(' · ')[0] as string;
  await page.mouse.down();
  await page.mouse.up();
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', nodeId);
  await expect(lod(page)).toHaveAttribute('data-level', 'shape'); // selecting kept the view

  await zoomUntil(page, 'Zoom In', 'card');
  await expect(page.locator('[data-testid=thought-node][data-level=card]').first()).toBeVisible();
  await expect(lod(page)).toHaveAttribute('data-drawn', '{}');
});

test('the orientation switch lays depth out left to right, and is remembered', async ({ page }) => {
  await open(page);
  const card = (id: string) => page.locator(`[data-testid=thought-node][data-node-id=${id}]`);
  const visibleChild = async () => {
    for (const id of rootChildren) if (await card(id).isVisible()) return id;
    return null;
  };
  /** The root's box and the box of a child of the root on screen, after a fit has settled. */
  const boxes = async () => {
    await page.getByTestId('canvas-fit').click();
    await expect(card(rootId)).toBeVisible();
    await expect.poll(visibleChild).not.toBeNull();
    const child = (await visibleChild()) as string;
    // the fit animates: wait until two reads a couple of frames apart agree
    await expect
      .poll(async () => {
        const a = await card(rootId).boundingBox();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const b = await card(rootId).boundingBox();
        return a !== null && b !== null && a.x === b.x && a.y === b.y;
      })
      .toBe(true);
    return { root: await card(rootId).boundingBox(), child: await card(child).boundingBox() };
  };
  const orientation = page.getByTestId('orientation');
  await expect(orientation).toHaveAttribute('data-orientation', 'tb');
  const tb = await boxes();
  expect(tb.child?.y ?? 0).toBeGreaterThan((tb.root?.y ?? 0) + (tb.root?.height ?? 0));

  await orientation.click();
  await expect(orientation).toHaveAttribute('data-orientation', 'lr');
  const lr = await boxes();
  expect(lr.child?.x ?? 0).toBeGreaterThan((lr.root?.x ?? 0) + (lr.root?.width ?? 0));

  await page.reload();
  await expect(page.getByTestId('orientation')).toHaveAttribute('data-orientation', 'lr');
  await page.getByTestId('orientation').click(); // back to the default for the other tests
  await expect(page.getByTestId('orientation')).toHaveAttribute('data-orientation', 'tb');
});

test('a "+N more" summary opens in place: the branches it hid appear where it was', async ({ page }) => {
  await open(page);
  const summary = page.locator('[data-testid=summary-node]').first();
  await expect(summary).toBeVisible();
  const hidden = Number(await summary.getAttribute('data-hidden'));
  expect(hidden).toBeGreaterThan(0);
  await expect(summary).toContainText(new RegExp(`\\+${hidden} more`));
  const parent = (await summary.getAttribute('data-parent-id')) as string;
  const before = await summary.boundingBox();
  await summary.click();
  await expect(page.locator(`[data-testid=summary-node][data-parent-id=${parent}]`)).toHaveCount(0);
  // the first branch it hid now stands where the summary stood
  const events = await ndjson(E2E_BASE, runId);
  const kids = events
    .filter((e) => e.type === 'node.created')
    .map((e) => e.payload as { nodeId: string; parentId: string | null })
    .filter((p) => p.parentId === parent)
    .map((p) => p.nodeId);
  await expect
    .poll(async () => {
      for (const id of kids) {
        const box = await page.locator(`[data-testid=thought-node][data-node-id=${id}]`).boundingBox();
        if (box && before && Math.abs(box.x - before.x) < 4 && Math.abs(box.y - before.y) < 4) return true;
      }
      return false;
    })
    .toBe(true);
});

test('walking the root’s children with the arrow keys keeps card zoom and draws each one in view, across the tree', async ({
  page,
}) => {
  // each key brings the next sibling into view at the zoom the person chose: a move asked for while the last one
  // was still under way once read its zoomed-out midpoint and kept it, so a quick walk drifted out to shapes
  await page.goto(`/runs/${runId}?node=${rootId}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await page.getByTestId('canvas-view').click();
  await page.getByTestId('show-all').click();
  await page.getByTestId('canvas-view').click();
  const card = (id: string) => page.locator(`[data-testid=thought-node][data-node-id=${id}]`);
  await expect(card(rootId)).toBeInViewport();
  await expect(lod(page)).toHaveAttribute('data-level', 'card');
  const inspector = page.getByTestId('inspector-node');
  await expect(inspector).toHaveAttribute('data-node-id', rootId);
  const pane = (await page.locator('.react-flow__pane').boundingBox()) as { width: number };
  /** Where a card sits in the canvas's own coordinates, whatever the view. */
  const flowX = (id: string) =>
    page.evaluate((nodeId) => {
      const el = document.querySelector(`.react-flow__node[data-id="${nodeId}"]`) as HTMLElement;
      return new DOMMatrix(getComputedStyle(el).transform).m41;
    }, id);

  await page.keyboard.press('ArrowDown');
  const xs: number[] = [];
  for (let i = 0; i < rootChildren.length; i++) {
    const id = (await inspector.getAttribute('data-node-id')) as string;
    expect(rootChildren).toContain(id);
    await expect(card(id)).toBeInViewport();
    await expect(lod(page)).toHaveAttribute('data-level', 'card');
    xs.push(await flowX(id));
    if (i === rootChildren.length - 1) break;
    await page.keyboard.press('ArrowRight');
    await expect(inspector).not.toHaveAttribute('data-node-id', id);
  }
  // the walk crossed the tree, not a pane: more than three panes from the first child to the last
  expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(3 * pane.width);
});
