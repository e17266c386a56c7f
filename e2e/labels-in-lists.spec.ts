// Labels counted where a team looks across runs (issue 34): the runs list filters by a label (the select, kept in the
// URL as ?label=) and shows a run's comment and label counts beside its goal; an experiment's configuration table
// gets a Labels column once a node of a cell's run is labelled. Runs and labels are made through the API; other
// specs share the database, so only this spec's own runs are asserted on.
// data-testid used: run-row (data-run-id), run-row-discussion, label-filter, runs-summary, configuration-table,
// configuration-labels, experiment-page.
import { expect, test } from '@playwright/test';
import type { ExperimentView } from '../lib/contract/experiments';
import { E2E_BASE, mutate, ndjson, query } from './api';

const simulated = { provider: 'simulated' as const, seed: 5, latencyMs: 0 };

async function finishedRun(goal: string): Promise<string> {
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', { taskId: 'game24', goal, model: simulated });
  await expect
    .poll(async () => (await query<{ status: string }>(E2E_BASE, 'run.byId', { id })).status, { timeout: 30_000 })
    .toBe('finished');
  return id;
}

/** The run's node ids, in the order they were made. */
async function nodesOf(runId: string): Promise<string[]> {
  return (await ndjson(E2E_BASE, runId))
    .filter((e) => e.type === 'node.created')
    .map((e) => (e.payload as { nodeId: string }).nodeId);
}

test('the runs list filters by a label in the URL and shows each run’s comment and label counts', async ({ page }) => {
  const labelled = await finishedRun('1 1 4 6');
  const plain = await finishedRun('1 2 3 4');
  const nodes = await nodesOf(labelled);
  expect(nodes.length).toBeGreaterThanOrEqual(2);
  const [a, b] = nodes;
  await mutate(E2E_BASE, 'label.set', { runId: labelled, nodeId: a, label: 'hallucinated move' });
  await mutate(E2E_BASE, 'label.set', { runId: labelled, nodeId: b, label: 'hallucinated move' });
  await mutate(E2E_BASE, 'comment.add', { runId: labelled, text: 'both moves use a number twice' });

  const row = (id: string) => page.locator(`[data-testid=run-row][data-run-id="${id}"]`);
  await page.goto('/');
  await expect(row(labelled).getByTestId('run-row-discussion')).toHaveAttribute('title', '1 comment · 2 labels');
  await expect(row(plain)).toBeVisible();
  await expect(row(plain).getByTestId('run-row-discussion')).toHaveCount(0);

  await page.getByTestId('label-filter').selectOption('hallucinated move');
  await expect(page).toHaveURL(/\/\?label=hallucinated\+move$/);
  await expect(row(labelled)).toBeVisible();
  await expect(row(plain)).toHaveCount(0);
  // the summary sums the label's runs, not the page
  const summary = await query<{ runs: number }>(E2E_BASE, 'run.summary', { label: 'hallucinated move' });
  await expect(page.getByTestId('runs-summary')).toContainText(`${summary.runs} run`);

  // the filtered list is a link
  await page.goto('/?label=hallucinated+move');
  await expect(page.getByTestId('label-filter')).toHaveValue('hallucinated move');
  await expect(row(labelled)).toBeVisible();
  await expect(row(plain)).toHaveCount(0);
});

test('an experiment’s configuration table counts the labels on its cells’ runs', async ({ page }) => {
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'experiment.create', {
    taskId: 'game24',
    items: ['1 1 4 6', '2 7 8 8'],
    configurations: [
      { label: 'narrow', config: { beamWidth: 1 }, model: simulated },
      { label: 'wide', config: { beamWidth: 3 }, model: simulated },
    ],
  });
  let view: ExperimentView | null = null;
  await expect
    .poll(async () => (view = await query<ExperimentView>(E2E_BASE, 'experiment.byId', { id })).status, {
      timeout: 60_000,
    })
    .toBe('finished');
  await page.goto(`/experiments/${id}`);
  await expect(page.getByTestId('configuration-table')).toBeVisible();
  // no label yet: no column
  await expect(page.getByTestId('configuration-labels')).toHaveCount(0);

  const cell = view!.cells.find((c) => c.configuration === 0 && c.runId !== null)!;
  const [node] = await nodesOf(cell.runId!);
  await mutate(E2E_BASE, 'label.set', { runId: cell.runId, nodeId: node, label: 'evaluator wrong' });
  await mutate(E2E_BASE, 'label.set', { runId: cell.runId, nodeId: node, label: 'good thought' });
  await page.reload();
  await expect(page.getByTestId('configuration-labels')).toHaveText(['evaluator wrong 1 · good thought 1', '—']);
});
