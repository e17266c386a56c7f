// A search Arborist does not run, on the run page, from an imported export whose log has run.started's `external`:
// its steering controls follow the commands its client takes (off with a reason a person reads, or "steering is
// unavailable" when it takes none), the commands asked of it read as applied, refused (with the client's reason) or
// waiting for the client (since when), and the inspector shows its named scores, metadata, own prune and own config.
// Screenshots light and dark at 1280x720 go to test-results/screens/.
//
// data-testid hooks used here: run-external, run-command (data-outcome), steering-unavailable, steer-commands,
// steer-command (data-outcome), node-command (data-outcome), inspector-named-scores, inspector-metadata,
// inspector-external-config, inspector-commands, mark-asked, mark-refused.
import { expect, test, type Page } from '@playwright/test';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../lib/contract/events';
import type { SteerKind } from '../lib/contract/vocabulary';
import { DEFAULT_TOT_CONFIG } from '../lib/engine/index';

const AGENT = 'my-mcts';
const LONG_TRACE = { rollouts: Array.from({ length: 6 }, (_, i) => ({ i, reward: i / 10, path: ['a', 'b'] })) };

/**
 * The log an ingest client would have written: three children, annotations, its own prune, and (when it takes
 * commands) three asked of it: a prune applied, a pause refused, a prune never answered.
 */
function externalLog(commands: SteerKind[]): ExplorationEvent[] {
  const events: ExplorationEvent[] = [];
  const start = Date.now() - 60_000;
  const add = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]) =>
    events.push({
      runId: 'ext',
      seq: events.length + 1,
      ts: start + events.length * 1_000,
      type,
      payload,
    } as ExplorationEvent);
  add('run.started', {
    goal: 'Fill the 5x5 mini crossword',
    taskId: 'crossword-mcts',
    agentName: AGENT,
    modelId: 'llama-3-8b',
    config: DEFAULT_TOT_CONFIG,
    external: { config: { iterations: 10, c: 1.4, rollout: { depth: 3, policy: 'greedy' } }, commands },
  });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  for (const [id, thought] of [
    ['a', '1-across: AGILE'],
    ['b', '1-across: ALONE'],
    ['c', '1-across: ABBOT'],
  ] as const) {
    add('node.created', {
      nodeId: id,
      parentId: 'n0',
      branch: { thought, proposedAction: { type: 'response', content: thought } },
      score: null,
    });
  }
  add('node.annotated', {
    nodeId: 'a',
    scores: { reward: 0.5, value: 2.25 },
    metadata: { state: 'x=1', note: '<b>not bold</b>', trace: LONG_TRACE },
  });
  add('node.pruned', { nodeId: 'c', reason: 'an impossible clue: 3-down has no word' });
  // a client that takes no command is never asked one (the server refuses it): its log has none
  if (commands.length === 0) return events;
  add('steer.requested', { kind: 'prune', nodeId: 'b', actor: 'alice' });
  add('steer.prune', { nodeId: 'b', actor: 'alice' });
  add('steer.acked', { requestSeq: events.length - 1, outcome: 'applied', reason: null });
  add('steer.requested', { kind: 'pause', nodeId: null, actor: 'bob' });
  add('steer.acked', {
    requestSeq: events.length,
    outcome: 'refused',
    reason: 'mid-rollout: pauses between iterations',
  });
  add('steer.requested', { kind: 'prune', nodeId: 'a', actor: 'carol' }); // never answered
  return events;
}

async function importExternal(baseURL: string, commands: SteerKind[]): Promise<string> {
  const events = externalLog(commands);
  const file = {
    format: 'arborist.run',
    version: 1,
    exportedAt: new Date().toISOString(),
    run: {
      id: 'ext',
      taskId: 'crossword-mcts',
      goal: 'Fill the 5x5 mini crossword',
      modelId: 'llama-3-8b',
      modelLabel: 'llama-3-8b',
      modelSettings: null,
      config: DEFAULT_TOT_CONFIG,
      seed: null,
      status: 'running',
      finishReason: null,
      // now, not the log's first time: other specs take the oldest run for the seeded demo
      createdAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      finishedAt: null,
      importTag: null,
      parentRunId: null,
      parentNodeId: null,
    },
    events,
  };
  const res = await fetch(`${baseURL}/api/runs/import?tag=e2e-external`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(file),
  });
  const answer = (await res.json()) as { runs?: { id: string }[]; error?: string };
  expect(res.status, answer.error).toBe(200);
  return answer.runs?.[0]?.id as string;
}

async function openRun(page: Page, runId: string) {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId('run-external')).toHaveText(`external: ${AGENT}`);
  await expect(page.locator('[data-testid=thought-node][data-node-id=a]')).toBeVisible();
}

async function selectNode(page: Page, nodeId: string) {
  await page.locator(`[data-testid=thought-node][data-node-id=${nodeId}]`).click();
  await expect(page.getByTestId('inspector-node')).toHaveAttribute('data-node-id', nodeId);
}

