// Breakpoints on the run page (issue 17): a live Game of 24 run stops by itself where a verification fails, the page
// says why, selects and shows the failed node, and continues to the next hit; "run to here" on a queued node stops
// the run right before the node runs; on a finished run the same breakpoint is a query: the timeline marks every
// failed verification and previous / next hit walk them in order. The log (events.ndjson) is the outside truth.
// data-testid used: breakpoint-stop (data-node-id), breakpoint-stop-reason, breakpoint-continue, run-status,
// drawer-tab-breakpoints, breakpoint-kind, breakpoint-add-submit, breakpoint-row, hit-marks (data-count), hit-mark,
// jump-kind, jump-prev, jump-next, hit-next-panel, timeline-position, inspector-node (data-node-id), thought-node (data-node-id, data-status), node-menu.
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { E2E_BASE, mutate, ndjson } from './api';

const BASE = E2E_BASE;

// A run left paused at a breakpoint holds one of the server's few run slots: every run a test starts is aborted
// after it (an ended one refuses, which is fine), so the next tests' runs are not queued behind them.
const started: string[] = [];
test.afterEach(async () => {
  for (const id of started.splice(0)) await mutate(BASE, 'run.abort', { id }).catch(() => undefined);
});

/** Seed 3 with a beam of 2 fails four verifications (n5, n6, n8, n9) before it finds 24. */
async function createRun(latencyMs: number): Promise<string> {
  const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    // one call at a time, so the run is still going when the test acts (the log is the same at any limit)
    config: { beamWidth: 2, maxConcurrentCalls: 1 },
    model: { provider: 'simulated', seed: 3, latencyMs },
  });
  started.push(id);
  return id;
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);
const nodeOf = (e: ExplorationEvent) => (e.payload as { nodeId: string }).nodeId;
const failedVerifications = (log: ExplorationEvent[]) =>
  log.filter((e) => e.type === 'node.verified' && !e.payload.passed);
const breakpointStops = (log: ExplorationEvent[]) =>
  log.filter((e) => e.type === 'run.paused' && e.payload.reason === 'breakpoint');

async function addVerificationFails(page: Page) {
  await page.getByTestId('drawer-tab-breakpoints').click();
  await page.getByTestId('breakpoint-kind').selectOption({ label: 'Verification fails' });
  await page.getByTestId('breakpoint-add-submit').click();
  await expect(page.getByTestId('breakpoint-row')).toContainText('a node fails verification');
}

test('a live run stops where a verification fails, shows why and the node, and continues to the next hit', async ({
  page,
}) => {
  const id = await createRun(300);
  // paused through the API the moment it is created, before the page loads, so the breakpoint is in place before
  // the search reaches its first failed verification (a level's calls run together, so that comes early)
  await mutate(BASE, 'run.pause', { id });
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await addVerificationFails(page);
  await expect.poll(async () => (await ndjson(BASE, id)).some((e) => e.type === 'breakpoints.set')).toBe(true);
  await page.getByRole('button', { name: 'Resume' }).click();

  const stop = page.getByTestId('breakpoint-stop');
  await expect(stop).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('run-status')).toHaveText('paused at a breakpoint');
  await expect(page.getByTestId('breakpoint-stop-reason')).toHaveText('a node fails verification');
  const log = await ndjson(BASE, id);
  const first = breakpointStops(log)[0] as ExplorationEvent & { type: 'run.paused' };
  const hit = first.payload.reason === 'breakpoint' ? first.payload.hit : null;
  // the stop is the first failed verification of the log, and the page names and shows its node
  expect(hit?.seq).toBe(failedVerifications(log)[0]?.seq);
  const failedNode = hit?.nodeId as string;
  await expect(stop).toHaveAttribute('data-node-id', failedNode);
  await expect(stop).toContainText(`${failedNode} failed verification`);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', failedNode);
  await expect(card(page, failedNode)).toBeInViewport();

  await page.getByTestId('breakpoint-continue').click();
  await expect(stop).not.toHaveAttribute('data-node-id', failedNode, { timeout: 60_000 });
  await expect(stop).toBeVisible();
  const after = await ndjson(BASE, id);
  const stops = breakpointStops(after);
  expect(stops).toHaveLength(2);
  const second = stops[1] as ExplorationEvent;
  const secondHit = second.type === 'run.paused' && second.payload.reason === 'breakpoint' ? second.payload.hit : null;
  expect(secondHit?.nodeId).not.toBe(failedNode);
  expect(secondHit?.seq).toBeGreaterThan(hit?.seq ?? Infinity);
  expect(secondHit?.seq).toBe(failedVerifications(after)[1]?.seq);
  await expect(stop).toHaveAttribute('data-node-id', secondHit?.nodeId as string);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', secondHit?.nodeId as string);
  await expect(card(page, secondHit?.nodeId as string)).toBeInViewport();

  // no breakpoints any more: the run goes to its end
  await page.getByTestId('breakpoint-resume-without').click();
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  await expect(stop).toHaveCount(0);
});

