// The page at real size (issue 32): on a run of about 20,000 events, a jump (a link's ?step=, the scrubber) and steps
// to a neighbouring step (an arrow key on the scrubber, the "," and "." keys) land on that step's tree: the
// timeline's step, the header's node total, the step the canvas drew and the selected node's status agree with the
// log as counted here from its events (not folded by the page's reduce). Playback by event reaches the end. The
// timeline's density: hovering a column says which events it holds, and its counts are the log's for that range.
// The run is searched by the engine in this process and stored through the import path (importRun on the test
// server's own database file, as scale.spec.ts does).
// data-testid used: timeline-position, scrubber, stat-total, inspector-node (data-status), timeline-play,
// play-unit, timeline-density, timeline-density-tip (data-from, data-to, data-counts); React Flow's root
// (.react-flow) carries data-drawn-seq.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { recordRun } from '../lib/harness/index';
import { E2E_BASE, ndjson } from './api';

/** A node's status at a step, from its own events: pending until it starts, running until it completes. */
function statusAt(events: readonly ExplorationEvent[], nodeId: string, step: number): string {
  let status = 'pending';
  for (const e of events.slice(0, step)) {
    if (!('nodeId' in e.payload) || e.payload.nodeId !== nodeId) continue;
    if (e.type === 'node.started') status = 'running';
    if (e.type === 'node.completed') status = 'completed';
  }
  return status;
}

async function expectStep(page: Page, events: readonly ExplorationEvent[], nodeId: string, step: number) {
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${step} / ${events.length}`);
  // the header's total counts the thoughts, not the root (the goal)
  const total = events.slice(0, step).filter((e) => e.type === 'node.created' && e.payload.parentId !== null).length;
  await expect(page.getByTestId('stat-total')).toHaveText(String(total));
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-status', statusAt(events, nodeId, step));
  // the canvas follows the step in a deferred render: it must get there
  await expect(page.locator('.react-flow')).toHaveAttribute('data-drawn-seq', String(step));
}

test('jumps and steps on a run of about 20,000 events land on that step’s tree', async ({ page }) => {
  test.setTimeout(180_000);
  const server = { base: E2E_BASE, databaseFile: path.resolve('data/e2e.db') };
  const run = await recordRun(server, 20_000, 'e2e seeks');
  const events = await ndjson(E2E_BASE, run.id);
  expect(events.length).toBeGreaterThan(15_000);
  // a node deep in the log that waited between its start and its completion
  const startedAt = new Map<string, number>();
  let node: { id: string; started: number; completed: number } | null = null;
  for (const e of events) {
    if (e.type === 'node.started') startedAt.set(e.payload.nodeId, e.seq);
    if (e.type === 'node.completed' && e.seq > events.length / 2) {
      const started = startedAt.get(e.payload.nodeId);
      if (started !== undefined && e.seq - started > 2) {
        node = { id: e.payload.nodeId, started, completed: e.seq };
        break;
      }
    }
  }
  if (!node) throw new Error('no node waited between its start and completion');

  // a link's step: the node not started yet
  await page.goto(`/runs/${run.id}?step=${node.started - 1}&node=${node.id}`);
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0, { timeout: 60_000 });
  await expectStep(page, events, node.id, node.started - 1);
  // a neighbouring step by arrow key on the scrubber: it starts
  await page.getByTestId('scrubber').focus();
  await page.keyboard.press('ArrowRight');
  await expectStep(page, events, node.id, node.started);
  // a jump by the scrubber to its completion, then one event back with ","
  await page.getByTestId('scrubber').fill(String(node.completed));
  await expectStep(page, events, node.id, node.completed);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(',');
  await expectStep(page, events, node.id, node.completed - 1);
  // held keys: ten steps forward in a row land on the tenth
  await page.keyboard.press('.');
  for (let i = 0; i < 9; i++) await page.keyboard.press('.');
  await expectStep(page, events, node.id, node.completed + 9);

  // playback by event from 40 events before the end reaches the end, and the canvas draws the last step
  await page.getByTestId('scrubber').fill(String(events.length - 40));
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length - 40} /`);
  await page.getByTestId('play-unit').selectOption('event');
  await page.getByLabel('Playback speed').selectOption('10');
  await page.getByTestId('timeline-play').click();
  await expect(page.getByTestId('timeline-play')).toHaveText(/▶ play/, { timeout: 60_000 });
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length} / ${events.length}`);
  await expect(page.locator('.react-flow')).toHaveAttribute('data-drawn-seq', String(events.length));
});

test('the timeline’s density says what a column holds, as the log counts it', async ({ page }) => {
  test.setTimeout(120_000);
  const server = { base: E2E_BASE, databaseFile: path.resolve('data/e2e.db') };
  const run = await recordRun(server, 20_000, 'e2e density');
  const events = await ndjson(E2E_BASE, run.id);
  await page.goto(`/runs/${run.id}`);
  // the whole history in (before the first tree arrives there is nothing loading either)
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length} / ${events.length}`);
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0, { timeout: 60_000 });
  const marks = page.getByTestId('timeline-density');
  const box = await marks.boundingBox();
  if (!box) throw new Error('no density marks');
  const tip = page.getByTestId('timeline-density-tip');
  for (const fraction of [0.1, 0.5, 0.9]) {
    await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
    await expect(tip).toBeVisible();
    const from = Number(await tip.getAttribute('data-from'));
    const to = Number(await tip.getAttribute('data-to'));
    const counts = JSON.parse((await tip.getAttribute('data-counts')) ?? '{}') as Record<string, number>;
    expect(from).toBeGreaterThan(0);
    expect(to).toBeGreaterThanOrEqual(from);
    // the column's events, from the log: all of them counted once, and the kinds one can tell by type alone
    const inColumn = events.filter((e) => e.seq >= from && e.seq <= to);
    const count = (...types: string[]) => inColumn.filter((e) => types.includes(e.type)).length;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(inColumn.length);
    expect(counts.expansion ?? 0).toBe(count('node.expanded', 'branches.generated'));
    expect(counts.step ?? 0).toBe(count('node.started'));
    await expect(tip).toContainText(`${(to - from + 1).toLocaleString('en-US')} in all`);
  }
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  await expect(tip).toBeHidden();
});
