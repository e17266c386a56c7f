// Monte Carlo tree search on screen (issue 31): a live engine MCTS run on the Game of 24 (simulated model, with a
// latency so it can be watched) whose cards show N and Q changing as iterations back up; paused, each Step runs exactly
// one iteration (N of the root goes up by one, as the log folded here says) and the timeline steps back and forward by
// iteration, links with ?step= included; a prune takes its subtree out of selection (no later mcts.selected hop
// chooses into it, read from the run's log through the API); and screenshots at 1280x720, light and dark, with the
// inspector's last selection and value history, the overview coloured by visits and the run's MCTS settings.
// N and Q are folded here from the log by their definitions (a count and a mean), not by the engine's code.
// data-testid used: thought-node (data-node-id, data-status), node-mcts, run-status, inspector-node, inspector-prune,
// inspector-mcts-selection, inspector-mcts-history, inspector-mcts-backup (data-n), inspector-config, run-config-short,
// timeline-iteration (data-iteration), iteration-back, iteration-forward, overview-colouring, overview-canvas.
import { expect, test, type Page } from '@playwright/test';
import type { EventOf, ExplorationEvent } from '../lib/contract/events';
import { E2E_BASE, mutate, ndjson } from './api';

const BASE = E2E_BASE;

/** A goal this seed searches for many iterations before its verified answer (19 of 20 here). */
const GOAL = '1 1 4 6';
const SEED = 4;

async function startMcts(options: { iterations: number; latencyMs: number; goal?: string; seed?: number }) {
  const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
    taskId: 'game24',
    goal: options.goal ?? GOAL,
    config: {
      explorationStrategy: 'mcts',
      mctsIterations: options.iterations,
      branchFactor: 3,
      terminationConfidence: 1,
      // one call at a time, so the run lasts long enough to be watched and steered
      maxConcurrentCalls: 1,
    },
    model: { provider: 'simulated', seed: options.seed ?? SEED, latencyMs: options.latencyMs },
  });
  return id;
}

type Backup = EventOf<'mcts.backpropagated'>;
type Selected = EventOf<'mcts.selected'>;
const backups = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is Backup => e.type === 'mcts.backpropagated' && e.payload.value !== null);
const selections = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is Selected => e.type === 'mcts.selected');

/** A node's N and Q from the log by their definitions: the backups through it, and the mean of their values. */
function foldedStats(events: readonly ExplorationEvent[], nodeId: string): { n: number; q: number | null } {
  const values = backups(events)
    .filter((e) => e.payload.path.includes(nodeId))
    .map((e) => e.payload.value as number);
  return { n: values.length, q: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null };
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);
const figure = (page: Page, nodeId: string) => card(page, nodeId).getByTestId('node-mcts');

/** A card's "Q 0.62 · N 7" read back as numbers. */
function parseFigure(text: string | null): { q: number; n: number } | null {
  const match = /Q (-?\d+(?:\.\d+)?) · N (\d+)/.exec(text ?? '');
  return match ? { q: Number(match[1]), n: Number(match[2]) } : null;
}

async function pauseAfterIterations(page: Page, id: string, iterations: number) {
  await expect
    .poll(async () => backups(await ndjson(BASE, id)).length, { timeout: 45_000 })
    .toBeGreaterThanOrEqual(iterations);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
}

test('a live MCTS run’s cards show N and Q, changing as iterations back up', async ({ page }) => {
  const id = await startMcts({ iterations: 20, latencyMs: 250 });
  await page.goto(`/runs/${id}`);
  // the root's figures as the run goes: read while it runs, each change recorded
  const seen: { q: number; n: number }[] = [];
  await expect
    .poll(
      async () => {
        const now = parseFigure(
          await figure(page, 'n0')
            .textContent({ timeout: 500 })
            .catch(() => null),
        );
        if (now && (seen.at(-1)?.n !== now.n || seen.at(-1)?.q !== now.q)) seen.push(now);
        return seen.length;
      },
      { timeout: 60_000, intervals: [100] },
    )
    .toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId('run-status')).toHaveText('running');
  // N counts up (the root holds every iteration's visit) and Q moves with the values backed up
  for (let k = 1; k < seen.length; k++) expect(seen[k]?.n).toBeGreaterThan(seen[k - 1]?.n as number);
  expect(new Set(seen.map((s) => s.q)).size).toBeGreaterThan(1);

  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  const events = await ndjson(BASE, id);
  // the whole tree fits only at the far zoom (no cards): the root selected by link is framed with its children
  await page.goto(`/runs/${id}?node=n0`);
  await expect(figure(page, 'n0')).toBeVisible();
  // every card on screen with figures says what the log, folded here, says
  const ids = await page.getByTestId('thought-node').evaluateAll((els) => els.map((el) => el.dataset.nodeId ?? ''));
  let checked = 0;
  for (const nodeId of ids) {
    const want = foldedStats(events, nodeId);
    if (want.n === 0) continue;
    const shown = parseFigure(await figure(page, nodeId).textContent());
    expect(shown?.n, nodeId).toBe(want.n);
    expect(Math.abs((shown?.q ?? NaN) - (want.q as number)), nodeId).toBeLessThanOrEqual(0.005 + 1e-9);
    checked += 1;
  }
  expect(checked).toBeGreaterThanOrEqual(3);
});

