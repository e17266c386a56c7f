// A Tree-of-Thoughts log imported through the runs page tells the truth (issue 10, items 5-7): a game counts as
// solved when any of its final answers is right, as the log's own check (r) says, even when a wrong candidate has
// the higher value; a line reached through a failed move does not verify; an imported node's score is the log's own
// value with its words, with no confidence, progress or novelty of ours; and the run says it was imported, from what.
// The file: the GPT-4 sample's 5 real games, game 900's last step edited so a dead end has the top value (the old
// import then showed that game unsolved), plus the hand-made game of a path through a failed move (r = 0).
// data-testid used: import-file-input, import-status, run-row (data-run-id), run-row-solved, run-imported,
// inspector-imported,
// inspector-score, inspector-log-value, inspector-verification (data-passed), inspector-node.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { fold, type ThoughtNode } from '../lib/engine/index';
import { describeValue, type TotGame } from '../lib/formats/index';
import { E2E_BASE, ndjson, query } from './api';

const SAMPLE = 'lib/formats/fixtures/tot-game24-gpt4-bfs-sample.json';
const FAILED_MOVE = 'lib/formats/fixtures/tot-game24-failed-move.json';
const FILE_NAME = 'tot-truth.json';

function buildLog(): TotGame[] {
  const log = JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];
  const game = log[0] as TotGame;
  const last = game.steps[3] as TotGame['steps'][number];
  const deadEnd = game.ys[2] as string; // "... 10 - 1.5 = 8.5 (left: 8.5)", r = 0
  last.values = last.values.map((v, j) => (last.new_ys[j] === deadEnd ? 90 : v));
  last.select_new_ys = [deadEnd, ...last.select_new_ys.filter((y) => y !== deadEnd)];
  game.ys = last.select_new_ys;
  game.infos = game.ys.map((y) => ({ r: y.includes('Answer:') ? 1 : 0 }));
  // appended after the sample's games, its own running total of tokens would be lower than theirs: left out
  const failedMove = (JSON.parse(readFileSync(FAILED_MOVE, 'utf8')) as TotGame[]).map(
    ({ usage_so_far: _usage, ...game }) => game,
  );
  return [...log, ...failedMove];
}

test('an imported ToT log shows solved games, the log values and where it came from', async ({ page }) => {
  const log = buildLog();
  await page.goto('/');
  await page.getByTestId('import-file-input').setInputFiles({
    name: FILE_NAME,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(log)),
  });
  const links = page.getByTestId('import-status').getByRole('listitem').getByRole('link');
  await expect(links).toHaveCount(6, { timeout: 30_000 });
  const ids = await links.evaluateAll((as) => as.map((a) => (a.getAttribute('href') ?? '').split('/').pop() ?? ''));
  // a log of many games is an experiment too: its games side by side, with the log's own outcomes
  await page.getByTestId('import-experiment').click();
  await expect(page.getByTestId('experiment-status')).toHaveText('finished');
  await expect(page.getByTestId('grid-cell')).toHaveCount(6);
  await expect(page.getByTestId('configuration-row')).toContainText('4/6');

  // the runs list (opened afresh): solved where any final answer is right, as the log's own r says
  await page.goto('/');
  const solvedInLog = log.map((game) => game.infos.some((info) => info.r === 1));
  expect(solvedInLog).toEqual([true, true, false, true, true, false]);
  for (const [g, id] of ids.entries()) {
    const cell = page.locator(`[data-testid=run-row][data-run-id="${id}"] [data-testid=run-row-solved]`);
    await expect(cell).toHaveText(solvedInLog[g] ? '✓ verified' : '✗ not verified');
  }
  await page.screenshot({ path: test.info().outputPath('import-runs.png') });

  // game 900: the output is its verified answer, not the higher-valued dead end
  await page.goto(`/runs/${ids[0]}?node=n0`);
  await expect(page.getByTestId('run-status')).toHaveText('finished');
  await expect(page.getByTestId('run-imported')).toHaveText(`imported: ${FILE_NAME}`);
  const imported = page.getByTestId('inspector-imported');
  await expect(imported).toContainText(`from a Tree-of-Thoughts log ${FILE_NAME}`);
  await expect(page.getByTestId('inspector-outcome')).toContainText('Answer: (4 * 5) + (10 - 6) = 24');
  await expect(page.getByTestId('inspector-verified')).toHaveText('verified');
  await page.screenshot({ path: test.info().outputPath('import-run.png') });

  // game 903: its final "8 + 16 = 24 (left: 24)" comes after "8 * 2 = 16" with no 2 left
  const tree = fold(await ndjson(E2E_BASE, ids[3] as string));
  const nodes = Object.values(tree.nodes);
  const final = nodes.find((n) => n.depth === 4 && n.branch?.thought === '8 + 16 = 24 (left: 24)') as ThoughtNode;
  await page.goto(`/runs/${ids[3]}?node=${final.id}`);
  const inspector = page.locator(`[data-testid=inspector-node][data-node-id=${final.id}]`);
  await expect(inspector).toBeVisible();
  const verification = inspector.getByTestId('inspector-verification');
  await expect(verification).toHaveAttribute('data-passed', 'false');
  await expect(verification).toContainText('reached through a failed move: step 3 "8 * 2 = 16 (left: 8 16)"');
  // its score: the log's value 60 (sure three times) as such, and none of our parts
  const score = inspector.getByTestId('inspector-score');
  await expect(score).toContainText('the log’s own value');
  await expect(score.getByTestId('inspector-log-value')).toHaveText(describeValue(60));
  await expect(score).toContainText('of 60');
  await expect(score.getByRole('img', { name: /^(confidence|progress|novelty|composite) / })).toHaveCount(0);
  await expect(score).not.toContainText('path total');
  await score.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('import-node.png') });

  // an "impossible" candidate reads as the log wrote it: value 0.002 is two "impossible" samples
  const events = await ndjson(E2E_BASE, ids[3] as string);
  const scored = events.filter(
    (e): e is Extract<ExplorationEvent, { type: 'node.created' }> =>
      e.type === 'node.created' && e.payload.score?.logValue?.value === 0.002,
  );
  const low = scored[0]?.payload.nodeId as string;
  expect(low).toMatch(/^n\d+$/);
  await page.goto(`/runs/${ids[3]}?node=${low}`);
  const lowScore = page.locator(`[data-testid=inspector-node][data-node-id=${low}]`).getByTestId('inspector-score');
  await expect(lowScore.getByTestId('inspector-log-value')).toHaveText('value 0.002 (impossible ×2)');
  // and its card on the canvas writes the same figure, not a 0..1 number of ours
  await expect(page.locator(`[data-testid=thought-node][data-node-id=${low}]`)).toContainText('0.002/60');
});

test('a log with a thought over its size cap is refused on the page, naming where, and adds no run', async ({
  page,
}) => {
  const log = JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];
  (log[1] as TotGame).steps[0]!.new_ys[2] = 'y'.repeat(100_001);
  const runs = async () => (await query<{ runs: number }>(E2E_BASE, 'run.summary', {})).runs;
  const before = await runs();
  await page.goto('/');
  await page.getByTestId('import-file-input').setInputFiles({
    name: 'too-long.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(log)),
  });
  await expect(page.getByTestId('import-status')).toContainText(
    '[1].steps[0].new_ys[2]: 100,001 characters, over the 100,000-character cap on a thought',
  );
  await page.getByTestId('import-status').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('imports-cap.png') });
  expect(await runs()).toBe(before);
});
