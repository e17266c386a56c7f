// The run page tells the truth (issue 10, items 10, 11, 15, 16): the header's status and elapsed are the run's, not
// how much of its history has loaded; a link reproduces its step and node on any run size, reloaded or not; playback
// steps by search step; keys and focus (Escape closes the key help, edges are no Tab stops, focus stays on the
// control group when Pause becomes Resume, a prune is undone).
// data-testid used: run-status, run-elapsed, timeline-position, timeline-loading, time-travel, thought-node,
// timeline-play, play-unit, jump-prev, jump-next, jump-kind, undo-prune.
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { recordRun, type StoredRun } from '../lib/harness/index';
import { demoRunId, mutate, ndjson, query, E2E_BASE } from './api';

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id="${nodeId}"]`);

/** Holds every history request (history.ndjson) until release(): the page then shows a run whose history is loading. */
async function holdHistory(page: Page) {
  const held: Route[] = [];
  let open = false;
  await page.route(/\/api\/runs\/[^/]+\/history\.ndjson/, (route) => {
    if (open) void route.continue();
    else held.push(route);
  });
  return {
    held: () => held.length,
    release: async () => {
      open = true;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** Records every address the page writes (history.replaceState / pushState), from the first script on. */
async function recordAddresses(page: Page) {
  await page.addInitScript(() => {
    const written: string[] = [];
    (window as unknown as { __addresses: string[] }).__addresses = written;
    for (const name of ['replaceState', 'pushState'] as const) {
      const original = history[name].bind(history);
      history[name] = (data, unused, url) => {
        if (url !== undefined && url !== null) written.push(String(url));
        original(data, unused, url);
      };
    }
  });
}
const addresses = (page: Page) => page.evaluate(() => (window as unknown as { __addresses: string[] }).__addresses);

// One big recorded run for the tests that need one (a worker runs this file's tests in order: made once).
let big: Promise<StoredRun> | null = null;
function bigRun(): Promise<StoredRun> {
  const server = { base: E2E_BASE, databaseFile: path.resolve('data/e2e.db') };
  big ??= recordRun(server, 30_000, 'e2e run-page');
  return big;
}

/**
 * The run's latest tree fails to load once, so the page folds the log from seq 1 as it streams in; the stream is cut
 * after `seqs` events and never resumes. The page then holds part of a finished run's log: what it shows must still be
 * the run's.
 */
async function streamOnlyTheStart(page: Page, seqs: number) {
  let failed = false;
  await page.route(/\/api\/runs\/[^/]+\/snapshot\.json/, async (route) => {
    if (failed) return route.continue();
    failed = true;
    await route.fulfill({ status: 503, contentType: 'text/plain', body: 'unavailable' });
  });
  let streamed = false;
  await page.route(/\/api\/trpc\/run\.onEvents/, async (route) => {
    if (streamed) return; // a reconnect waits for good: the rest of the log never arrives
    streamed = true;
    // asked without the discussion, whose stream stays open after the log's end: this one is read whole, then cut
    const url = new URL(route.request().url());
    const input = JSON.parse(url.searchParams.get('input') ?? '{}') as { json?: Record<string, unknown> };
    if (input.json) input.json.discussion = false;
    url.searchParams.set('input', JSON.stringify(input));
    const response = await route.fetch({ url: url.toString() });
    const messages = (await response.text()).split('\n\n');
    const kept = messages.filter((m) => {
      const id = /^id: ?(\d+)$/m.exec(m)?.[1];
      return id === undefined ? !/^event: ?return/m.test(m) : Number(id) <= seqs;
    });
    await route.fulfill({ response, body: kept.join('\n\n') });
  });
}

test("a finished run whose log is still coming in says finished, with Pause and Abort off and the run's own elapsed", async ({
  page,
}) => {
  const id = await demoRunId(E2E_BASE);
  const run = await query<{ startedAt: string; finishedAt: string; lastSeq: number }>(E2E_BASE, 'run.byId', { id });
  const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
  await streamOnlyTheStart(page, 40);
  await page.goto(`/runs/${id}`);
  // the page has the first 40 events of the run's log and no more
  await expect(page.getByTestId('timeline-position')).toContainText('step 40 / 40');
  await expect(page.getByTestId('thought-node').first()).toBeVisible();

  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Abort' })).toBeDisabled();
  const elapsed = page.getByTestId('run-elapsed');
  await expect(elapsed).toHaveText(/^(\d+ ms|\d+\.\d s)$/);
  // the run's own duration (its record's start and finish), to the tenth of a second the header shows
  const shown = (await elapsed.textContent()) ?? '';
  const shownSeconds = Number.parseFloat(shown) / (shown.endsWith(' ms') ? 1000 : 1);
  expect(Math.abs(shownSeconds - seconds)).toBeLessThanOrEqual(0.1);
});

test("a finished run's header says finished, with Pause and Abort off, while its history is still loading", async ({
  page,
}) => {
  const id = await demoRunId(E2E_BASE);
  const history = await holdHistory(page);
  await page.goto(`/runs/${id}`);
  await expect.poll(history.held).toBeGreaterThan(0);
  await expect(page.getByTestId('timeline-loading')).toBeVisible();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Abort' })).toBeDisabled();
  await history.release();
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
});

test('a link to a step and a node keeps both in the address bar, and a reload shows the same step with the node in view', async ({
  page,
}) => {
  const id = await demoRunId(E2E_BASE);
  await recordAddresses(page);
  await page.goto(`/runs/${id}?step=60&node=n2`);
  await expect(page.getByTestId('timeline-position')).toContainText('step 60 /');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  await expect(page.locator('.tnode.is-selected')).toHaveAttribute('data-node-id', 'n2');
  await expect(page).toHaveURL(/[?&]step=60(&|$)/);
  await expect(page).toHaveURL(/[?&]node=n2(&|$)/);
  // not for a moment: a link copied while the page loads is as good
  expect(await addresses(page)).not.toContainEqual(expect.not.stringMatching(/[?&]step=60(&|$)/));

  await page.reload();
  await expect(page.getByTestId('timeline-position')).toContainText('step 60 /');
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  await expect(page).toHaveURL(/[?&]step=60(&|$)/);
  await expect(page).toHaveURL(/[?&]node=n2(&|$)/);
  await expect(card(page, 'n2')).toBeInViewport();
});

test("a link to an early step frames that step's tree (not the latest one's place), and a node not made yet says so", async ({
  page,
}) => {
  const id = await demoRunId(E2E_BASE);
  const events = await ndjson(E2E_BASE, id);
  // a step at which the root has children but the last node of the run does not exist yet
  const firstChild = events.find((e) => e.type === 'node.created' && e.payload.parentId !== null);
  const step = (firstChild?.seq ?? 0) + 1;
  const created = (upTo: number) =>
    events.flatMap((e) => (e.seq <= upTo && e.type === 'node.created' ? [e.payload.nodeId] : []));
  const late = created(Infinity).at(-1) as string;
  expect(created(step)).not.toContain(late);

  await page.goto(`/runs/${id}?step=${step}`);
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${step} /`);
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  // every node of that step is on screen, as cards one can read (the tree was fitted as it is at that step)
  for (const nodeId of created(step)) {
    await expect(card(page, nodeId)).toBeInViewport();
    await expect(card(page, nodeId)).toHaveAttribute('data-level', 'card');
  }

  await page.goto(`/runs/${id}?step=${step}&node=${late}`);
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${step} /`);
  await expect(page.getByTestId('inspector-empty')).toContainText(`${late} is not in the tree yet at step ${step}`);
  for (const nodeId of created(step)) await expect(card(page, nodeId)).toBeInViewport();
});

test('a link deep into a big run opens at that step, not at the end, with its node in view', async ({ page }) => {
  test.setTimeout(240_000);
  const run = await bigRun();
  expect(run.events).toBeGreaterThan(25_000);
  const early = await query<{ events: ExplorationEvent[] }>(E2E_BASE, 'run.events', {
    id: run.id,
    afterSeq: 0,
    untilSeq: 5_000,
    limit: 5_000,
    light: true,
  });
  // a node made well before the step, so it is on the tree at step 5000
  const created = early.events.filter((e) => e.type === 'node.created' && e.seq < 4_000);
  const nodeId = (created.at(-1) as Extract<ExplorationEvent, { type: 'node.created' }>).payload.nodeId;

  await recordAddresses(page);
  await page.goto(`/runs/${run.id}?step=5000&node=${nodeId}`);
  await expect(page.getByTestId('timeline-position')).toContainText('step 5000 /', { timeout: 60_000 });
  await expect(page.getByTestId('time-travel')).toContainText('at step 5000 of');
  await expect(page).toHaveURL(/[?&]step=5000(&|$)/);
  await expect(page).toHaveURL(new RegExp(`[?&]node=${nodeId}(&|$)`));
  await expect(card(page, nodeId)).toBeInViewport();
  // it stays there once the whole history is in
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('timeline-position')).toContainText('step 5000 /');
  await expect(page).toHaveURL(/[?&]step=5000(&|$)/);
  expect(await addresses(page)).not.toContainEqual(expect.not.stringMatching(/[?&]step=5000(&|$)/));
});

test('jump buttons are off when there is nothing that way: no command in a run without one, no backtrack before the first', async ({
  page,
}) => {
  const id = await demoRunId(E2E_BASE);
  const events = await ndjson(E2E_BASE, id);
  expect(events.some((e) => e.type.startsWith('steer.'))).toBe(false);
  const backtracks = events.filter((e) => e.type === 'backtrack').map((e) => e.seq);
  expect(backtracks.length).toBeGreaterThan(0);
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length} / ${events.length}`);
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);

  await page.getByTestId('jump-kind').selectOption('command');
  await page.getByTestId('scrubber').fill('20');
  await expect(page.getByTestId('timeline-position')).toContainText('step 20 /');
  await expect(page.getByTestId('jump-prev')).toBeDisabled();
  await expect(page.getByTestId('jump-next')).toBeDisabled();

  await page.getByTestId('jump-kind').selectOption('backtrack');
  await expect(page.getByTestId('jump-next')).toBeEnabled();
  await page.getByTestId('scrubber').fill(String(backtracks[0]));
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${backtracks[0]} /`);
  await expect(page.getByTestId('jump-prev')).toBeDisabled();
  await page.getByTestId('scrubber').fill(String(backtracks.at(-1)));
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${backtracks.at(-1)} /`);
  await expect(page.getByTestId('jump-prev')).toBeEnabled();
  await expect(page.getByTestId('jump-next')).toBeDisabled();
});