test('paused, each Step runs one iteration (N of the root up by one); the timeline steps by iteration', async ({
  page,
}) => {
  const id = await startMcts({ iterations: 20, latencyMs: 300 });
  await page.goto(`/runs/${id}?node=n0`);
  await pauseAfterIterations(page, id, 2);
  // the pause lands at a step boundary; the log stops growing there
  let log = await ndjson(BASE, id);
  await expect.poll(async () => (await ndjson(BASE, id)).length, { timeout: 10_000 }).toBe(log.length);
  log = await ndjson(BASE, id);
  const n0 = foldedStats(log, 'n0').n;
  await expect(figure(page, 'n0')).toContainText(`N ${n0}`);

  const stepEnds: number[] = [];
  for (let k = 1; k <= 3; k++) {
    const paused = log.filter((e) => e.type === 'run.paused').length;
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await expect
      .poll(async () => (await ndjson(BASE, id)).filter((e) => e.type === 'run.paused').length, { timeout: 30_000 })
      .toBe(paused + 1);
    const before = log.length;
    log = await ndjson(BASE, id);
    // exactly one iteration backed up in the step, and the root's N one more, on the card as in the log
    expect(backups(log.slice(before)).length, `step ${k}`).toBe(1);
    expect(foldedStats(log, 'n0').n).toBe(n0 + k);
    await expect(figure(page, 'n0')).toContainText(`N ${n0 + k}`);
    stepEnds.push((backups(log).at(-1) as Backup).seq);
  }
  await expect(page.getByTestId('run-status')).toHaveText('paused');

  // back by iteration: to the last iteration's end (its backup), then the one before; each an ordinary ?step= link
  const iteration = page.getByTestId('timeline-iteration');
  const last = backups(log).at(-1) as Backup;
  await page.getByTestId('iteration-back').click();
  await expect(page).toHaveURL(new RegExp(`step=${stepEnds[2]}(&|$)`));
  await expect(iteration).toHaveAttribute('data-iteration', String(last.payload.iteration));
  await expect(figure(page, 'n0')).toContainText(`N ${n0 + 3}`);
  await page.getByTestId('iteration-back').click();
  await expect(page).toHaveURL(new RegExp(`step=${stepEnds[1]}(&|$)`));
  await expect(iteration).toHaveAttribute('data-iteration', String(last.payload.iteration - 1));
  await expect(iteration).toContainText(`it. ${last.payload.iteration - 1}/20`);
  await expect(figure(page, 'n0')).toContainText(`N ${n0 + 2}`);
  // the keys do the same: { back, } forward (focus is on the timeline's button, which leaves the page's keys be)
  await page.keyboard.press('{');
  await expect(page).toHaveURL(new RegExp(`step=${stepEnds[0]}(&|$)`));
  await expect(figure(page, 'n0')).toContainText(`N ${n0 + 1}`);
  await page.keyboard.press('}');
  await expect(page).toHaveURL(new RegExp(`step=${stepEnds[1]}(&|$)`));
  await page.getByTestId('iteration-forward').click();
  await expect(page).toHaveURL(new RegExp(`step=${stepEnds[2]}(&|$)`));
  await expect(figure(page, 'n0')).toContainText(`N ${n0 + 3}`);

  // a link to an iteration's end opens there, with the root's N as of that step, the inspector's history with it
  await page.goto(`/runs/${id}?step=${stepEnds[0]}&node=n0`);
  await expect(figure(page, 'n0')).toContainText(`N ${n0 + 1}`);
  await expect(page.getByTestId('inspector-mcts-history')).toContainText(`${n0 + 1} backups`);
  await expect(page.getByTestId('inspector-mcts-backup').last()).toHaveAttribute('data-n', String(n0 + 1));

  await page.getByRole('button', { name: 'Abort' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
});

test('a pruned subtree is out of selection: no later hop chooses into it', async ({ page }) => {
  const id = await startMcts({ iterations: 14, latencyMs: 200 });
  await page.goto(`/runs/${id}`);
  await pauseAfterIterations(page, id, 3);
  // the root's child the latest selection went to that can still be pruned: the branch the search favours now (one
  // whose expansion just failed, all its candidates below the threshold, is a dead end already, not prunable)
  const before = await ndjson(BASE, id);
  const failed = new Set(before.flatMap((e) => (e.type === 'node.failed' ? [e.payload.nodeId] : [])));
  const target = selections(before)
    .map((e) => e.payload.hops[0]?.chosenId)
    .filter((nodeId) => nodeId !== undefined && !failed.has(nodeId))
    .at(-1) as string;
  expect(target).toMatch(/^n\d+$/);

  await page.goto(`/runs/${id}?node=${target}`);
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', target);
  await page.getByTestId('inspector-prune').click();
  await expect(card(page, target)).toHaveAttribute('data-status', 'pruned');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 90_000 });

  const log = await ndjson(BASE, id);
  const pruneSeq = log.find((e) => e.type === 'steer.prune' && e.payload.nodeId === target)?.seq as number;
  expect(pruneSeq).toBeGreaterThan(0);
  // the pruned subtree, from the log's own parent links
  const parentOf = new Map<string, string | null>();
  for (const e of log) if (e.type === 'node.created') parentOf.set(e.payload.nodeId, e.payload.parentId);
  const inSubtree = (nodeId: string) => {
    for (let at: string | null | undefined = nodeId; at; at = parentOf.get(at)) if (at === target) return true;
    return false;
  };
  const after = selections(log).filter((e) => e.seq > pruneSeq);
  expect(after.length).toBeGreaterThan(0);
  for (const event of after) {
    expect(inSubtree(event.payload.leafId), `iteration ${event.payload.iteration}`).toBe(false);
    for (const hop of event.payload.hops) {
      expect(inSubtree(hop.chosenId), `iteration ${event.payload.iteration}`).toBe(false);
      expect(hop.candidates.map((c) => c.nodeId)).not.toContain(target);
    }
  }
  expect(log.filter((e) => e.seq > pruneSeq && e.type === 'node.started' && inSubtree(e.payload.nodeId))).toEqual([]);
});

