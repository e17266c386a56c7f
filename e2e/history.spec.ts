// A run's page is usable from its latest tree before its history has arrived: the tree is drawn, the timeline and
// the event log say the history is loading, and a shared step opens once the history reaches it. History comes
// light (model calls without their prompts); an opened model call fetches its prompt.
//
// data-testid hooks used here: thought-node, timeline-position, timeline-loading, event-log-loading,
// inspector-model-call (data-seq), inspector-prompt-loading.
import { expect, test } from '@playwright/test';
import { demoRunId, E2E_BASE } from './api';

test('a run is drawn from its latest tree while its history is held back, and a shared step opens after', async ({
  page,
}) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.endsWith('/history.ndjson'),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}?step=40&node=n2`);

  await expect(page.locator('[data-testid=thought-node]').first()).toBeVisible();
  await expect(page.getByTestId('timeline-loading')).toBeVisible();
  await page.getByTestId('drawer-tab-events').click(); // the event log is the drawer's second tab
  await expect(page.getByTestId('event-log-loading')).toBeVisible();
  await expect(page).toHaveURL(/step=40/); // the link keeps its step while it cannot be shown yet

  release();
  await expect(page.getByTestId('timeline-position')).toContainText('step 40 /');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  await expect(page.getByTestId('event-log-loading')).toHaveCount(0);
  // the log, open since before its rows arrived, is at the link's step
  const current = page.locator('[data-testid=event-row][data-current]');
  await expect(current).toHaveAttribute('data-seq', '40');
  await expect(current).toBeInViewport();
  await expect(page).toHaveURL(/step=40/);
  await expect(page).toHaveURL(/node=n2/);
});

test('an opened model call shows its prompt, fetched whole (history holds it light)', async ({ page }) => {
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}?node=n1`);
  await expect(page.getByTestId('timeline-position')).not.toContainText('/ 0');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  const call = page.getByTestId('inspector-model-call').first();
  await call.locator('summary').click();
  await expect(call).toContainText('Prompt ·');
  await expect(call).toContainText('user');
  await expect(call.getByTestId('inspector-prompt-loading')).toHaveCount(0);
});

test('a history page that fails is fetched again: the page does not say "loading history" for good', async ({
  page,
}) => {
  let failures = 0;
  await page.route(
    (url) => url.pathname.endsWith('/history.ndjson'),
    async (route) => {
      if (failures < 2) {
        failures += 1;
        await route.fulfill({ status: 503, body: 'unavailable' }); // a server restarting, say
      } else await route.continue();
    },
  );
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}`);
  await expect(page.locator('[data-testid=thought-node]').first()).toBeVisible();
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  expect(failures).toBe(2);
  await expect(page.getByTestId('timeline-position')).not.toContainText('/ 0');
});
