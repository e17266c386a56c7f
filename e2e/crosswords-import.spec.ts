// The Tree-of-Thoughts crosswords DFS log (the paper authors' own GPT-4 search, 2 games) dropped on the runs page's
// drop zone (issue 13): it becomes 2 runs in the list; each run's backtracks and prunes are those of the file,
// counted here from the file, step for step; a selected node shows its 5x5 board with the clues (the filled ones
// highlighted), the model's verdict and its letter/word scores; a pruned node says why; a backtrack is drawn on
// the canvas like the engine's. Screenshots light and dark at 1280x720.
// data-testid used: import-drop-zone, import-status, run-row (data-run-id), run-stats, inspector-node,
// inspector-crossword, crossword-cell, crossword-clue (data-clue, data-filled, data-current), crossword-verdict,
// crossword-letters, crossword-words, inspector-pruned, thought-node (data-status), jump-kind, jump-next,
// timeline-position.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { ExplorationEvent } from '../lib/contract/events';
import { fold } from '../lib/engine/index';
import { E2E_BASE, ndjson } from './api';

const SAMPLE = 'lib/formats/fixtures/tot-crosswords-dfs-sample.json';
const FILE_NAME = 'infoss_dfs_prune-sample.json';

interface Step {
  actions: string[];
  info: { r_letter: number; r_word: number };
  count: { sure: number; maybe: number; impossible: number };
}

/** The file's own backtracks and prunes, step by step: a step leaves the path, a state has an impossible clue. */
function fromFile(game: Step[]) {
  return game.map((step, s) => {
    const previous = s > 0 ? (game[s - 1] as Step).actions : [];
    return {
      backtrack: !previous.every((move, k) => step.actions[k] === move),
      pruned: step.count.impossible > 0,
    };
  });
}

/** The same, read from the run's events as the server serves them to the page. */
function fromEvents(events: readonly ExplorationEvent[]) {
  const steps: { nodeId: string; backtrack: boolean; pruned: boolean }[] = [];
  let backtrack = false;
  for (const event of events) {
    if (event.type === 'backtrack') backtrack = true;
    if (event.type === 'node.created' && event.payload.parentId !== null) {
      steps.push({ nodeId: event.payload.nodeId, backtrack, pruned: false });
      backtrack = false;
    }
    if (event.type === 'node.pruned') {
      const step = steps.find((s) => s.nodeId === event.payload.nodeId);
      if (step) step.pruned = true;
    }
  }
  return steps.map(({ backtrack: b, pruned }) => ({ backtrack: b, pruned }));
}

