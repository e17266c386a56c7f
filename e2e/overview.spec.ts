// The overview (issue 9): the whole tree as an icicle on a canvas at the bottom-right of the canvas area. A finished
// Game of 24 run of a few dozen nodes: every node has a cell; hovering a cell three levels down shows its thought;
// clicking it selects it and brings it into view; switching the colouring or the theme redraws the picture.
// data-testid used: overview, overview-canvas (data-cells, data-rows, data-colouring, data-drawn),
// overview-colouring (a select), overview-size, overview-tooltip (data-node-id), inspector-node (data-node-id),
// thought-node (data-node-id), run-status.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { E2E_BASE, mutate, ndjson } from './api';

const BASE = E2E_BASE;

interface Created {
  id: string;
  depth: number;
  thought: string;
}

/** A finished run with a few dozen nodes, opened; its nodes with their depth and thought, from its log. */
async function openRun(page: Page): Promise<{ id: string; nodes: Created[] }> {
  const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    config: { beamWidth: 3, branchFactor: 5, terminationConfidence: 1 },
    model: { provider: 'simulated', seed: 5, latencyMs: 0 },
  });
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  const depth = new Map<string, number>();
  const nodes: Created[] = [];
  for (const event of (await ndjson(BASE, id)) as ExplorationEvent[]) {
    if (event.type !== 'node.created') continue;
    const { nodeId, parentId, branch } = event.payload;
    const d = parentId === null ? 0 : (depth.get(parentId) ?? 0) + 1;
    depth.set(nodeId, d);
    nodes.push({ id: nodeId, depth: d, thought: branch?.thought ?? '' });
  }
  return { id, nodes };
}

/** A digest of the canvas's pixels (what a person sees), read back from the page. */
function picture(canvas: Locator): Promise<number> {
  return canvas.evaluate((el: HTMLCanvasElement) => {
    const data = el.getContext('2d')?.getImageData(0, 0, el.width, el.height).data ?? new Uint8ClampedArray();
    let hash = 0;
    for (let i = 0; i < data.length; i += 4)
      hash = (Math.imul(hash, 31) + data[i]! * 65536 + data[i + 1]! * 256 + data[i + 2]! + data[i + 3]!) >>> 0;
    return hash;
  });
}

/** Pixels of the canvas that are painted (not transparent). */
function painted(canvas: Locator): Promise<number> {
  return canvas.evaluate((el: HTMLCanvasElement) => {
    const data = el.getContext('2d')?.getImageData(0, 0, el.width, el.height).data ?? new Uint8ClampedArray();
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
}

/** Hovers along depth row `depth` of the overview until a cell's tooltip shows; returns that cell's node id. */
async function hoverRow(page: Page, canvas: Locator, depth: number): Promise<{ x: number; y: number; id: string }> {
  const rows = Number(await canvas.getAttribute('data-rows'));
  const box = (await canvas.boundingBox())!;
  const y = box.y + ((depth + 0.5) * box.height) / rows;
  for (let x = box.x + 2; x < box.x + box.width; x += 4) {
    await page.mouse.move(x, y);
    const tip = page.getByTestId('overview-tooltip');
    if (await tip.isVisible()) return { x, y, id: (await tip.getAttribute('data-node-id')) ?? '' };
  }
  throw new Error(`no cell in row ${depth}`);
}

test('every node has a cell; a cell three levels down shows its thought, and a click selects it and brings it into view', async ({
  page,
}) => {
  const { nodes } = await openRun(page);
  expect(nodes.filter((n) => n.depth === 3).length).toBeGreaterThan(0);
  const canvas = page.getByTestId('overview-canvas');
  await expect(canvas).toHaveAttribute('data-cells', String(nodes.length));
  await expect(canvas).toHaveAttribute('data-rows', String(Math.max(...nodes.map((n) => n.depth)) + 1));
  await expect.poll(() => painted(canvas)).toBeGreaterThan(1000);

  // zoom the canvas in, so the node we pick is not already on screen
  const zoomIn = page.getByRole('button', { name: /zoom in/i });
  for (let i = 0; i < 5; i++) await zoomIn.click();
  const viewport = page.locator('.react-flow__viewport');
  const before = await viewport.getAttribute('style');

  const { x, y, id } = await hoverRow(page, canvas, 3);
  const node = nodes.find((n) => n.id === id);
  expect(node?.depth).toBe(3);
  const tip = page.getByTestId('overview-tooltip');
  await expect(tip).toContainText(node!.thought.split('\n')[0]!.slice(0, 40));
  await expect(tip).toContainText(/subtree \d+ nodes?/);

  await page.mouse.click(x, y);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', id);
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);
  const card = page.locator(`[data-testid=thought-node][data-node-id=${id}]`);
  await expect(card).toBeInViewport();
});

test('with the overview focused, arrow keys walk the picture: down to a child, right to its neighbour, up again', async ({
  page,
}) => {
  const { nodes } = await openRun(page);
  const canvas = page.getByTestId('overview-canvas');
  await expect(canvas).toHaveAttribute('data-cells', String(nodes.length));
  const inspector = page.getByTestId('inspector-node');
  await canvas.focus();
  await page.keyboard.press('ArrowDown'); // from the root (nothing selected) to its first child
  const first = await hoverRow(page, canvas, 1); // the leftmost cell of row 1
  await expect(inspector).toHaveAttribute('data-node-id', first.id);
  await page.keyboard.press('ArrowRight');
  await expect(inspector).not.toHaveAttribute('data-node-id', first.id);
  const second = await inspector.getAttribute('data-node-id');
  expect(nodes.find((n) => n.id === second)?.depth).toBe(1);
  await page.keyboard.press('ArrowUp');
  await expect(inspector).toHaveAttribute('data-node-id', nodes.find((n) => n.depth === 0)!.id);
});

test('switching the colouring redraws the picture; the large size is bigger', async ({ page }) => {
  await openRun(page);
  const canvas = page.getByTestId('overview-canvas');
  await expect.poll(() => painted(canvas)).toBeGreaterThan(1000);
  const byStatus = await picture(canvas);
  await page.getByTestId('overview-colouring').selectOption('score');
  await expect(canvas).toHaveAttribute('data-colouring', 'score');
  await expect.poll(() => picture(canvas)).not.toBe(byStatus);
  const byScore = await picture(canvas);
  await page.getByTestId('overview-colouring').selectOption('depth');
  await expect.poll(() => picture(canvas)).not.toBe(byScore);

  const small = (await canvas.boundingBox())!;
  await page.getByTestId('overview-size').click();
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(small.width * 1.5);
});

test('the overview takes the theme’s status colours, light and dark', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openRun(page);
  const canvas = page.getByTestId('overview-canvas');
  await expect.poll(() => painted(canvas)).toBeGreaterThan(1000);
  await hoverRow(page, canvas, 2);
  const light = await picture(canvas);
  await page.screenshot({ path: test.info().outputPath('overview-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => picture(canvas)).not.toBe(light);
  await hoverRow(page, canvas, 2);
  await page.screenshot({ path: test.info().outputPath('overview-dark.png') });
});