test('a search whose client takes some commands: the others are off with the reason, the commands read as answered', async ({
  page,
  baseURL,
}) => {
  const runId = await importExternal(baseURL as string, ['prune', 'pause']);
  await openRun(page, runId);
  const header = page.getByTestId('run-header');

  // the run-level commands its client does not take are off, each saying so
  const step = header.getByRole('button', { name: 'Step' });
  await expect(step).toBeDisabled();
  await expect(step).toHaveAttribute('title', /this search does not take step commands/);
  await expect(header.getByRole('button', { name: 'Abort' })).toHaveAttribute(
    'title',
    /this search does not take abort commands/,
  );
  // the last run-level command, refused by the client, with its reason
  await expect(page.getByTestId('run-command')).toHaveAttribute('data-outcome', 'refused');
  await expect(page.getByTestId('run-command')).toHaveText('Pause refused: mid-rollout: pauses between iterations');

  // the canvas: a prune still waiting, the search's own prune and a person's read differently
  await expect(page.locator('[data-node-id=a] [data-testid=mark-asked]')).toHaveText('prune requested…');
  // a person's prune is folded as a dead end, the search's own with what was pruned by rule: open both
  await page.getByTestId('fold-node').first().click();
  await expect(page.getByTestId('dropped-fold').first()).toContainText('1 pruned by the search');
  await page.getByTestId('dropped-fold').first().click();
  await expect(page.locator('[data-testid=thought-node][data-node-id=c]')).toContainText('pruned by the search');
  await expect(page.locator('[data-testid=thought-node][data-node-id=b]')).toContainText('pruned by alice');

  // the canvas menu says why expand is off
  await page.locator('[data-testid=thought-node][data-node-id=a]').click({ button: 'right' });
  const expand = page.getByTestId('node-menu').getByRole('menuitem', { name: /Expand again/ });
  await expect(expand).toBeDisabled();
  await expect(expand).toHaveAttribute('title', 'this search does not take expand commands');
  await page.keyboard.press('Escape');

  // the inspector: the node's named scores and metadata as text, long JSON folded, its waiting command
  await selectNode(page, 'a');
  const scores = page.getByTestId('inspector-named-scores');
  await expect(scores.locator('[data-score=reward] dd')).toHaveText('0.5');
  await expect(scores.locator('[data-score=value] dd')).toHaveText('2.25');
  const metadata = page.getByTestId('inspector-metadata');
  await expect(metadata.locator('[data-key=state] dd')).toHaveText('x=1');
  await expect(metadata.locator('[data-key=note] dd')).toHaveText('<b>not bold</b>');
  await expect(metadata.locator('[data-key=note] b')).toHaveCount(0);
  const trace = metadata.locator('[data-key=trace] details');
  await expect(trace).not.toHaveAttribute('open');
  await trace.locator('summary').click();
  await expect(trace.locator('pre')).toContainText('"reward": 0.5');
  await expect(page.getByTestId('node-command')).toHaveAttribute('data-outcome', 'requested');
  await expect(page.getByTestId('node-command')).toHaveText(
    /^Prune a requested: waiting for the client since \d\d:\d\d:\d\d$/,
  );
  await expect(page.getByTestId('inspector-expand')).toBeDisabled();
  await expect(page.getByTestId('inspector-expand').locator('..')).toHaveAttribute(
    'title',
    'this search does not take expand commands',
  );
  await page.screenshot({ path: 'test-results/screens/external-run-node-light.png' });

  // the search's own prune, with its reason; a person's applied prune
  await selectNode(page, 'c');
  await expect(page.getByTestId('inspector-pruned')).toContainText(
    'Pruned by the search, with its subtree: an impossible clue: 3-down has no word',
  );
  await selectNode(page, 'b');
  await expect(page.getByTestId('inspector-pruned')).toContainText('alice');
  await expect(page.getByTestId('node-command')).toHaveText('Prune b applied');

  // the run's details: its commands with their answers, its own config in place of the engine's
  await selectNode(page, 'n0');
  const list = page.getByTestId('steer-command');
  await expect(list).toHaveCount(3);
  await expect(list.nth(0)).toHaveAttribute('data-outcome', 'applied');
  await expect(list.nth(1)).toHaveAttribute('data-outcome', 'refused');
  await expect(list.nth(1)).toContainText('refused: mid-rollout: pauses between iterations');
  await expect(list.nth(2)).toHaveAttribute('data-outcome', 'requested');
  await expect(list.nth(2)).toContainText(/waiting for the client since \d\d:\d\d:\d\d/);
  const config = page.getByTestId('inspector-external-config');
  await expect(config.locator('[data-key=iterations] dd')).toHaveText('10');
  await expect(config).not.toContainText('beam width');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screens/external-run-details-dark.png' });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: 'test-results/screens/external-run-details-light.png' });
  await selectNode(page, 'a');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: 'test-results/screens/external-run-node-dark.png' });
});

