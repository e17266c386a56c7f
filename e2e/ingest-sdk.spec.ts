// Searches Arborist does not run, attached through the SDKs (issue 13), against the production server: the CLI's
// engine streams a ~200-node search through the TypeScript SDK while a page watches it grow; a pause and a prune
// clicked in the page reach the CLI, which applies them and acknowledges each; a client killed with SIGKILL leaves its
// run interrupted (heartbeat), not running forever; the Python client's Game of 24 example finishes verified.
// The page here is the run page as it was before the steering UI for external runs (the wt-steerui branch): the
// commands' requested/applied life is asserted on the log, and the page's part on what it already shows.
// data-testid used: run-status, stat-total, thought-node (data-node-id, data-status), fold-node, inspector-prune,
// inspector-pruned, inspector-verification.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { E2E_BASE, ndjson } from './api';

interface Child {
  process: ChildProcessWithoutNullStreams;
  stdout: () => string;
  exited: Promise<number | null>;
}

function start(command: string, args: string[]): Child {
  const child = spawn(command, args, { cwd: process.cwd(), env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, stdout: () => stdout, exited };
}

/** `npm run explore -- --server`: the engine on the simulated model, its search streamed through the SDK. */
function explore(latencyMs: number): Child {
  return start(process.execPath, [
    ...['--import', 'tsx', 'lib/cli/explore.ts', '--server', E2E_BASE, '--puzzle', '4 9 10 13', '--seed', '1'],
    ...['--strategy', 'beam', '--beam-width', '5', '--branch-factor', '8', '--max-depth', '4'],
    ...['--threshold', '0', '--terminate-at', '1', '--max-nodes', '45', '--latency', String(latencyMs)],
  ]);
}

/** The run's page, as the client printed it once the server created the run. */
async function runUrl(child: Child): Promise<{ url: string; id: string }> {
  await expect.poll(() => /Run: +(\S+)/.exec(child.stdout())?.[1] ?? null, { timeout: 30_000 }).not.toBeNull();
  const url = /Run: +(\S+)/.exec(child.stdout())![1]!;
  return { url, id: url.split('/runs/')[1]! };
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id="${nodeId}"]`);
const payload = <T>(e: ExplorationEvent) => e.payload as T;

test('the CLI streams a ~200-node search a page watches live; a pause and a prune from the page reach it and are acknowledged applied', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const cli = explore(250);
  try {
    const { url, id } = await runUrl(cli);
    await page.goto(url);
    const status = page.getByTestId('run-status');
    const total = page.getByTestId('stat-total');
    await expect(status).toHaveText('running');
    // nodes arrive on the open page while the client runs (no reload)
    await expect.poll(async () => Number(await total.textContent()), { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
    await expect(status).toHaveText('running');

    // pause from the page: the CLI applies it (its engine writes steer.pause) and acknowledges
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(status).toHaveText('paused', { timeout: 20_000 });

    // prune a child of the root that has not run yet
    const before = await ndjson(E2E_BASE, id);
    const started = new Set(
      before.filter((e) => e.type === 'node.started').map((e) => payload<{ nodeId: string }>(e).nodeId),
    );
    const root = payload<{ nodeId: string }>(before.find((e) => e.type === 'node.created')!).nodeId;
    const target = before
      .filter((e) => e.type === 'node.created' && payload<{ parentId: string | null }>(e).parentId === root)
      .map((e) => payload<{ nodeId: string }>(e).nodeId)
      .find((n) => !started.has(n));
    // paused after a few steps, some child of the root is still waiting: the test needs one (a setup fact, not a check)
    if (!target) throw new Error('every child of the root had run before the pause: no pending node to prune');
    // open it in the page (a 200-node canvas draws only what is in view) and prune it from the inspector
    await page.goto(`${url}?node=${target}`);
    await expect(status).toHaveText('paused');
    await page.getByTestId('inspector-prune').click();

    // the log: requested by the page, applied by the client (its own steer.prune, then the ack naming the request)
    await expect
      .poll(
        async () => {
          const log = await ndjson(E2E_BASE, id);
          const requested = log.find(
            (e) => e.type === 'steer.requested' && payload<{ kind: string; nodeId: string }>(e).nodeId === target,
          );
          const applied = log.find((e) => e.type === 'steer.prune' && payload<{ nodeId: string }>(e).nodeId === target);
          const acked = log.find(
            (e) => e.type === 'steer.acked' && payload<{ requestSeq: number }>(e).requestSeq === requested?.seq,
          );
          return requested && applied && acked
            ? { order: requested.seq < applied.seq && applied.seq < acked.seq, ack: acked.payload }
            : null;
        },
        { timeout: 20_000 },
      )
      .toEqual({ order: true, ack: { requestSeq: expect.any(Number), outcome: 'applied', reason: null } });

    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toHaveText('running', { timeout: 20_000 });
    const resumedAt = Number(await total.textContent());
    await expect.poll(async () => Number(await total.textContent()), { timeout: 30_000 }).toBeGreaterThan(resumedAt);
    await expect(status).toHaveText('finished', { timeout: 90_000 });
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/Server: +\d+ items to .* · 0 retried · 3 commands from the page/);

    const log = await ndjson(E2E_BASE, id);
    expect(log.filter((e) => e.type === 'node.created').length).toBeGreaterThan(150);
    const pause = log.find((e) => e.type === 'steer.requested' && payload<{ kind: string }>(e).kind === 'pause')!;
    expect(
      log.find((e) => e.type === 'steer.acked' && payload<{ requestSeq: number }>(e).requestSeq === pause.seq)?.payload,
    ).toEqual({
      requestSeq: pause.seq,
      outcome: 'applied',
      reason: null,
    });
    // the pruned branch never ran after the prune
    const pruneSeq = log.find((e) => e.type === 'steer.prune')!.seq;
    expect(
      log.filter(
        (e) => e.seq > pruneSeq && e.type === 'node.started' && payload<{ nodeId: string }>(e).nodeId === target,
      ),
    ).toEqual([]);
    expect(log.at(-1)?.type).toBe('run.finished');

    // what the page shows from the stored log: the node pruned by the person who asked
    await page.goto(`${url}?node=${target}`);
    await expect(card(page, target)).toHaveAttribute('data-status', 'pruned');
    await expect(card(page, target)).toContainText(/pruned by/);
    await expect(page.getByTestId('inspector-pruned')).toContainText(/Pruned by \S+, with its subtree/);
    await page.screenshot({ path: test.info().outputPath('sdk-cli-run.png') });
  } finally {
    cli.process.kill('SIGKILL');
  }
});

test('a client killed with SIGKILL leaves its run interrupted, not running forever', async ({ page }) => {
  const cli = explore(400);
  try {
    const { url, id } = await runUrl(cli);
    await page.goto(url);
    await expect(page.getByTestId('run-status')).toHaveText('running');
    await expect
      .poll(async () => Number(await page.getByTestId('stat-total').textContent()), { timeout: 30_000 })
      .toBeGreaterThan(0);
    cli.process.kill('SIGKILL');
    await cli.exited;
    // no heartbeat: after the server's silence limit (ARBORIST_INGEST_TIMEOUT_MS, low for the e2e servers) the run is
    // marked interrupted, and the open page says so
    await expect(page.getByTestId('run-status')).toHaveText('interrupted', { timeout: 45_000 });
    const log = await ndjson(E2E_BASE, id);
    expect(log.at(-1)?.type).toBe('run.interrupted');
    expect(log.some((e) => e.type === 'run.finished')).toBe(false);
  } finally {
    cli.process.kill('SIGKILL');
  }
});

test("the Python client's Tree-of-Thoughts Game of 24 example streams its search and finishes with the verified answer", async ({
  page,
}) => {
  const python = start('python3', [
    'lib/sdk/python/examples/tot_game24.py',
    '--server',
    E2E_BASE,
    '--numbers',
    '4 9 10 13',
  ]);
  expect(await python.exited).toBe(0);
  expect(python.stdout()).toMatch(/Answer: .* = 24 \(verified\)/);
  expect(python.stdout()).toMatch(/finished on the server: yes/);
  const { url, id } = await runUrl(python);

  const log = await ndjson(E2E_BASE, id);
  const finished = log.find((e) => e.type === 'run.finished')!;
  expect(finished.payload).toMatchObject({ success: true, verified: true, reason: 'terminated' });
  const best = payload<{ bestNodeId: string }>(finished).bestNodeId;
  expect(
    log.find((e) => e.type === 'node.verified' && payload<{ nodeId: string }>(e).nodeId === best)?.payload,
  ).toMatchObject({
    passed: true,
  });
  expect(log.filter((e) => e.type === 'node.created').length).toBeGreaterThan(50);
  expect(log.filter((e) => e.type === 'node.pruned').length).toBeGreaterThan(0);
  expect(log.find((e) => e.type === 'node.annotated' && e.payload.nodeId !== 'root')?.payload).toMatchObject({
    scores: { value: expect.any(Number), closeness: expect.any(Number) },
  });

  await page.goto(`${url}?node=${best}`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(card(page, best)).toBeVisible();
  await expect(card(page, best)).toContainText('= 24');
  // the path to the answer drawn as cards, the beam's prunes folded beside it with what was pruned by rule (as the
  // engine's candidates pruned by score are), not as dead ends
  expect(await page.getByTestId('thought-node').count()).toBeGreaterThanOrEqual(3);
  await expect(
    page
      .getByTestId('dropped-fold')
      .filter({ hasText: /\d+ pruned by the search/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('inspector-verification')).toContainText('passed');
  await page.screenshot({ path: test.info().outputPath('sdk-python-run.png') });
});