test('playback by search step shows the end of each step of the search in turn, to the end', async ({ page }) => {
  const id = await demoRunId(E2E_BASE);
  const events = await ndjson(E2E_BASE, id);
  const starts = events.filter((e) => e.type === 'node.started').map((e) => e.seq);
  const stepEnds = [...starts.slice(1).map((s) => s - 1), events.length];
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('timeline-loading')).toHaveCount(0);
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length} / ${events.length}`);
  // every step the position shows from here on
  await page.getByTestId('timeline-position').evaluate((el) => {
    const shown: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = shown;
    new MutationObserver(() => shown.push(el.querySelector('b')?.textContent ?? '')).observe(el, {
      subtree: true,
      characterData: true,
      childList: true,
    });
  });
  await page.getByTestId('play-unit').selectOption('step');
  // 80 ms a step (the demo run's model answers at once): slow enough that some steps between are drawn
  await page.getByLabel('Playback speed').selectOption('0.5');
  await page.getByTestId('timeline-play').click();
  await expect(page.getByTestId('timeline-play')).toHaveText(/▶ play/, { timeout: 30_000 });
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${events.length} / ${events.length}`);
  const shown = (await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown)).map(Number);
  // from the start (0), the ends of search steps in order, to the last: never one event at a time (a step may be
  // passed over when drawing falls behind the schedule, never shown halfway)
  // (from the 0 that play starts at: what was recorded before it is the page settling)
  const distinct = [...new Set(shown.slice(Math.max(0, shown.indexOf(0))))];
  expect(distinct[0]).toBe(0);
  expect(distinct.at(-1)).toBe(events.length);
  expect(distinct.filter((seq) => seq !== 0 && !stepEnds.includes(seq))).toEqual([]);
  expect(distinct).toEqual([...distinct].sort((a, b) => a - b));
  expect(distinct.length).toBeGreaterThan(2); // and some steps between
  // playback is over: scrubbing back shows that step and stays there
  await page.getByTestId('scrubber').fill('5');
  await expect(page.getByTestId('timeline-position')).toContainText('step 5 /');
  await expect(page.getByTestId('timeline-play')).toHaveText(/▶ play/);
  await page.getByTestId('timeline-back').click();
  await expect(page.getByTestId('timeline-position')).toContainText('step 4 /');
});

