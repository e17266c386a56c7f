// Issue 3's path from engine to pixels: start a run from the form, watch nodes appear live, pause it and see it
// stop growing, resume it to the end. Issue 30's: a beam run with latency shows its calls in flight in the header
// while it runs (within the limit set in the form), and a node's calls on its waterfall once they ran. Follow live
// is on while the run goes on, and off (disabled, saying why) once it has ended.
import { expect, test } from '@playwright/test';

test('a run started from the form grows live, pauses and resumes', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New run' })).toBeVisible();
  await page.getByLabel('Puzzle').fill('4 9 10 13');
  await page.getByLabel('Seed').fill('3');
  await page.getByLabel('Latency (ms)').fill('250');
  // one call at a time (the search before calls ran together), so the run lasts long enough to watch it grow
  await page.getByLabel('Calls in flight').fill('1');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);

  const nodes = page.getByTestId('thought-node');
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(nodes.first()).toBeVisible();
  // the canvas follows the activity while the run goes on
  const follow = page.getByTestId('follow-live');
  await expect(follow).toBeEnabled();
  await expect(follow).toHaveAttribute('aria-pressed', 'true');
  // more nodes arrive while we watch
  const early = await nodes.count();
  await expect.poll(() => nodes.count(), { timeout: 20_000 }).toBeGreaterThan(early);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const explored = await page.getByTestId('stat-explored').textContent();
  const atPause = await nodes.count();
  await page.waitForTimeout(1_500);
  expect(await nodes.count()).toBe(atPause);
  expect(await page.getByTestId('stat-explored').textContent()).toBe(explored);

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  expect(await nodes.count()).toBeGreaterThan(atPause);
  // nothing more will come: the toggle is off and says why, rather than showing a follow that does nothing
  await expect(follow).toBeDisabled();
  await expect(follow).toHaveAttribute('aria-pressed', 'false');
  await expect(follow).toHaveAttribute('title', /ended/);
});

test('a beam run shows its calls in flight while it runs, and a node’s calls on one time axis', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Puzzle').fill('4 9 10 13');
  await page.getByLabel('Seed').fill('1');
  await page.getByLabel('Latency (ms)').fill('300');
  await page.getByLabel('Branch factor').fill('5');
  await page.getByLabel('Beam width').fill('5');
  await page.getByLabel('Max depth').fill('3');
  await page.getByLabel('Calls in flight').fill('4');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);

  // beside the status while it runs: a level's evaluations answer together, never more than the run's limit
  const inFlight = page.getByTestId('calls-in-flight');
  await expect(inFlight).toHaveText(/^\s*\d+ calls? in flight$/);
  await expect
    .poll(async () => Number(await inFlight.getAttribute('data-count')), { timeout: 20_000 })
    .toBeGreaterThan(1);
  expect(Number(await inFlight.getAttribute('data-count'))).toBeLessThanOrEqual(4);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  await expect(inFlight).toHaveCount(0); // only while it runs

  // the root's expansion: its generation, then its candidates' evaluations side by side on the node's axis
  await page.getByTestId('thought-node').first().click();
  const inspector = page.getByTestId('inspector-node');
  await expect(inspector).toHaveAttribute('data-node-id', 'n0');
  await expect(inspector.locator('[data-key=maxConcurrentCalls]')).toHaveText(/calls in flight\s*4/);
  const waterfall = page.getByTestId('inspector-waterfall');
  await expect(waterfall).toContainText(/up to [2-4] at once/);
  await expect(page.getByTestId('inspector-calls-loading')).toHaveCount(0);
  const rows = waterfall.getByTestId('waterfall-row');
  await expect(rows).toHaveCount(await page.getByTestId('inspector-model-call').count());
  await expect(rows.first()).toHaveAttribute('data-purpose', 'generate');
  await expect(rows.first()).toContainText(/^generate\s*\+0 ms\s*[\d.]+ m?s$/);
  await expect(rows.nth(1)).toHaveAttribute('data-purpose', 'evaluate');
  await expect(rows.nth(1)).toContainText(/^evaluate\s*\+[\d.]+ m?s\s*[\d.]+ m?s$/);
  await expect(waterfall.locator('[data-testid=waterfall-row][data-failed=true]')).toHaveCount(0);
});

test('the form says what is wrong beside the field', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Puzzle').fill('1 2 3');
  await page.getByRole('button', { name: 'Start run' }).click();
  await expect(page.locator('.field-error').first()).toContainText(/four/i);
  await expect(page).toHaveURL(/\/$/);
});

test('the runs page lists finished runs, and a run opens on its tree', async ({ page }) => {
  await page.goto('/?status=finished&task=game24');
  const table = page.getByTestId('runs-table');
  await expect(table).toContainText('4 9 10 13');
  await table.getByRole('link', { name: '4 9 10 13' }).first().click();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.locator('[data-testid=thought-node]').first()).toBeVisible();
});
