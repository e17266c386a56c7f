// The run page fits the window (issue 9): at 1280x720 the canvas gets most of the screen, the side drawer
// (Inspector | Events) collapses to a rail by click or key and remembers how it was left, at 800 px nothing scrolls
// sideways and the header keeps the status, the task and the commands, and at every size, light and dark, the
// header stays one row. Screenshots go to test-results/screens/layout-*.png.
// data-testid used: run-status, run-header, run-drawer (data-open, data-tab), drawer-toggle, drawer-tab-inspector,
// drawer-tab-events, drawer-resizer, inspector, event-log, event-row, run-more, run-more-panel.
import { expect, test, type Page } from '@playwright/test';
import { demoRunId, mutate, query, E2E_BASE } from './api';

async function openDemo(page: Page) {
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByTestId('thought-node').first()).toBeVisible();
}

async function canvasBox(page: Page) {
  const box = await page.locator('.run-canvas').boundingBox();
  if (!box) throw new Error('no canvas on the page');
  return box;
}

const drawer = (page: Page) => page.getByTestId('run-drawer');

test('at 1280x720 the canvas gets most of the window, with the drawer open or collapsed', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDemo(page);
  await expect(drawer(page)).toHaveAttribute('data-open', 'true'); // a wide window: docked and open at first
  await expect(page.getByTestId('inspector')).toBeVisible();

  // the header is one row (a button's height plus padding), not two or three
  const header = await page.getByTestId('run-header').boundingBox();
  expect(header?.height).toBeLessThanOrEqual(52);
  const open = await canvasBox(page);
  expect(open.height).toBeGreaterThanOrEqual(450);
  expect(open.width).toBeGreaterThanOrEqual(800);

  await page.getByTestId('drawer-toggle').click();
  await expect(drawer(page)).toHaveAttribute('data-open', 'false');
  await expect(page.getByTestId('inspector')).toBeHidden();
  await expect.poll(async () => (await canvasBox(page)).width).toBeGreaterThanOrEqual(1200);
  const closed = await canvasBox(page);
  expect(closed.height).toBeGreaterThanOrEqual(450);
  expect((closed.width * closed.height) / (1280 * 720)).toBeGreaterThanOrEqual(0.6);
});

test('the drawer toggles by click and key, switches tabs, and opens the way it was left', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openDemo(page);
  await page.locator('.react-flow__pane').click();

  await page.keyboard.press('d');
  await expect(drawer(page)).toHaveAttribute('data-open', 'false');
  await page.keyboard.press('d');
  await expect(drawer(page)).toHaveAttribute('data-open', 'true');

  // the Events tab shows the log; the tree's arrow keys do not move the tabs, the tabs' arrows do not move the tree
  await page.getByTestId('drawer-tab-events').click();
  await expect(drawer(page)).toHaveAttribute('data-tab', 'events');
  await expect(page.getByTestId('event-row').first()).toBeVisible();
  await expect(page.getByTestId('inspector')).toBeHidden();
  await page.keyboard.press('ArrowLeft');
  await expect(drawer(page)).toHaveAttribute('data-tab', 'inspector');
  await expect(page.getByTestId('drawer-tab-inspector')).toBeFocused();
  await expect(page.locator('.tnode.is-selected')).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(drawer(page)).toHaveAttribute('data-tab', 'events');

  // i brings the inspector and puts focus in it; closing with focus inside hands focus to the drawer's toggle
  await page.keyboard.press('i');
  await expect(drawer(page)).toHaveAttribute('data-tab', 'inspector');
  await expect(page.locator('#run-drawer-panel-inspector')).toBeFocused();
  await page.keyboard.press('d');
  await expect(drawer(page)).toHaveAttribute('data-open', 'false');
  await expect(page.getByTestId('drawer-toggle')).toBeFocused();

  // a tab on the collapsed rail opens the drawer on that tab
  await page.getByTestId('drawer-tab-events').click();
  await expect(drawer(page)).toHaveAttribute('data-open', 'true');
  await expect(drawer(page)).toHaveAttribute('data-tab', 'events');

  // remembered across a reload: collapsed stays collapsed, and the tab is kept
  await page.getByTestId('drawer-toggle').click();
  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(drawer(page)).toHaveAttribute('data-open', 'false');
  await page.getByTestId('drawer-toggle').click();
  await expect(drawer(page)).toHaveAttribute('data-tab', 'events');
});

