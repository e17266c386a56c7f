// Experiments from the page: a 10-puzzle x 2-configuration Game of 24 experiment (a shipped range narrowed to
// game24:900-909, after a pasted file's bad line is refused; beam width 1 against beam width 5 on the simulated model with a small latency) is made with the
// form, whose estimate shows the cell count before Start (a card's model picker offers a real model: a custom server
// without its URL is refused, then back to the simulator); its page's progress bar moves and reaches the end; a
// failed cell's run (else a solved one's) opens with its best node selected (?node=best); the comparison of the two
// configurations links to /compare; the CSV download has a row per cell and a header. Screenshots at 1280x720 and
// 1920x1080, light and dark, go to the test's output folder.
// data-testid used: source-file, field-dataset-name, field-paste, use-file, dataset-error, source-shipped, field-shipped, field-shipped-from, field-shipped-to, use-shipped, dataset-chosen,
// config-<i>-label, config-<i>-branchFactor, config-<i>-beamWidth, config-<i>-latencyMs, config-<i>-seed,
// config-<i>-provider, config-<i>-model, config-<i>-preset, config-<i>-model-error, configuration-<i>, estimate-cells, experiment-problems,
// start-experiment, experiment-page (data-status), progress-bar (aria-valuenow), progress-count, grid-cell
// (data-outcome), inspector-node (data-node-id), compare-a, compare-b, compare-summary, compare-row, download-csv,
// nav-experiments, experiments-panel, experiment-row.
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { E2E_BASE, ndjson } from './api';

const ITEMS = 10;
const CONFIGURATIONS = 2;
const CELLS = ITEMS * CONFIGURATIONS;

async function fillConfiguration(page: Page, index: number, label: string, beamWidth: number) {
  await page.getByTestId(`config-${index}-label`).fill(label);
  // the same candidates per expansion for both, so only the beam differs (a beam cannot exceed them)
  await page.getByTestId(`config-${index}-branchFactor`).fill('5');
  await page.getByTestId(`config-${index}-beamWidth`).fill(String(beamWidth));
  await page.getByTestId(`config-${index}-latencyMs`).fill('20');
}

