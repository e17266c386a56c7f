// The team server (issue 15): two production instances on one PostgreSQL behave as one server. A run created on A
// executes on A; a page served by B follows it live; a prune sent from B's page reaches A's search; A is killed with
// SIGKILL mid-run; B takes the run over when A's lease lapses, resumes it from its log and finishes it. The log is
// seq 1..N with no gap, and the page never received an event twice (every SSE message it got is recorded by a wrapper
// around EventSource, installed before the app loads).
// Starts its own PostgreSQL (lib/harness/postgres.ts: it fails with the reason when PostgreSQL cannot start) and its
// own two servers on free ports.
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../../lib/contract/events';
import { freePort, startPostgres, startServer, waitUntilUp, type PostgresCluster } from '../../lib/harness/index';
import { mutate, ndjson, query } from '../api';

interface Health {
  ok: boolean;
  backend: string;
  instance: string;
  runs: { executingHere: number };
  queue: { depth: number };
}

async function health(base: string): Promise<Health> {
  return (await (await fetch(`${base}/api/health`)).json()) as Health;
}

const card = (page: Page, nodeId: string) => page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`);

/** Records the seq (SSE id) of every message any EventSource of the page receives, in order. */
function recordStreamedSeqs(page: Page) {
  return page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __streamedSeqs: string[] }).__streamedSeqs = seen;
    const Original = window.EventSource;
    class Recording extends Original {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('message', (event) => {
          // a live figure (calls in flight) carries the last event's id again: it is not an event
          if (event.lastEventId && !String(event.data).includes('"live":{"callsInFlight"')) seen.push(event.lastEventId);
        });
      }
    }
    window.EventSource = Recording;
  });
}

const streamedSeqs = (page: Page) =>
  page.evaluate(() => (window as unknown as { __streamedSeqs: string[] }).__streamedSeqs.map(Number));

let postgres: PostgresCluster | null = null;
test.afterAll(() => postgres?.stop());

test('two instances: follow from B, prune from B, kill -9 A, B finishes the run with nothing lost or repeated', async ({
  page,
}) => {
  test.setTimeout(180_000);
  postgres = startPostgres(await freePort());
  const database = await postgres.createDatabase('arborist');
  const [portA, portB] = [await freePort(), await freePort()];
  const [baseA, baseB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
  const env = (instance: string) => ({
    DATABASE_URL: database,
    ARBORIST_INSTANCE_ID: instance,
    // a short lease, so the takeover comes within seconds of the kill
    ARBORIST_LEASE_MS: '3000',
    ARBORIST_HEARTBEAT_MS: '500',
    ARBORIST_DEMO: '0',
  });
  const output: string[] = [];
  const a = startServer(portA, env('instance-a'), (text) => output.push(`[a] ${text}`));
  let b: ReturnType<typeof startServer> | null = null;
  try {
    await waitUntilUp(a, baseA);
    expect(await health(baseA)).toMatchObject({ ok: true, backend: 'postgresql', instance: 'instance-a' });

    // created on A while B is not up yet: A claims it from the queue; paused from A once the root has children, so
    // it is still going when B's page opens
    const { id } = await mutate<{ id: string }>(baseA, 'run.create', {
      taskId: 'open-goal',
      goal: 'Plan the migration of a payments service to a new database',
      config: { maxTotalNodes: 60, maxDepth: 6, terminationConfidence: 1 },
      model: { provider: 'simulated', seed: 5, latencyMs: 300 },
    });
    await expect.poll(async () => (await health(baseA)).runs.executingHere, { timeout: 15_000 }).toBe(1);
    const rootExpanded = (events: ExplorationEvent[]) =>
      events.some((e) => e.type === 'node.expanded' && e.payload.nodeId === 'n0');
    await expect.poll(async () => rootExpanded(await ndjson(baseA, id)), { timeout: 15_000 }).toBe(true);
    await mutate(baseA, 'run.pause', { id });

    b = startServer(portB, env('instance-b'), (text) => output.push(`[b] ${text}`));
    await waitUntilUp(b, baseB);
    expect(await health(baseB)).toMatchObject({ ok: true, instance: 'instance-b', runs: { executingHere: 0 } });

    // B's page shows A's search
    await recordStreamedSeqs(page);
    await page.goto(`${baseB}/runs/${id}`);
    await expect(page.getByTestId('run-status')).toHaveText('paused');
    await expect(page.getByTestId('connection')).toHaveText(/live/);

    // prune from B a queued child that has not run (the command goes to A, which runs the search)
    const atPause = await ndjson(baseB, id);
    const started = new Set(
      atPause.filter((e) => e.type === 'node.started').map((e) => (e.payload as { nodeId: string }).nodeId),
    );
    const target = atPause
      .filter((e) => e.type === 'node.queued' && e.payload.mode === 'execute')
      .map((e) => (e.payload as { nodeId: string }).nodeId)
      .find((nodeId) => !started.has(nodeId));
    expect(target, 'a queued node that has not run yet').toMatch(/^n\d+$/);
    await page.keyboard.press('f');
    await card(page, target as string).click({ button: 'right' });
    await page
      .getByTestId('node-menu')
      .getByRole('menuitem', { name: /Prune branch/ })
      .click();
    await expect(card(page, target as string)).toHaveAttribute('data-status', 'pruned');

    // resume from B: A's search goes on, and B's page follows it live
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(page.getByTestId('run-status')).toHaveText('running');
    const explored = async () => Number(await page.getByTestId('stat-explored').textContent());
    const atResume = await explored();
    await expect.poll(explored, { timeout: 20_000 }).toBeGreaterThan(atResume + 2);
    // still A's search: B runs nothing
    expect((await health(baseA)).runs.executingHere).toBe(1);
    expect((await health(baseB)).runs.executingHere).toBe(0);

    // kill A mid-run
    a.kill('SIGKILL');
    await new Promise((resolve) => a.once('exit', resolve));
    const killedAt = (await ndjson(baseB, id)).at(-1)?.seq ?? 0;

    // B takes over and finishes; the page on B saw it all without reloading
    await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 90_000 });

    const log: ExplorationEvent[] = await ndjson(baseB, id);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1)); // no gap, no duplicate
    const after = log.filter((e) => e.seq > killedAt);
    expect(after.map((e) => e.type)).toEqual(expect.arrayContaining(['run.interrupted', 'run.queued', 'run.resumed']));
    expect(log.filter((e) => e.type === 'run.started')).toHaveLength(1);
    expect(log.at(-1)?.type).toBe('run.finished');
    // A's search obeyed the prune sent from B, and so did B's after the takeover
    const pruneSeq = log.find((e) => e.type === 'steer.prune' && e.payload.nodeId === target)?.seq ?? 0;
    expect(pruneSeq).toBeGreaterThan(0);
    expect(log.filter((e) => e.seq > pruneSeq && e.type === 'node.started' && e.payload.nodeId === target)).toEqual([]);

    // the page received each event at most once, and the last one
    const seqs = await streamedSeqs(page);
    expect(seqs.length).toBeGreaterThan(0);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs.at(-1)).toBe(log.length);
    // and shows what the run row says it explored
    const row = await query<{ exploredNodes: number; status: string }>(baseB, 'run.byId', { id });
    expect(row.status).toBe('finished');
    await expect(page.getByTestId('stat-explored')).toHaveText(new RegExp(`\\b${row.exploredNodes}\\b`));
  } catch (error) {
    console.log(output.join('').slice(-4000));
    throw error;
  } finally {
    a.kill('SIGKILL');
    b?.kill('SIGKILL');
  }
});