/** Drops a file on the zone as a person's drag and drop does: a drop event carrying the file. */
async function dropFile(page: Page, name: string, text: string) {
  const transfer = await page.evaluateHandle(
    ({ name: fileName, text: body }) => {
      const data = new DataTransfer();
      data.items.add(new File([body], fileName, { type: 'application/json' }));
      return data;
    },
    { name, text },
  );
  const zone = page.getByTestId('import-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

test('the crosswords DFS log imports through the drop zone as 2 runs with the file’s backtracks and prunes, and a node shows its board and clues', async ({
  page,
}) => {
  const text = readFileSync(SAMPLE, 'utf8');
  const log = JSON.parse(text) as Step[][];
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/');
  await dropFile(page, FILE_NAME, text);
  const links = page.getByTestId('import-status').getByRole('link');
  await expect(links).toHaveCount(2, { timeout: 30_000 });
  const ids = await links.evaluateAll((as) => as.map((a) => (a.getAttribute('href') ?? '').split('/').pop() ?? ''));

  // 2 runs in the list, opened afresh
  await page.goto('/');
  for (const id of ids) await expect(page.locator(`[data-testid=run-row][data-run-id="${id}"]`)).toBeVisible();

  // each run: the file's backtracks and prunes, step for step, and the header's count of backtracks
  const trees = [];
  for (const [g, id] of ids.entries()) {
    const game = log[g] as Step[];
    const events = await ndjson(E2E_BASE, id);
    const expected = fromFile(game);
    expect(fromEvents(events)).toEqual(expected);
    const tree = fold(events);
    expect(tree.stats.backtrackCount).toBe(expected.filter((e) => e.backtrack).length);
    expect(Object.values(tree.nodes).filter((n) => n.status === 'pruned')).toHaveLength(
      expected.filter((e) => e.pruned).length,
    );
    trees.push(tree);
  }

  // game 1 (puzzle 5): its output, the deepest state, fills the grid with the solution; GPT-4 still judged two
  // clues impossible there, so the DFS pruned it
  const tree = trees[1] as (typeof trees)[number];
  const best = tree.nodes[tree.bestNodeId as string];
  expect(best?.metadata.actions).toHaveLength(8);
  const backtracks = fromFile(log[1] as Step[]).filter((e) => e.backtrack).length;
  await page.goto(`/runs/${ids[1]}?node=${best?.id}`);
  await expect(page.getByTestId('run-stats')).toContainText(`backtracks ${backtracks}`);
  const inspector = page.locator(`[data-testid=inspector-node][data-node-id=${best?.id}]`);
  const board = inspector.getByTestId('inspector-crossword');
  await expect(board).toBeVisible();
  await expect(board.getByTestId('crossword-cell')).toHaveText('AREFYREVIEIGALASEDERETERN'.split(''));
  const clues = board.getByTestId('crossword-clue');
  await expect(clues).toHaveCount(10);
  await expect(board.locator('[data-clue=h4]')).toContainText('A Passover meal');
  await expect(board.locator('[data-clue=h4]')).toContainText('S E D E R');
  // the path wrote 8 of the 10 clues (h1 and h2 were filled by the down words); its own move, v4, most of all
  await expect(board.locator('[data-filled=true]')).toHaveCount(8);
  await expect(board.locator('[data-filled=false]')).toHaveText([/^h1/, /^h2/]);
  await expect(board.locator('[data-current=true]')).toHaveAttribute('data-clue', 'v4');
  await expect(board.getByTestId('crossword-verdict')).toHaveText('sure 7 · maybe 1 · impossible 2');
  await expect(board.getByTestId('crossword-letters')).toHaveText('25/25');
  await expect(board.getByTestId('crossword-words')).toHaveText('10/10');
  // pruned by the search: the node says why, and its card on the canvas is drawn as pruned by rule (as the engine's
  // candidates pruned by score are: data-status dropped), not as a person's prune
  await expect(inspector.getByTestId('inspector-pruned')).toContainText(
    'Pruned by the search, with its subtree: GPT-4 judged 2 clues impossible',
  );
  await expect(page.locator(`[data-testid=thought-node][data-node-id=${best?.id}]`)).toHaveAttribute(
    'data-status',
    'dropped',
  );
  await page.screenshot({ path: test.info().outputPath('xword-node-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('xword-node-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  // a backtrack: at the step of the first one (after a pruned state), the canvas draws it as it draws the engine's
  const all = (await ndjson(E2E_BASE, ids[1] as string)).filter(
    (e): e is Extract<ExplorationEvent, { type: 'backtrack' }> => e.type === 'backtrack',
  );
  const [first, second] = all;
  await page.goto(`/runs/${ids[1]}?step=${first?.seq}&node=${first?.payload.fromId}`);
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${first?.seq} /`);
  await expect(page.locator('.react-flow__edge.edge-backtrack')).toHaveCount(1);
  await expect(page.getByTestId('inspector-pruned')).toContainText('GPT-4 judged 2 clues impossible');
  await expect(page.getByTestId('inspector-crossword').getByTestId('crossword-cell').first()).toHaveText('A');
  await page.screenshot({ path: test.info().outputPath('xword-backtrack-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath('xword-backtrack-dark.png') });
  // and the timeline jumps from one backtrack to the next
  await page.getByTestId('jump-kind').selectOption('backtrack');
  await page.getByTestId('jump-next').click();
  await expect(page.getByTestId('timeline-position')).toContainText(`step ${second?.seq} /`);
});