test('Escape closes the key help, also after a click inside it moved the focus', async ({ page }) => {
  const id = await demoRunId(E2E_BASE);
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(help).toBeVisible();
  await help.getByRole('heading', { name: 'Keyboard' }).click(); // text, not a control: focus leaves the Close button
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  // focus is back where it was, on the button that opened it
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeFocused();
});

test('Tab walks the header and the node cards but never stops on an edge', async ({ page }) => {
  const id = await demoRunId(E2E_BASE);
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('thought-node').first()).toBeVisible();
  await expect(page.locator('.react-flow__edge').first()).toBeAttached();
  const stops: string[] = [];
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const el = document.activeElement;
        if (!el) return 'none';
        if (el.closest('.react-flow__edge')) return 'edge';
        if (el.closest('.react-flow__node')) return 'node';
        return el.tagName.toLowerCase();
      }),
    );
  }
  expect(stops).toContain('node'); // the walk reached the canvas
  expect(stops).not.toContain('edge');
});

async function liveRun(page: Page, latencyMs: number): Promise<string> {
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
    taskId: 'game24',
    goal: '4 9 10 13',
    config: { beamWidth: 2 },
    model: { provider: 'simulated', seed: 3, latencyMs },
  });
  await page.goto(`/runs/${id}`);
  return id;
}

