// Time travel and sharing (issue 5): scrub a recorded run, share the exact step and node by link, fork from a
// node with an edited thought, and clear pages for a missing run or a step beyond the end.
// data-testid used: scrubber, timeline-position, timeline-back, timeline-forward, back-to-live, time-travel,
// copy-link, fork-dialog, forked-from, forks, run-missing, step-problem, thought-node.
import { expect, test, type Page } from '@playwright/test';
import { demoRunId, ndjson, query, E2E_BASE } from './api';

const BASE = E2E_BASE;

async function demoRun(_page: Page): Promise<string> {
  return demoRunId(BASE);
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);

test('scrubbing a recorded run shows the tree as it was at each step', async ({ page }) => {
  const id = await demoRun(page);
  const events = await ndjson(BASE, id);
  const created = (nodeId: string) =>
    events.find((e) => e.type === 'node.created' && e.payload.nodeId === nodeId)?.seq as number;
  const n3 = created('n3');
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('timeline-position')).toContainText(`${events.length} / ${events.length}`);

  await page.getByTestId('scrubber').fill(String(n3 - 1));
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${n3 - 1} / ${events.length}`);
  await expect(page.getByTestId('time-travel')).toBeVisible();
  await expect(card(page, 'n3')).toHaveCount(0);
  await expect(card(page, 'n1')).toBeVisible();
  // the stats show the run as it was then, too
  const exploredThen = events
    .slice(0, n3 - 1)
    .filter((e) => e.type === 'node.completed' || e.type === 'node.failed').length;
  await expect(page.getByTestId('stat-explored')).toHaveText(String(exploredThen));

  await page.getByTestId('timeline-forward').click();
  await expect(card(page, 'n3')).toBeVisible();
  await expect(card(page, 'n3')).toHaveAttribute('data-status', 'pending');
  await page.getByTestId('timeline-back').click();
  await expect(card(page, 'n3')).toHaveCount(0);

  await page.getByTestId('back-to-live').click();
  await expect(page.getByTestId('time-travel')).toHaveCount(0);
  await expect(card(page, 'n11')).toHaveAttribute('data-status', 'verified');
});

test('a copied link opens the same run at the same step with the same node selected', async ({ page, browser }) => {
  const id = await demoRun(page);
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByTestId('timeline-position')).not.toContainText('/ 0');
  await page.getByTestId('scrubber').fill('60');
  await expect(page.getByTestId('timeline-position')).toContainText('step 60 /');
  await card(page, 'n2').click();
  await expect(page).toHaveURL(/step=60/);
  await expect(page).toHaveURL(/node=n2/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveText('Copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toContain(`/runs/${id}`);

  const teammate = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const other = await teammate.newPage();
  await other.goto(link);
  await expect(other.getByTestId('timeline-position')).toContainText('step 60 /');
  await expect(other.locator('.tnode.is-selected')).toHaveAttribute('data-node-id', 'n2');
  await expect(
    other.getByRole('heading', { name: /n2/ }).or(other.getByText('13 - 10 = 3 (left: 3 4 9)').first()),
  ).toBeVisible();
  await teammate.close();
});

test('forking from a node with an edited thought starts a run that continues from it', async ({ page }) => {
  const parentId = await demoRun(page);
  await page.goto(`/runs/${parentId}`);
  await card(page, 'n1').click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Fork from here/ }).click();
  const dialog = page.getByTestId('fork-dialog');
  const edited = '9 + 10 = 19 (left: 4 13 19)';
  await dialog.getByLabel('Thought of n1').fill(edited);
  await dialog.getByLabel('Strategy').selectOption('dfs');
  await dialog.getByLabel('Latency (ms)').fill('50');
  await dialog.getByRole('button', { name: 'Start the fork' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/runs/') && !url.pathname.endsWith(parentId));
  const forkId = new URL(page.url()).pathname.split('/').at(-1) as string;

  await expect(card(page, 'n1')).toContainText(edited);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  await expect(page.getByTestId('forked-from')).toContainText('forked from n1');
  const fork = await query<{ parentRunId: string; config: { explorationStrategy: string } }>(BASE, 'run.byId', {
    id: forkId,
  });
  expect(fork.parentRunId).toBe(parentId);
  expect(fork.config.explorationStrategy).toBe('dfs');
  // the edited step ran in the fork; the copied root did not run again
  const log = await ndjson(BASE, forkId);
  const runs = (nodeId: string) =>
    log.filter((e) => e.type === 'node.started' && e.payload.nodeId === nodeId && e.payload.mode === 'execute');
  expect(runs('n1')).toHaveLength(1);
  expect(log.some((e) => e.type === 'node.restored')).toBe(true);

  await page.goto(`/runs/${parentId}`);
  await expect(page.getByTestId('forks')).toContainText('1 fork');
});

test('a missing run and a step beyond the end get clear pages', async ({ page }) => {
  await page.goto('/runs/no-such-run');
  await expect(page.getByTestId('run-missing')).toContainText('No such run');
  const id = await demoRun(page);
  await page.goto(`/runs/${id}?step=99999`);
  await expect(page.getByTestId('step-problem')).toContainText('beyond the end');
  await page.getByRole('link', { name: 'Open at its last step' }).click();
  await expect(page.getByTestId('timeline-position')).toBeVisible();
});