test('"run to here" on a queued node stops the run right before that node runs', async ({ page }) => {
  const id = await createRun(300);
  await page.goto(`/runs/${id}`);
  await expect
    .poll(async () => (await ndjson(BASE, id)).some((e) => e.type === 'node.expanded' && nodeOf(e) === 'n0'), {
      timeout: 30_000,
    })
    .toBe(true);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const log = await ndjson(BASE, id);
  const started = new Set(log.filter((e) => e.type === 'node.started').map(nodeOf));
  // the last node queued that has not run: the search runs others first, so the run must go on to reach it
  const target = log
    .filter((e) => e.type === 'node.queued')
    .map(nodeOf)
    .filter((n) => !started.has(n))
    .at(-1) as string;
  expect(target).toMatch(/^n\d+$/);

  await card(page, target).click({ button: 'right' });
  await page.getByTestId('node-menu').getByRole('menuitem', { name: 'Run to here' }).click();

  const stop = page.getByTestId('breakpoint-stop');
  await expect(stop).toHaveAttribute('data-node-id', target, { timeout: 60_000 });
  await expect(page.getByTestId('breakpoint-stop-reason')).toHaveText(`${target} is about to run`);
  await expect(page.getByTestId('run-status')).toHaveText('paused at a breakpoint');
  const after = await ndjson(BASE, id);
  const last = after.at(-1) as ExplorationEvent;
  expect(last.type).toBe('run.paused');
  expect(last.type === 'run.paused' && last.payload.reason === 'breakpoint' ? last.payload.hit.nodeId : null).toBe(
    target,
  );
  expect(after.some((e) => e.type === 'node.started' && nodeOf(e) === target)).toBe(false);
  // the menu set the one-shot breakpoint, then resumed the run, which went on until the node was next
  const set = after.findIndex(
    (e) => e.type === 'breakpoints.set' && e.payload.breakpoints.some((b) => b.id === `run-to-${target}` && b.enabled),
  );
  expect(set).toBeGreaterThan(-1);
  expect(after.slice(set).some((e) => e.type === 'steer.resume')).toBe(true);
  await expect(card(page, target)).toHaveAttribute('data-status', 'pending');
});