test('dragging the drawer edge resizes it, and the width is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDemo(page);
  const before = await drawer(page).boundingBox();
  const handle = await page.getByTestId('drawer-resizer').boundingBox();
  if (!before || !handle) throw new Error('no drawer');
  const x = handle.x + handle.width / 2;
  const y = handle.y + 200;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - 60, y, { steps: 3 });
  await page.mouse.move(x - 120, y, { steps: 3 });
  await page.mouse.up();
  const width = async () => Math.round((await drawer(page).boundingBox())?.width ?? 0);
  // the edge follows the pointer (to a pixel: the handle's middle is where the drag starts)
  await expect.poll(async () => Math.abs((await width()) - (before.width + 120))).toBeLessThanOrEqual(2);
  const dragged = await width();
  const canvasAfter = await canvasBox(page);
  expect(canvasAfter.x + canvasAfter.width).toBeLessThanOrEqual(1440 - dragged + 1);

  await page.reload();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect.poll(width).toBe(dragged);
  // the keyboard resizes it too, from its edge
  await page.getByTestId('drawer-resizer').focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(width).toBe(dragged - 16);
});

test('at 800x700 nothing scrolls sideways, the header keeps status, task and commands, the drawer overlays', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 700 });
  await openDemo(page);
  const header = page.getByTestId('run-header');
  await expect(page.getByTestId('run-status')).toBeVisible();
  await expect(header.getByRole('heading', { level: 1 })).toBeVisible();
  for (const name of ['Pause', 'Step', 'Abort']) await expect(header.getByRole('button', { name })).toBeVisible();
  const noSideScroll = () =>
    page.evaluate(() => (document.scrollingElement?.scrollWidth ?? Infinity) <= window.innerWidth);
  expect(await noSideScroll()).toBe(true);
  expect((await header.boundingBox())?.height).toBeLessThanOrEqual(52);

  // a narrow window starts with the drawer collapsed; opened, it lies over the canvas instead of squeezing it
  await expect(drawer(page)).toHaveAttribute('data-open', 'false');
  const before = await canvasBox(page);
  expect(before.width).toBeGreaterThanOrEqual(740);
  await page.getByTestId('drawer-toggle').click();
  await expect(page.getByTestId('inspector')).toBeVisible();
  const after = await canvasBox(page);
  expect(after.width).toBe(before.width);
  expect(await noSideScroll()).toBe(true);

  // what left the header is in its "more" panel, which Escape closes
  await page.getByTestId('run-more').click();
  const more = page.getByTestId('run-more-panel');
  await expect(more).toContainText('model');
  await expect(more.getByTestId('copy-link')).toBeVisible();
  await more.getByTestId('copy-link').hover({ trial: true }); // on top: not under the drawer lying over the canvas
  await page.keyboard.press('Escape');
  await expect(more).toHaveCount(0);
  await expect(page.getByTestId('run-more')).toBeFocused();
});

/** A bigger run than the demo: an open goal searched best-first up to 60 nodes, on the offline model. */
async function bigRun(): Promise<string> {
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
    taskId: 'open-goal',
    goal: 'Plan a week of meals for a family of four on a tight budget, with one vegetarian day and no fish',
    // never stops early: 60 nodes run (about 90 created)
    config: {
      explorationStrategy: 'best-first',
      maxTotalNodes: 60,
      maxDepth: 5,
      branchFactor: 3,
      terminationConfidence: 1,
      confidenceThreshold: 0.3,
    },
    model: { provider: 'simulated', seed: 7, latencyMs: 0 },
  });
  await expect
    .poll(async () => (await query<{ status: string }>(E2E_BASE, 'run.byId', { id })).status, { timeout: 60_000 })
    .toBe('finished');
  return id;
}

test('at every size, light and dark, the page fits: one header row, no sideways scroll', async ({ page }) => {
  test.setTimeout(180_000);
  const runs = { demo: await demoRunId(E2E_BASE), big: await bigRun() };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, height] of [
      [1280, 720],
      [800, 700],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, id] of Object.entries(runs)) {
        await page.goto(`/runs/${id}`);
        await expect(page.getByTestId('run-status')).toHaveText('finished');
        await expect(page.getByTestId('thought-node').first()).toBeVisible();
        expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Infinity)).toBeLessThanOrEqual(
          width,
        );
        expect((await page.getByTestId('run-header').boundingBox())?.height).toBeLessThanOrEqual(52);
        const abort = await page.getByRole('button', { name: 'Abort' }).boundingBox();
        expect(abort && abort.x + abort.width).toBeLessThanOrEqual(width);
        const shot = `test-results/screens/layout-${name}-${width}x${height}-${scheme}`;
        await page.screenshot({ path: `${shot}.png` });
        // and with a node in the inspector (on a narrow window, the drawer opened over the canvas)
        // (a node on screen: a big tree opens focused, its other branches folded into "+N more" cards)
        await page.locator('[data-testid=thought-node]:not([data-node-id=n0])').first().click();
        if (width < 1000) await page.getByTestId('drawer-toggle').click();
        await expect(page.getByTestId('inspector-node')).toBeVisible();
        expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Infinity)).toBeLessThanOrEqual(
          width,
        );
        await page.screenshot({ path: `${shot}-selected.png` });
        await page.evaluate(() => localStorage.clear()); // the next size starts from its own default
      }
    }
  }
});
