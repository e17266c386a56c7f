// Issue 3's path from engine to pixels: start a run from the form, watch nodes appear live, pause it and see it
// stop growing, resume it to the end.
import { expect, test } from '@playwright/test';

test('a run started from the form grows live, pauses and resumes', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New run' })).toBeVisible();
  await page.getByLabel('Puzzle').fill('4 9 10 13');
  await page.getByLabel('Seed').fill('3');
  await page.getByLabel('Latency (ms)').fill('250');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);

  const nodes = page.getByTestId('thought-node');
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await expect(nodes.first()).toBeVisible();
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