test('on a finished run a breakpoint is a query: every failed verification is marked, and next / previous hit walk them', async ({
  page,
}) => {
  const id = await createRun(0);
  await expect.poll(async () => (await ndjson(BASE, id)).at(-1)?.type, { timeout: 30_000 }).toBe('run.finished');
  const failed = failedVerifications(await ndjson(BASE, id));
  expect(failed.length).toBeGreaterThan(1);
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await addVerificationFails(page);

  await expect(page.getByTestId('hit-marks')).toHaveAttribute('data-count', String(failed.length));
  await expect(page.getByTestId('hit-mark')).toHaveCount(failed.length);
  await expect(page.getByTestId('breakpoint-hits')).toHaveText(String(failed.length));
  const position = page.getByTestId('timeline-position');
  const selected = page.getByTestId('inspector-node');

  // the timeline's jumps go from hit to hit now: from the end, back through every hit, then forward again
  await expect(page.getByTestId('jump-kind')).toHaveValue('hit');
  for (const e of [...failed].reverse()) {
    await page.getByTestId('jump-prev').click();
    await expect(position).toContainText(`step ${e.seq} /`);
    await expect(selected).toHaveAttribute('data-node-id', nodeOf(e));
  }
  await expect(page.getByTestId('jump-prev')).toBeDisabled();
  for (const e of failed.slice(1)) {
    await page.getByTestId('jump-next').click();
    await expect(position).toContainText(`step ${e.seq} /`);
    await expect(selected).toHaveAttribute('data-node-id', nodeOf(e));
  }
  await expect(page.getByTestId('jump-next')).toBeDisabled();
  await expect(page.getByTestId('hit-next-panel')).toBeDisabled();
  // the keys: Shift F8 back one hit, F8 forward again
  await page.locator('body').press('Shift+F8');
  await expect(position).toContainText(`step ${failed.at(-2)?.seq} /`);
  await expect(selected).toHaveAttribute('data-node-id', nodeOf(failed.at(-2) as ExplorationEvent));
  await page.locator('body').press('F8');
  await expect(position).toContainText(`step ${failed.at(-1)?.seq} /`);
  // a breakpoint's count goes to its next hit, round to its first after its last
  await page.getByTestId('breakpoint-hits').click();
  await expect(position).toContainText(`step ${failed[0]?.seq} /`);
  await expect(selected).toHaveAttribute('data-node-id', nodeOf(failed[0] as ExplorationEvent));

  // the query travels with the link
  await expect(page).toHaveURL(/[?&]bp=/);
  await page.goto(page.url());
  await expect(page.getByTestId('hit-marks')).toHaveAttribute('data-count', String(failed.length));
});

test('breakpoints added in the new-run form are the run’s from its first step: it stops at the first hit', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByLabel('Puzzle').fill('4 9 10 13');
  await page.getByLabel('Seed').fill('3');
  await page.getByLabel('Latency (ms)').fill('0');
  await page.getByTestId('new-run-breakpoints-toggle').click();
  const section = page.getByTestId('new-run-breakpoints');
  // a catastrophic pattern is refused beside its field, and nothing is added
  await section.getByTestId('breakpoint-kind').selectOption({ label: 'Text matches' });
  await section.getByTestId('breakpoint-regex').check();
  await section.getByTestId('breakpoint-pattern').fill('(a+)+$');
  await expect(section.getByRole('alert')).toContainText('exponential time');
  await section.getByTestId('breakpoint-add-submit').click();
  await expect(section.getByTestId('breakpoint-row')).toHaveCount(0);
  await section.getByTestId('breakpoint-kind').selectOption({ label: 'Node at depth' });
  await section.getByTestId('breakpoint-depth').fill('2');
  await section.getByTestId('breakpoint-add-submit').click();
  await expect(section.getByTestId('breakpoint-row')).toHaveText(/a node reaches depth 2/);
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/runs\/[0-9a-f-]+$/);

  await expect(page.getByTestId('breakpoint-stop')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('breakpoint-stop-reason')).toHaveText('a node reaches depth 2');
  const id = new URL(page.url()).pathname.split('/').at(-1) as string;
  started.push(id);
  const log = await ndjson(BASE, id);
  // the first node at depth 2 of the log is where it stopped, and none was created before the list was set
  const set = log.find((e) => e.type === 'breakpoints.set') as ExplorationEvent;
  expect(log.findIndex((e) => e.type === 'node.created')).toBeGreaterThan(log.indexOf(set));
  const stop = breakpointStops(log)[0] as ExplorationEvent;
  const hit = stop.type === 'run.paused' && stop.payload.reason === 'breakpoint' ? stop.payload.hit : null;
  const depthTwo = log.find(
    (e) => e.type === 'node.created' && e.payload.parentId !== null && e.payload.parentId !== 'n0',
  ) as ExplorationEvent;
  expect(hit?.seq).toBe(depthTwo.seq);
  await expect(page.getByTestId('breakpoint-stop')).toHaveAttribute('data-node-id', nodeOf(depthTwo));
});