test('a search whose client listens for no command reads as unavailable, not as buttons that do nothing', async ({
  page,
  baseURL,
}) => {
  const runId = await importExternal(baseURL as string, []);
  await openRun(page, runId);
  const header = page.getByTestId('run-header');
  await expect(page.getByTestId('steering-unavailable')).toHaveText(
    `Steering is unavailable: ${AGENT} does not listen for commands`,
  );
  for (const name of ['Pause', 'Resume', 'Step', 'Abort']) {
    await expect(header.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await selectNode(page, 'a');
  await expect(page.getByTestId('inspector-prune')).toHaveCount(0);
  await expect(page.getByTestId('inspector-command-why')).toHaveText(
    `Steering is unavailable: ${AGENT} does not listen for commands.`,
  );
  await page.screenshot({ path: 'test-results/screens/external-run-unavailable-light.png' });
  // nor does the list of keys offer steering keys that would do nothing
  await page.keyboard.press('?');
  const keys = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(keys).toContainText('zoom to fit');
  await expect(keys).not.toContainText('prune the selected branch');
});

test('live: a prune asked on the page reads as requested until the client answers, then applied or refused', async ({
  page,
  baseURL,
}) => {
  const base = baseURL as string;
  const created = await fetch(`${base}/api/ingest/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      goal: 'find 24 from 4 9 10 13',
      task: 'e2e-steer',
      model: 'scripted',
      agent: 'py-tot',
      commands: ['prune'],
    }),
  });
  expect(created.status).toBe(201);
  const { runId } = (await created.json()) as { runId: string };
  let seq = 0;
  const send = async (items: Record<string, unknown>[]) => {
    const res = await fetch(`${base}/api/ingest/runs/${runId}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items.map((item) => ({ seq: ++seq, ...item }))),
    });
    expect(res.status).toBe(200);
  };
  /** The client's poll for the commands after `after`: what the page asked, as the client sees it. */
  const poll = async (after: number) => {
    const res = await fetch(`${base}/api/ingest/runs/${runId}/commands?after=${after}&waitMs=10000`);
    const { commands } = (await res.json()) as {
      commands: { seq: number; kind: string; nodeId: string; actor: string }[];
    };
    return commands;
  };
  await send([
    { op: 'node', id: 'root', parent: null },
    { op: 'node', id: 'a', parent: 'root', thought: '13 - 9 = 4', score: 0.8 },
    { op: 'node', id: 'b', parent: 'root', thought: '10 - 4 = 6', score: 0.3 },
  ]);
  // the client stays alive while the page works (the e2e server calls a client silent after 4 s)
  const alive = setInterval(() => {
    void fetch(`${base}/api/ingest/runs/${runId}/heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    }).catch(() => {});
  }, 1_000);
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId('run-external')).toHaveText('external: py-tot');
    await expect(page.getByTestId('run-status')).toHaveText('running');
    await expect(page.getByTestId('run-header').getByRole('button', { name: 'Pause' })).toHaveAttribute(
      'title',
      /this search does not take pause commands/,
    );

    // asked: the node and the inspector say it waits for the client
    await selectNode(page, 'b');
    await page.getByTestId('inspector-prune').click();
    await expect(page.locator('[data-node-id=b] [data-testid=mark-asked]')).toHaveText('prune requested…');
    await expect(page.getByTestId('node-command')).toHaveText(/^Prune b requested: waiting for the client since /);
    await expect(page.locator('[data-testid=thought-node][data-node-id=b]')).toHaveAttribute('data-status', 'pending');
    await page.screenshot({ path: 'test-results/screens/external-run-live-requested-light.png' });

    // the client applies it and says so: the node is pruned and the command reads applied
    const [prune] = await poll(0);
    expect(prune).toMatchObject({ kind: 'prune', nodeId: 'b' });
    await send([
      { op: 'prune', node: 'b', actor: prune?.actor },
      { op: 'ack', command: prune?.seq, outcome: 'applied' },
    ]);
    await expect(page.locator('[data-testid=thought-node][data-node-id=b]')).toHaveAttribute('data-status', 'pruned');
    await expect(page.getByTestId('node-command')).toHaveText('Prune b applied');
    await expect(page.locator('[data-node-id=b] [data-testid=mark-asked]')).toHaveCount(0);

    // another the client refuses: its reason shows on the node's command
    await selectNode(page, 'a');
    await page.getByTestId('inspector-prune').click();
    await expect(page.locator('[data-node-id=a] [data-testid=mark-asked]')).toBeVisible();
    const [refusal] = await poll(prune?.seq ?? 0);
    await send([{ op: 'ack', command: refusal?.seq, outcome: 'refused', reason: 'a is on the best path' }]);
    await expect(page.locator('[data-node-id=a] [data-testid=mark-refused]')).toHaveText('prune refused');
    await expect(page.getByTestId('node-command')).toHaveText('Prune a refused: a is on the best path');
    await expect(page.locator('[data-testid=thought-node][data-node-id=a]')).toHaveAttribute('data-status', 'pending');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/screens/external-run-live-refused-dark.png' });
  } finally {
    clearInterval(alive);
  }
});
