// Issue 12's cost cap from the form to the header: a run started with a small cap stops on its own with finish
// reason 'budget' before passing it, the header says why and shows the cap, and the stored run agrees. A wrong cap
// is refused beside its field before anything is sent.
import { expect, test } from '@playwright/test';
import { E2E_BASE, query } from './api';

test('a run with a cost cap stops at it, and the page says so', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'New run' })).toBeVisible();
  await page.getByLabel('Puzzle').fill('4 9 10 13');
  await page.getByLabel('Latency (ms)').fill('0');

  // a cap of 0 is refused where it was typed
  await page.getByTestId('field-maxCostUsd').fill('0');
  await expect(page.getByTestId('error-maxCostUsd')).toHaveText('Must be more than 0');

  // the simulated model is priced like a small hosted one: about $0.0001 a call, so a few calls fit
  await page.getByTestId('field-maxCostUsd').fill('0.0005');
  await expect(page.getByTestId('error-maxCostUsd')).toHaveCount(0);
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
  const runId = new URL(page.url()).pathname.split('/').at(-1) as string;

  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  await expect(page.getByTestId('run-budget')).toContainText('Stopped: the cost cap of $0.0005 was reached');
  await expect(page.getByTestId('stat-cost-cap')).toHaveText(' of $0.0005');
  await page.screenshot({ path: test.info().outputPath('models-budget.png') });

  const run = await query<{ finishReason: string; cost: number; config: { maxCostUsd: number } }>(
    E2E_BASE,
    'run.byId',
    { id: runId },
  );
  expect(run.finishReason).toBe('budget');
  expect(run.config.maxCostUsd).toBe(0.0005);
  expect(run.cost).toBeGreaterThan(0);
  expect(run.cost).toBeLessThanOrEqual(0.0005);
});
