// The debugger's panels on the demo run: the inspector explains a failed node, the event log selects what a row is
// about, and the log filters by type, kind and node.
//
// data-testid hooks used here (and kept stable for other tests):
//   canvas     thought-node (data-node-id, data-status)
//   inspector  inspector, inspector-empty, inspector-node (data-node-id, data-status), inspector-thought,
//              inspector-failure, inspector-verification (data-passed), inspector-score, inspector-dropped,
//              inspector-model-calls, inspector-model-call (data-seq), inspector-parent, inspector-child,
//              inspector-prune, inspector-expand, inspector-command-why, inspector-command-error, inspector-goal,
//              inspector-outcome, inspector-best
//   drawer     drawer-tab-events (the event log's tab; the inspector's is open at first)
//   event log  event-log (data-open), event-log-toggle, event-log-count, event-list, event-log-newest,
//              event-row (data-seq, data-type, data-node-id), event-filter-type (a select), event-filter-kind
//              (data-kind, aria-pressed), event-filter-node (a text box), event-filter-selected (a checkbox),
//              event-filter-clear
import { expect, test, type Page } from '@playwright/test';
import { demoRunId, E2E_BASE } from './api';

async function openDemoRun(page: Page) {
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}`); // the oldest run: the demo
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  // the history is in: the timeline has every step (the log's count is on its tab, shown when the tab is)
  await expect(page.getByTestId('timeline-position')).not.toContainText('/ 0');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
}

test('the inspector explains a failed node', async ({ page }) => {
  await openDemoRun(page);
  await expect(page.getByTestId('inspector-empty')).toContainText('Select a node on the canvas');

  await page.getByRole('button', { name: /fit view/i }).click(); // the whole tree in view
  await page.getByTestId('fold-node').first().click(); // dead ends are folded: open one
  const failed = page.locator('[data-testid=thought-node][data-status=failed]').first();
  const failedId = await failed.getAttribute('data-node-id');
  await failed.click();

  const inspector = page.getByTestId('inspector-node');
  await expect(inspector).toHaveAttribute('data-node-id', failedId ?? '');
  await expect(inspector).toHaveAttribute('data-status', 'failed');
  await expect(page.getByTestId('inspector-failure')).toBeVisible();
  const verification = page.getByTestId('inspector-verification');
  await expect(verification).toHaveAttribute('data-passed', 'false');
  await expect(verification).toContainText('≠ 24');
  await expect(page.getByTestId('inspector-score')).toContainText('composite');

  // a finished run cannot be steered, and says so
  await expect(page.getByTestId('inspector-prune')).toBeDisabled();
  await expect(page.getByTestId('inspector-expand')).toBeDisabled();
  await expect(page.getByTestId('inspector-command-why')).toHaveText('The run has finished.');

  // the parent button walks up the tree
  await page.getByTestId('inspector-parent').click();
  await expect(inspector).not.toHaveAttribute('data-node-id', failedId ?? '');
  await expect(page.getByTestId('inspector-child').filter({ hasText: failedId ?? '' })).toBeVisible();
});

test('a row of the event log selects its node', async ({ page }) => {
  await openDemoRun(page);
  await page.getByTestId('drawer-tab-events').click(); // the log is a tab of the side drawer, beside the inspector
  const row = page.locator('[data-testid=event-row][data-type="node.verified"]').last();
  const nodeId = await row.getAttribute('data-node-id');
  expect(nodeId).toMatch(/^n\d+$/);
  await row.click();

  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', nodeId ?? '');
  await expect(page.locator('.react-flow__node.selected [data-testid=thought-node]')).toHaveAttribute(
    'data-node-id',
    nodeId ?? '',
  );
  await expect(page.getByTestId('inspector-verification')).toHaveAttribute('data-passed', 'true');

  // run-level events select the root, which shows the run
  await page.locator('[data-testid=event-row][data-type="run.finished"]').click();
  await expect(page.getByTestId('inspector-outcome')).toContainText('verified');
});

test('the event log, shown after steps taken while it was hidden, is at the step on screen', async ({ page }) => {
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}?step=60`);
  await expect(page.getByTestId('timeline-position')).toContainText('step 60 /');
  await page.getByTestId('drawer-tab-events').click();
  const current = page.locator('[data-testid=event-row][data-current]');
  await expect(current).toHaveAttribute('data-seq', '60');
  await expect(current).toBeInViewport();
  await page.getByTestId('drawer-tab-inspector').click();
  await page.getByTestId('scrubber').focus();
  for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('timeline-position')).toContainText('step 90 /');
  await page.getByTestId('drawer-tab-events').click();
  await expect(current).toHaveAttribute('data-seq', '90');
  await expect(current).toBeInViewport();
});

test('the event log filters by type, kind and node', async ({ page }) => {
  await openDemoRun(page);
  await page.getByTestId('drawer-tab-events').click();
  const rows = page.getByTestId('event-row');
  const count = page.getByTestId('event-log-count');
  await expect(count).not.toHaveText('0');
  const total = Number((await count.textContent())?.replace(/,/g, ''));
  expect(total).toBeGreaterThan(50);

  await page.getByTestId('event-filter-type').selectOption('node.failed');
  await expect(count).toHaveText(new RegExp(`^\\d+ of ${total}$`));
  const failures = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-type')));
  expect(failures.length).toBeGreaterThan(0);
  expect(new Set(failures)).toEqual(new Set(['node.failed']));

  // a failure's row leads to the failed node
  await rows.first().click();
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-status', 'failed');

  // back to every type, then hide the model calls with their chip
  await page.getByTestId('event-filter-clear').click();
  await expect(count).toHaveText(String(total));
  const modelChip = page.locator('[data-testid=event-filter-kind][data-kind=model]');
  await modelChip.click();
  await expect(modelChip).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('[data-testid=event-row][data-type="model.called"]')).toHaveCount(0);

  // only the events of one node, typed in the box
  await page.getByTestId('event-filter-node').fill('n1');
  const nodes = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-node-id')));
  expect(nodes.length).toBeGreaterThan(0);
  expect(new Set(nodes)).toEqual(new Set(['n1']));

  // the panel collapses to its header and opens again
  await page.getByTestId('event-log-toggle').click();
  await expect(page.getByTestId('event-log')).toHaveAttribute('data-open', 'false');
  await expect(rows).toHaveCount(0);
  await page.getByTestId('event-log-toggle').click();
  await expect(page.getByTestId('event-log')).toHaveAttribute('data-open', 'true');
});
