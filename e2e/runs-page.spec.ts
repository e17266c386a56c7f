// The runs page as a person uses it: filter the list (the filters live in the URL, so a filtered list can be
// shared), get a config mistake pointed out beside its field without anything being started, and find every
// config field, the less common ones under "Advanced", filled with its default.
//
// data-testid used here:
//   runs-table, run-row (with data-run-id, data-status), status-filter-<status|all>, task-filter,
//   runs-empty-filtered, clear-filters,
//   field-<name> (every form field, e.g. field-beamWidth), error-<name>, advanced-toggle, reset-defaults, start-run
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_TOT_CONFIG } from '../lib/engine/index';
import { taskInfo } from '../lib/contract/tasks';
import { mutate, query } from './api';

interface RunSummary {
  id: string;
  status: string;
}

async function rowStatuses(page: Page): Promise<string[]> {
  return page.getByTestId('run-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status') ?? ''));
}

test('filtering by status and task changes the URL and the rows, and clears', async ({ page, baseURL }) => {
  const base = baseURL!;
  // slow enough to stay running for the whole test
  const slow = await mutate<RunSummary>(base, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    model: { provider: 'simulated', seed: 11, latencyMs: 3_000 },
  });
  try {
    await expect.poll(async () => (await query<RunSummary>(base, 'run.byId', { id: slow.id })).status).toBe('running');
    await page.goto('/');
    const slowRow = page.locator(`[data-testid=run-row][data-run-id="${slow.id}"]`);
    await expect(slowRow).toBeVisible();

    await page.getByTestId('status-filter-finished').click();
    await expect(page).toHaveURL(/\/\?status=finished$/);
    await expect(page.getByTestId('status-filter-finished')).toHaveAttribute('aria-pressed', 'true');
    await expect(slowRow).toHaveCount(0);
    await expect.poll(() => rowStatuses(page)).toContain('finished'); // the demo run at least
    await expect.poll(async () => new Set(await rowStatuses(page))).toEqual(new Set(['finished']));

    await page.getByTestId('status-filter-running').click();
    await expect(page).toHaveURL(/\/\?status=running$/);
    await expect(slowRow).toBeVisible();
    await expect.poll(async () => new Set(await rowStatuses(page))).toEqual(new Set(['running']));

    // the filtered list is a link: opening it shows the same filter
    await page.goto('/?status=running');
    await expect(page.getByTestId('status-filter-running')).toHaveAttribute('aria-pressed', 'true');
    await expect(slowRow).toBeVisible();

    // a filter that hides everything says so, and clears
    await page.getByTestId('task-filter').selectOption('open-goal');
    await expect(page).toHaveURL(/\/\?status=running&task=open-goal$/);
    await expect(page.getByTestId('runs-empty-filtered')).toBeVisible();
    await page.getByTestId('clear-filters').click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('status-filter-all')).toHaveAttribute('aria-pressed', 'true');
    await expect(slowRow).toBeVisible();
    await expect.poll(() => rowStatuses(page)).toEqual(expect.arrayContaining(['running', 'finished']));
  } finally {
    await mutate(base, 'run.delete', { id: slow.id });
  }
});

test('a config error shows beside its field and nothing is created', async ({ page, baseURL }) => {
  // the summary counts every run (a page of the list would stop at its limit)
  const countRuns = async () => (await query<{ runs: number }>(baseURL!, 'run.summary', {})).runs;
  await page.goto('/');
  await expect(page.getByTestId('runs-table')).toBeVisible();
  const before = await countRuns();

  await page.getByTestId('field-beamWidth').fill('9'); // branch factor is 3
  await expect(page.getByTestId('error-beamWidth')).toHaveText('Beam width cannot exceed branch factor');
  await expect(page.getByTestId('field-beamWidth')).toHaveAttribute('aria-invalid', 'true');

  await page.getByTestId('start-run').click();
  await expect(page.getByTestId('field-beamWidth')).toBeFocused();
  await expect(page).toHaveURL(/\/$/);
  await page.waitForTimeout(500);
  expect(await countRuns()).toBe(before);

  // fixing the other side of the rule clears the message
  await page.getByTestId('field-branchFactor').fill('10');
  await expect(page.getByTestId('error-beamWidth')).toHaveCount(0);
  await expect(page.getByTestId('field-beamWidth')).toHaveAttribute('aria-invalid', 'false');
});

test('every config field is in the form with its default, the less common ones under Advanced', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('field-noveltyWeight')).toHaveCount(0);
  await page.getByTestId('advanced-toggle').click();
  await expect(page.getByTestId('advanced-toggle')).toHaveAttribute('aria-expanded', 'true');

  for (const [name, value] of Object.entries(DEFAULT_TOT_CONFIG)) {
    await expect(page.getByTestId(`field-${name}`), name).toHaveValue(value === null ? '' : String(value));
  }
  await expect(page.getByTestId('field-seed')).toHaveValue('3');
  await expect(page.getByTestId('field-latencyMs')).toHaveValue('150');

  // Reset to defaults undoes an edit; changing the task fills its example goal
  await page.getByTestId('field-noveltyWeight').fill('0.7');
  await page.getByTestId('reset-defaults').click();
  await expect(page.getByTestId('field-noveltyWeight')).toHaveValue(String(DEFAULT_TOT_CONFIG.noveltyWeight));
  await page.getByTestId('field-taskId').selectOption('open-goal');
  await expect(page.getByLabel('Goal', { exact: true })).toHaveValue(taskInfo('open-goal')!.exampleGoal);
});
