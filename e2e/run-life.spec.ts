// A run's whole life reaches its page through the stream alone: a queued run turns running then finished with no
// reload and no poll (the record is read once), and a run a restart interrupts says so, then resumes, on the same
// page. Every status change here is an event in the run's log; no timer asks the server.
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE, mutate } from './api';
import { freePort, startServer, waitUntilUp } from '../lib/harness/index';

/** Counts the page's run.byId requests (a batched call names every procedure in its path). */
function countRecordReads(page: Page): () => number {
  let reads = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.includes('run.byId')) reads += 1;
  });
  return () => reads;
}

const slowRun = (latencyMs: number, maxTotalNodes: number) => ({
  taskId: 'open-goal',
  goal: 'Plan a library move across town',
  // one call at a time, so the run is still going when the test acts (the log is the same at any limit)
  config: { maxTotalNodes, maxDepth: 3, terminationConfidence: 1, maxConcurrentCalls: 1 },
  model: { provider: 'simulated', seed: 5, latencyMs },
});

test("a queued run's page turns running, then finished, with no reload and no poll", async ({ page }) => {
  // fill every slot (the test server runs 4 at once) so the next run waits in the queue
  const blockers = await Promise.all(
    [1, 2, 3, 4].map(() => mutate<{ id: string }>(E2E_BASE, 'run.create', slowRun(5_000, 200))),
  );
  const { id } = await mutate<{ id: string }>(E2E_BASE, 'run.create', slowRun(120, 8));
  const reads = countRecordReads(page);
  await page.goto(`/runs/${id}`);
  // a reload would drop this mark
  await page.evaluate(() => Object.assign(window, { arboristMark: true }));
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('queued');
  // the empty canvas says why it is empty, until the tree has its root
  await expect(page.getByTestId('canvas-note')).toContainText('Queued');
  await expect(page.getByTestId('connection')).toHaveText(/live/);
  await page.screenshot({ path: test.info().outputPath('queued.png') });

  // free the slots: the queued run starts, and its page hears it from the stream
  for (const blocker of blockers) await mutate(E2E_BASE, 'run.abort', { id: blocker.id });
  await expect(status).toHaveText('running');
  await expect(page.getByTestId('canvas-note')).toBeHidden();
  await expect(status).toHaveText('finished', { timeout: 60_000 });
  await page.screenshot({ path: test.info().outputPath('finished.png') });
  expect(await page.evaluate(() => 'arboristMark' in window)).toBe(true);
  expect(reads()).toBe(1);
});

test('a run interrupted by a restart shows interrupted on its open page, then resumes to its end', async ({ page }) => {
  const DB = 'data/e2e-life.db';
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const launch = () =>
    startServer(port, { DATABASE_URL: `file:./${DB}`, ARBORIST_RESUME: 'manual', ARBORIST_DEMO: '0' });
  let server = launch();
  try {
    await waitUntilUp(server, base);
    const { id } = await mutate<{ id: string }>(base, 'run.create', slowRun(150, 30));
    const reads = countRecordReads(page);
    await page.goto(`${base}/runs/${id}`);
    const status = page.getByTestId('run-status');
    await expect(status).toHaveText('running');
    await expect.poll(() => page.getByTestId('thought-node').count()).toBeGreaterThan(2);

    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    server = launch();
    await waitUntilUp(server, base);
    // the new server writes run.interrupted at its start; the page's stream reconnects and reads it
    await expect(status).toHaveText('interrupted', { timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath('interrupted.png') });

    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(status).toHaveText('finished', { timeout: 60_000 });
    expect(reads()).toBe(1);
  } finally {
    server.kill('SIGKILL');
  }
});