async function screenshots(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({
        path: test.info().outputPath(`${name}-${width}x${height}-${scheme}.png`),
        fullPage: true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('an experiment made from the page runs every cell, opens a cell at its best node, compares and downloads its CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await page.getByTestId('nav-experiments').click();
  await expect(page).toHaveURL(/\/experiments$/);

  // a pasted file with a bad line is refused, naming the line
  await page.getByTestId('source-file').click();
  await page.getByTestId('field-dataset-name').fill('pasted');
  await page.getByTestId('field-paste').fill('"4 9 10 13"\n"1 2 3"\n');
  await page.getByTestId('use-file').click();
  await expect(page.getByTestId('dataset-error')).toContainText('line 2');

  // the items: the paper's test set, narrowed to its first ten puzzles
  await page.getByTestId('source-shipped').click();
  await page.getByTestId('field-shipped').selectOption('game24:900-999');
  await page.getByTestId('field-shipped-from').fill('900');
  await page.getByTestId('field-shipped-to').fill('909');
  await page.getByTestId('use-shipped').click();
  await expect(page.getByTestId('dataset-chosen')).toContainText(`${ITEMS} items`);

  await fillConfiguration(page, 0, 'beam 1', 1);
  await fillConfiguration(page, 1, 'beam 5', 5);
  await page.getByTestId('field-experiment-name').fill('e2e: beam 1 vs beam 5');

  // before Start: the cell count and no problem
  await expect(page.getByTestId('estimate-cells')).toHaveText(`${CELLS} cells`);
  await expect(page.getByTestId('experiment-problems')).toHaveCount(0);
  await screenshots(page, 'experiments-form');

  // a bad setting is a problem, and Start waits for it to be fixed
  await page.getByTestId('config-1-beamWidth').fill('0');
  await expect(page.getByTestId('experiment-problems')).toContainText('Configuration 2 (beam 5) · Beam width');
  await expect(page.getByTestId('start-experiment')).toBeDisabled();
  await page.getByTestId('config-1-beamWidth').fill('5');
  await expect(page.getByTestId('start-experiment')).toBeEnabled();

  // a configuration's model is the run form's picker: a real model keeps the seed, not the simulator's latency, and
  // a custom server without its URL is refused in the run form's words; back on the simulator, its latency is kept
  await page.getByTestId('config-1-provider').selectOption('openai');
  await expect(page.getByTestId('config-1-model')).toHaveValue('gpt-4o-mini');
  await expect(page.getByTestId('config-1-latencyMs')).toHaveCount(0);
  await expect(page.getByTestId('config-1-seed')).toBeVisible();
  await page.getByTestId('config-1-preset').selectOption('custom');
  await expect(page.getByTestId('config-1-model-error')).toContainText('a custom server needs its base URL');
  await expect(page.getByTestId('experiment-problems')).toContainText('Configuration 2 (beam 5) · Model');
  await expect(page.getByTestId('start-experiment')).toBeDisabled();
  await page.getByTestId('configuration-1').screenshot({ path: test.info().outputPath('configuration-openai.png') });
  await page.getByTestId('config-1-provider').selectOption('simulated');
  await expect(page.getByTestId('config-1-latencyMs')).toHaveValue('20');
  await expect(page.getByTestId('start-experiment')).toBeEnabled();

  await page.getByTestId('start-experiment').click();
  await expect(page).toHaveURL(/\/experiments\/[^/]+$/);
  const experimentPage = page.getByTestId('experiment-page');
  await expect(experimentPage).toBeVisible();

  // the bar moves (some cells done, not all), then reaches the end
  const bar = page.getByTestId('progress-bar');
  await expect(bar).toHaveAttribute('aria-valuemax', String(CELLS));
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 })
    .toBeGreaterThan(0);
  await screenshots(page, 'experiment-running');
  await expect(experimentPage).toHaveAttribute('data-status', 'finished', { timeout: 120_000 });
  await expect(bar).toHaveAttribute('aria-valuenow', String(CELLS));
  await expect(page.getByTestId('progress-count')).toHaveText(`${CELLS} of ${CELLS} cells done`);
  await expect(page.getByTestId('grid-cell')).toHaveCount(CELLS);
  await expect(page.getByTestId('configuration-rate').first()).toHaveText(/^\d+% \[\d+–\d+%\]$/);
  await screenshots(page, 'experiment-finished');

  // the CSV: a header and a row per cell
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-csv').click()]);
  const lines = (await readFile(await download.path(), 'utf8')).split('\r\n').filter(Boolean);
  expect(lines).toHaveLength(CELLS + 1);
  expect(lines[0]).toMatch(/^item,goal,/);

  // the comparison: beam 1 against beam 5, its rows linking both runs side by side
  await page.getByTestId('compare-a').selectOption({ label: 'beam 1' });
  await page.getByTestId('compare-b').selectOption({ label: 'beam 5' });
  await expect(page.getByTestId('compare-summary')).toContainText('both solve');
  const experimentUrl = page.url();
  const compareRow = page.getByTestId('compare-row').first();
  if ((await page.getByTestId('compare-row').count()) > 0) {
    const href = (await compareRow.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/compare\?a=[^&]+&b=.+$/);
    await compareRow.click();
    await expect(page).toHaveURL(/\/compare\?a=/);
    await page.goto(experimentUrl);
  }

  // a failed cell's run if there is one with a best node, else a solved one's: the run page selects its best node
  // (the grid is read once it has drawn every cell: the page may just have been loaded again)
  await expect(page.getByTestId('grid-cell')).toHaveCount(CELLS);
  const failed = page.locator('[data-testid="grid-cell"][data-outcome="failed"]');
  const solved = page.locator('[data-testid="grid-cell"][data-outcome="solved"]');
  const candidates = [...(await failed.all()), ...(await solved.all())];
  let opened = false;
  for (const cell of candidates) {
    const href = (await cell.getAttribute('href')) ?? '';
    const runId = decodeURIComponent(/\/runs\/([^?]+)/.exec(href)?.[1] ?? '');
    const finished = (await ndjson(E2E_BASE, runId)).find(
      (e): e is Extract<ExplorationEvent, { type: 'run.finished' }> => e.type === 'run.finished',
    );
    const best = finished?.payload.bestNodeId;
    if (!best) continue;
    expect(href).toBe(`/runs/${encodeURIComponent(runId)}?node=best`);
    await cell.click();
    await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', best);
    await expect(page).toHaveURL(new RegExp(`[?&]node=${best}`));
    opened = true;
    break;
  }
  expect(opened, 'some cell has a run with a best node').toBe(true);

  // the list shows it, done
  await page.goto('/experiments');
  const row = page.getByTestId('experiment-row').filter({ hasText: 'e2e: beam 1 vs beam 5' });
  await expect(row).toContainText(`${CELLS}/${CELLS}`);
  await screenshots(page, 'experiments-list');
});