test('focus stays on the run controls when Pause becomes Resume, and back', async ({ page }) => {
  // a search that cannot end while the test watches it (a Game of 24 run at 300 ms a call is over in ~6 s, and on a
  // loaded machine it could finish between Resume and the header saying running); the test aborts it at the end
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', {
    taskId: 'open-goal',
    goal: 'Plan a library move across town',
    // one call at a time: a level's calls together would end it within seconds (the log is the same at any limit)
    config: { maxTotalNodes: 200, maxDepth: 4, terminationConfidence: 1, maxConcurrentCalls: 1 },
    model: { provider: 'simulated', seed: 5, latencyMs: 300 },
  });
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.getByRole('button', { name: 'Resume' })).toBeFocused();
  // one step: the run runs, then waits again; focus stays on Step throughout
  await page.getByRole('button', { name: 'Step' }).click();
  await expect
    .poll(async () => (await ndjson(E2E_BASE, id)).some((e) => e.type === 'run.paused'), { timeout: 30_000 })
    .toBe(true);
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.getByRole('button', { name: 'Step' })).toBeFocused();
  await page.getByRole('button', { name: 'Resume' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeFocused();
  await mutate(E2E_BASE, 'run.abort', { id });
});

test('a slip of p on a branch of more than a few nodes asks first; Escape keeps it, confirming prunes it', async ({
  page,
}) => {
  const id = await liveRun(page, 700);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  // pause once a child of the root heads a subtree of four nodes or more
  const bigChild = (events: ExplorationEvent[]) => {
    const parent = new Map<string, string | null>();
    for (const e of events) if (e.type === 'node.created') parent.set(e.payload.nodeId, e.payload.parentId);
    const size = new Map<string, number>();
    for (const nodeId of parent.keys()) {
      for (let at: string | null | undefined = nodeId; at; at = parent.get(at)) size.set(at, (size.get(at) ?? 0) + 1);
    }
    return [...parent].find(([nodeId, p]) => p === 'n0' && (size.get(nodeId) ?? 0) >= 4)?.[0] ?? null;
  };
  await expect.poll(async () => bigChild(await ndjson(E2E_BASE, id)), { timeout: 60_000 }).not.toBeNull();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  const target = bigChild(await ndjson(E2E_BASE, id)) as string;

  await page.keyboard.press('f'); // the whole tree in view (following live may have left the branch aside)
  await card(page, target).click();
  await page.keyboard.press('p');
  const confirm = page.getByTestId('prune-confirm');
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText(target);
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(card(page, target)).not.toHaveAttribute('data-status', 'pruned');
  expect((await ndjson(E2E_BASE, id)).some((e) => e.type === 'steer.prune')).toBe(false);

  await page.keyboard.press('p');
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: /^Prune/ }).click();
  await expect(card(page, target)).toHaveAttribute('data-status', 'pruned');
  await expect
    .poll(async () => (await ndjson(E2E_BASE, id)).some((e) => e.type === 'steer.prune' && e.payload.nodeId === target))
    .toBe(true);
  await mutate(E2E_BASE, 'run.abort', { id });
});
