// The ingest API over real HTTP against the production server (local mode: loopback, no key): a malformed batch is
// a 400 naming the field and writes nothing, a retried batch is stored once, NDJSON is a batch too, and a page open
// on the run draws a node the moment a client sends it, as it would for a run the engine runs.
// data-testid used: thought-node, run-status, breakpoint-stop (data-node-id), breakpoint-stop-detail.
import { expect, test } from '@playwright/test';
import { E2E_BASE, mutate, ndjson, query } from './api';

const JSON_HEADERS = { 'content-type': 'application/json' };

async function createRun(commands: string[] = [], more: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${E2E_BASE}/api/ingest/runs`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ goal: 'find 24 from 4 9 10 13', task: 'e2e-tot', model: 'scripted', commands, ...more }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { runId: string }).runId;
}

async function send(runId: string, body: string, type = 'application/json') {
  const res = await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/events`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const opening = [
  { seq: 1, op: 'node', id: 'root', parent: null },
  { seq: 2, op: 'node', id: 'a', parent: 'root', thought: '13 - 9 = 4', score: 0.8 },
  { seq: 3, op: 'node', id: 'b', parent: 'root', thought: '10 - 4 = 6', score: 0.3 },
];

test('a malformed batch is refused with 400 naming the field, and nothing of it is stored', async () => {
  const runId = await createRun();
  const before = (await ndjson(E2E_BASE, runId)).length;
  const bad = [...opening.slice(0, 2), { seq: 3, op: 'node', id: 'c', parent: 'root', score: 7 }];
  const answer = await send(runId, JSON.stringify(bad));
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ error: 'invalid', issues: [{ path: 'items[2].score' }] });
  expect(String(answer.body.message)).toMatch(/^items\[2\]\.score: /);
  expect((await ndjson(E2E_BASE, runId)).length).toBe(before);
});

test('a retried batch is stored once, and a gap is a 409 that says the seq expected', async () => {
  const runId = await createRun();
  expect(await send(runId, JSON.stringify({ items: opening }))).toMatchObject({
    status: 200,
    body: { accepted: 3, duplicates: 0, nextSeq: 4 },
  });
  const stored = await ndjson(E2E_BASE, runId);
  expect(await send(runId, JSON.stringify(opening))).toMatchObject({
    status: 200,
    body: { accepted: 0, duplicates: 3, nextSeq: 4 },
  });
  expect((await ndjson(E2E_BASE, runId)).length).toBe(stored.length);
  expect(stored.filter((e) => e.type === 'node.created')).toHaveLength(3);
  expect(await send(runId, JSON.stringify([{ seq: 9, op: 'fail', node: 'a', reason: 'x' }]))).toMatchObject({
    status: 409,
    body: { error: 'gap', expectedSeq: 4 },
  });
});