test('an MCTS run at 1280x720, light and dark: inspector trail, overview by visits, MCTS settings', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  const id = await startMcts({ iterations: 12, latencyMs: 0, goal: '4 9 10 13', seed: 3 });
  await page.goto(`/runs/${id}?node=n0`);
  await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
  const events = await ndjson(BASE, id);
  const iterations = backups(events).length;
  // the settings where the config is shown: the root's inspector and the header
  const config = page.getByTestId('inspector-config');
  await expect(config.locator('[data-key=mctsIterations] dd')).toHaveText(`${iterations} / 12`);
  await expect(config.locator('[data-key=mctsExploration] dd')).toHaveText('1.41 (√2)');
  await expect(config.locator('[data-key=mctsRolloutDepth] dd')).toHaveText('0');
  await expect(config.locator('[data-key=mctsBackup] dd')).toHaveText('mean');
  await expect(config.locator('[data-key=mctsBestBy] dd')).toHaveText('visits');
  await expect(page.getByTestId('run-config-short')).toContainText(`mcts · ${iterations}/12 it. · c 1.41`);
  // the overview offers visits for an engine MCTS run
  await page.getByTestId('overview-colouring').selectOption('visits');
  await expect(page.getByTestId('overview-canvas')).toHaveAttribute('data-colouring', 'visits');

  // a node weighed by selections: its last selection and its value history
  const node = selections(events)
    .at(-1)
    ?.payload.hops[0]?.candidates.find((c) => c.visits > 1)?.nodeId as string;
  await page.goto(`/runs/${id}?node=${node}`);
  await page.getByTestId('overview-colouring').selectOption('visits');
  const trail = page.getByTestId('inspector-mcts-selection');
  await expect(trail).toContainText('Last selection');
  await expect(page.getByTestId('inspector-mcts-history')).toContainText(`${foldedStats(events, node).n} backups`);
  // the inspector's own scroll box, scrolled to the trail (scrollIntoView would also move the page's clipped boxes)
  const scrollInspectorTo = (offset: 'top' | 'trail') =>
    trail.evaluate((el, to) => {
      let box = el.parentElement;
      while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
      if (box)
        box.scrollTop =
          to === 'top' ? 0 : box.scrollTop + el.getBoundingClientRect().top - box.getBoundingClientRect().top - 8;
    }, offset);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await scrollInspectorTo('top');
    await page.waitForTimeout(300);
    await page.screenshot({ path: test.info().outputPath(`mcts-engine-${scheme}.png`) });
    await scrollInspectorTo('trail');
    await page.waitForTimeout(200);
    await page.screenshot({ path: test.info().outputPath(`mcts-engine-${scheme}-inspector.png`) });
  }
  // mid-run by time travel: an iteration under way
  const mid = selections(events)[4] as Selected;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`/runs/${id}?step=${mid.seq + 2}&node=n0`);
  await expect(page.getByTestId('timeline-iteration')).toHaveAttribute('data-under-way', 'true');
  await page.screenshot({ path: test.info().outputPath('mcts-engine-light-midrun.png') });
});
