// An llm-reasoners MCTS tree log (issue 13): the 10-iteration fixture imported through the runs page's drop zone
// becomes a run whose timeline has one search step per MCTS iteration; stepping through them shows a node's Q and
// visits change on its card and in the inspector as the log says (Q from the edge into it, N counted from the
// selected paths); the inspector shows its state, Q, N and reward; the overview offers to colour by Q and visits.
// Screenshots light and dark. The expected figures are read from the fixture here, not from the import.
// data-testid used: import-file-input, import-status, thought-node (data-node-id), node-mcts, inspector-node,
// inspector-mcts, inspector-mcts-q, inspector-mcts-n, inspector-mcts-reward, inspector-mcts-selected,
// timeline-position, run-status, run-imported, overview-colouring, overview-canvas, overview.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const FIXTURE = 'lib/formats/fixtures/llm-reasoners-mcts-10.json';
const FILE_NAME = 'mcts-10.json';

interface Edge {
  source: number;
  target: number;
  data: { Q: number; reward: number };
}
interface Snapshot {
  nodes: Record<string, { data: Record<string, unknown>; selected_edge: number | null }>;
  edges: Record<string, Edge>;
}
const log = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { logs: Snapshot[] };

/** Q as the card writes it (two decimals below 10). */
const q2 = (q: number) => q.toFixed(2);

/** Node 1's Q and visits after each iteration: the edge into it, and the selected paths through it (depth limit 3). */
function node1ByIteration(): { q: number; n: number; reward: number }[] {
  let visits = 0;
  return log.logs.map((snap) => {
    let node = 0;
    for (let depth = 0; depth < 3; depth++) {
      const selected = snap.nodes[String(node)]?.selected_edge;
      if (selected === null || selected === undefined) break;
      node = (snap.edges[String(selected)] as Edge).target;
      if (node === 1) visits += 1;
    }
    const edge = Object.values(snap.edges).find((e) => e.target === 1) as Edge;
    return { q: edge.data.Q, n: visits, reward: edge.data.reward };
  });
}

const forwardStep = (page: Page) => page.getByTitle('Forward one search step (])');

test('an llm-reasoners log steps through its MCTS iterations, with Q and visits as of each', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await page.getByTestId('import-file-input').setInputFiles({
    name: FILE_NAME,
    mimeType: 'application/json',
    buffer: readFileSync(FIXTURE),
  });
  const links = page.getByTestId('import-status').getByRole('link');
  await expect(links).toHaveCount(1, { timeout: 30_000 });
  const id = ((await links.first().getAttribute('href')) ?? '').split('/').pop() as string;

  await page.goto(`/runs/${id}?step=0`);
  await expect(page.getByTestId('run-imported')).toHaveText(`imported: ${FILE_NAME}`);
  await expect(page.getByTestId('timeline-position')).toContainText('step 0 /');

  // one search step per iteration: ten steps forward reach the end, and not one more
  const expected = node1ByIteration();
  const inspector = page.locator('[data-testid=inspector-node][data-node-id=n1]');
  const card = page.locator('[data-testid=thought-node][data-node-id=n1]');
  const seen: string[] = [];
  for (const [k, want] of expected.entries()) {
    await expect(forwardStep(page)).toBeEnabled();
    await forwardStep(page).click();
    await expect(page.getByTestId('timeline-position')).not.toContainText('step 0 /');
    // n1 is born in the first iteration: select it there
    if (k === 0) await card.click();
    await expect(inspector.getByTestId('inspector-mcts-q')).toHaveText(q2(want.q));
    await expect(inspector.getByTestId('inspector-mcts-n')).toHaveText(String(want.n));
    await expect(card).toContainText(`Q ${q2(want.q)} · N ${want.n}`);
    seen.push(`Q ${q2(want.q)} · N ${want.n}`);
    if (k === 0) await page.screenshot({ path: test.info().outputPath('mcts-step1.png') });
  }
  await expect(forwardStep(page)).toBeDisabled();
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  // the figures did change as the iterations went (the log revisits n1)
  expect(new Set(seen).size).toBeGreaterThan(3);

  // the inspector: its state (the result), Q, N, the reward, the selected edge
  const last = expected[expected.length - 1] as { q: number; n: number; reward: number };
  await expect(inspector).toContainText('value: 4');
  await expect(inspector).toContainText('history: ["+3"]');
  await expect(inspector.getByTestId('inspector-mcts-reward')).toHaveText(q2(last.reward));
  await expect(inspector.getByTestId('inspector-mcts-selected')).toBeVisible();
  await inspector.getByTestId('inspector-mcts').scrollIntoViewIfNeeded();

  // the overview offers MCTS Q and visits, and colours by them
  const colouring = page.getByTestId('overview-colouring');
  await expect(colouring.locator('option')).toContainText([
    'Status',
    'Score',
    'Cost',
    'Depth',
    'MCTS Q',
    'MCTS visits',
  ]);
  await colouring.selectOption('q');
  await expect(page.getByTestId('overview-canvas')).toHaveAttribute('data-colouring', 'q');
  const lowest = Math.min(...Object.values(log.logs[log.logs.length - 1]?.edges ?? {}).map((e) => e.data.Q));
  await expect(page.getByTestId('overview')).toContainText(`Q ${q2(lowest)}`);

  // far out, a card is a pill and carries the figures in its score bar's place
  await expect(card).toHaveAttribute('data-level', 'pill');
  await expect(card.locator('.tpill-mcts')).toHaveText(`Q ${q2(last.q)} · N ${last.n}`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: test.info().outputPath('mcts-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('mcts-dark.png') });

  // close up, the card's own line
  // (the wheel over the card zooms toward it, as a person would)
  await expect(async () => {
    const box = await card.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -200);
    expect(await card.getAttribute('data-level')).toBe('card');
  }).toPass({ timeout: 15_000 });
  await expect(card.getByTestId('node-mcts')).toHaveText(`Q ${q2(last.q)} · N ${last.n}`);
  await page.screenshot({ path: test.info().outputPath('mcts-card-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: test.info().outputPath('mcts-card-light.png') });
});