test('an NDJSON body is a batch, one item a line', async () => {
  const runId = await createRun();
  const lines = opening.map((item) => JSON.stringify(item)).join('\n') + '\n';
  expect(await send(runId, lines, 'application/x-ndjson')).toMatchObject({ status: 200, body: { accepted: 3 } });
  const finish = await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/finish`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ output: '24', best: 'a', success: true }),
  });
  expect(await finish.json()).toMatchObject({ status: 'finished' });
});

test('a page open on an external run draws the node a client sends next', async ({ page }) => {
  const runId = await createRun(['prune']);
  await send(runId, JSON.stringify(opening));
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('thought-node').filter({ hasText: '13 - 9 = 4' })).toBeVisible();
  await send(runId, JSON.stringify([{ seq: 4, op: 'node', id: 'c', parent: 'a', thought: 'live: 4 * 6 = 24' }]));
  await expect(page.getByTestId('thought-node').filter({ hasText: 'live: 4 * 6 = 24' })).toBeVisible();
});

test('a prune asked through the API reaches the client by its poll, and its ack shows it applied', async () => {
  const runId = await createRun(['prune']);
  await send(runId, JSON.stringify(opening));
  const poll = fetch(`${E2E_BASE}/api/ingest/runs/${runId}/commands?after=0&waitMs=20000`);
  await mutate(E2E_BASE, 'node.prune', { runId, nodeId: 'b' });
  const { commands } = (await (await poll).json()) as { commands: { seq: number; kind: string; nodeId: string }[] };
  expect(commands).toEqual([expect.objectContaining({ kind: 'prune', nodeId: 'b', actor: 'e2e' })]);
  const ack = [
    { seq: 4, op: 'prune', node: 'b', actor: 'e2e' },
    { seq: 5, op: 'ack', command: commands[0]!.seq, outcome: 'applied' },
  ];
  expect(await send(runId, JSON.stringify(ack))).toMatchObject({ status: 200, body: { accepted: 2 } });
  const log = await ndjson(E2E_BASE, runId);
  expect(log.map((e) => e.type).slice(-3)).toEqual(['steer.requested', 'steer.prune', 'steer.acked']);
  // a kind the client did not list is refused before it is recorded
  await expect(mutate(E2E_BASE, 'run.pause', { id: runId })).rejects.toThrow('this search does not take pause');
});

test('a breakpoint stops an external run by a pause its client polls, carrying the hit; one set live reaches it too', async () => {
  const failed = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' } };
  const runId = await createRun(['pause', 'resume'], { breakpoints: [failed] });
  await send(runId, JSON.stringify(opening));
  // live, from the API the page uses: a backtrack breakpoint after it
  const backtracks = { id: 'bt', enabled: true, condition: { kind: 'backtrack' } };
  await mutate(E2E_BASE, 'run.setBreakpoints', { id: runId, breakpoints: [failed, backtracks] });
  const poll = fetch(`${E2E_BASE}/api/ingest/runs/${runId}/commands?after=0&waitMs=20000`);
  await send(runId, JSON.stringify([{ seq: 4, op: 'verify', node: 'a', passed: false, trace: '4 * 4 = 16' }]));
  const { commands } = (await (await poll).json()) as { commands: { seq: number; hit: unknown }[] };
  const verified = (await ndjson(E2E_BASE, runId)).find((e) => e.type === 'node.verified')!;
  expect(commands).toEqual([
    expect.objectContaining({
      kind: 'pause',
      actor: 'breakpoint',
      hit: expect.objectContaining({
        breakpointId: 'vf',
        seq: verified.seq,
        nodeId: 'a',
        detail: 'a failed verification: 4 * 4 = 16',
      }),
    }),
  ]);
  const pause = [
    { seq: 5, type: 'steer.pause', payload: { actor: 'breakpoint' } },
    { seq: 6, op: 'ack', command: commands[0]!.seq, outcome: 'applied' },
  ];
  expect(await send(runId, JSON.stringify(pause))).toMatchObject({ status: 200, body: { status: 'paused' } });
  await mutate(E2E_BASE, 'run.resume', { id: runId });
  const resumed = (await (
    await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/commands?after=${commands[0]!.seq}`)
  ).json()) as {
    commands: { seq: number }[];
  };
  const goOn = [
    { seq: 7, type: 'steer.resume', payload: { actor: 'e2e' } },
    { seq: 8, op: 'ack', command: resumed.commands[0]!.seq, outcome: 'applied' },
    { seq: 9, op: 'backtrack', from: 'a', to: 'b' },
  ];
  await send(runId, JSON.stringify(goOn));
  const again = (await (
    await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/commands?after=${resumed.commands[0]!.seq}`)
  ).json()) as {
    commands: unknown[];
  };
  expect(again.commands).toEqual([
    expect.objectContaining({ kind: 'pause', hit: expect.objectContaining({ breakpointId: 'bt' }) }),
  ]);
});

test('an external run stopped by a breakpoint shows why on its page, naming the node it hit', async ({ page }) => {
  const failed = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' } };
  const runId = await createRun(['pause', 'resume'], { breakpoints: [failed] });
  await send(
    runId,
    JSON.stringify([...opening, { seq: 4, op: 'verify', node: 'b', passed: false, trace: '6 * 3 = 18' }]),
  );
  const { commands } = (await (await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/commands?after=0`)).json()) as {
    commands: { seq: number }[];
  };
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/runs/${runId}`);
  // asked, not yet applied: the client has not paused, so the page says no stop yet
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect(page.getByTestId('breakpoint-stop')).toHaveCount(0);
  await send(
    runId,
    JSON.stringify([
      { seq: 5, type: 'steer.pause', payload: { actor: 'breakpoint' } },
      { seq: 6, op: 'ack', command: commands[0]!.seq, outcome: 'applied' },
    ]),
  );
  const stop = page.getByTestId('breakpoint-stop');
  await expect(stop).toBeVisible();
  await expect(stop).toHaveAttribute('data-node-id', 'b');
  await expect(page.getByTestId('breakpoint-stop-detail')).toContainText('b failed verification: 6 * 3 = 18');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`external-stop-${scheme}.png`) });
  }
});

test('a client that falls silent leaves its run interrupted, and its next request continues it', async () => {
  const runId = await createRun();
  await send(runId, JSON.stringify(opening.slice(0, 1)));
  // the e2e server's ARBORIST_INGEST_TIMEOUT_MS is 4 s (playwright.config.ts)
  await expect
    .poll(async () => (await query<{ status: string }>(E2E_BASE, 'run.byId', { id: runId })).status, {
      timeout: 20_000,
    })
    .toBe('interrupted');
  const beat = await fetch(`${E2E_BASE}/api/ingest/runs/${runId}/heartbeat`, { method: 'POST', headers: JSON_HEADERS });
  expect(await beat.json()).toEqual({ status: 'running', nextSeq: 2 });
  expect((await ndjson(E2E_BASE, runId)).map((e) => e.type).slice(-2)).toEqual(['run.interrupted', 'run.resumed']);
});
