// The ToT crosswords DFS importer on the paper authors' own GPT-4 log (fixtures/, games on puzzles 0 and 5): the
// backtracks and prunes it draws are counted from the file here, step for step, with code of the test's own; every
// node's letter and word scores are the log's; the puzzle is found by its scores and a log no puzzle explains is
// refused; the output is the paper's deepest state; the events pass as an Arborist export.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCrosswordConfig, readCrosswordNode } from '../contract/crossword';
import { fold, pathTo } from '../engine/index';
import { crosswordPuzzles } from '../tasks/index';
import { buildExport, validateRunExport } from './export';
import { type CrosswordRunDraft, countsComposite, looksLikeTotCrosswords, parseTotCrosswords } from './tot-crosswords';

interface Step {
  total_step: number;
  env_step: number;
  actions: string[];
  info: { r_letter: number; r_word: number };
  count: { sure: number; maybe: number; impossible: number };
}
const SAMPLE = new URL('./fixtures/tot-crosswords-dfs-sample.json', import.meta.url);
const readSample = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as Step[][];

function parse(log: unknown): CrosswordRunDraft[] {
  const parsed = parseTotCrosswords(log, { now: Date.UTC(2025, 0, 1) });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.runs;
}

function refusal(log: unknown): string {
  const parsed = parseTotCrosswords(log);
  return parsed.ok ? 'accepted' : parsed.error;
}

/** The test's own reading of the log: step s is a backtrack when the previous path is not a prefix of its path. */
function expectedFromFile(game: Step[]) {
  return game.map((step, s) => {
    const previous = s > 0 ? (game[s - 1] as Step).actions : [];
    const extends_ = previous.every((move, k) => step.actions[k] === move);
    return { backtrack: !extends_, pruned: step.count.impossible >= 1 };
  });
}

/** What the run drew for each step, in step order: whether a backtrack came before its node, whether it was pruned. */
function drawnPerStep(run: CrosswordRunDraft) {
  const steps: { nodeId: string; backtrack: boolean; pruned: boolean }[] = [];
  let pendingBacktrack = false;
  for (const event of run.events) {
    if (event.type === 'backtrack') pendingBacktrack = true;
    if (event.type === 'node.created' && event.payload.parentId !== null) {
      steps.push({ nodeId: event.payload.nodeId, backtrack: pendingBacktrack, pruned: false });
      pendingBacktrack = false;
    }
    if (event.type === 'node.pruned') {
      const step = steps.find((s) => s.nodeId === event.payload.nodeId);
      if (step) step.pruned = true;
    }
  }
  return steps;
}

describe('the Tree-of-Thoughts crosswords DFS sample', () => {
  const log = readSample();
  const runs = parse(log);

  it('imports as 2 runs on the puzzles their scores name (0 and 5), as external crosswords searches', () => {
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.source.puzzle)).toEqual([0, 5]);
    for (const run of runs) {
      expect(run.taskId).toBe('crosswords');
      expect(run.tree.external?.commands).toEqual([]);
      expect(run.tree.external?.config.algorithm).toBe('DFS with pruning');
      expect(run.goal).toMatch(/^Mini crossword \d+ \(5x5\): h1\. /);
    }
    expect(runs[1]?.goal).toContain('h4. A Passover meal');
    // what the inspector's board reads back
    const config = readCrosswordConfig(runs[1]?.tree.external?.config);
    expect(config?.clues.v4).toBe('One who files');
    expect(config?.solution).toEqual(['AREFY', 'REVIE', 'IGALA', 'SEDER', 'ETERN']);
  });

  it('draws a backtrack and a prune exactly where the file has them, step for step', () => {
    log.forEach((game, g) => {
      const run = runs[g] as CrosswordRunDraft;
      const expected = expectedFromFile(game);
      const drawn = drawnPerStep(run);
      expect(drawn.map(({ backtrack, pruned }) => ({ backtrack, pruned }))).toEqual(expected);
      const backtracks = expected.filter((e) => e.backtrack).length;
      const prunes = expected.filter((e) => e.pruned).length;
      // the sample's games are real searches with many of both (not a vacuous match of zeros)
      expect(backtracks).toBeGreaterThan(50);
      expect(prunes).toBeGreaterThan(50);
      expect(run.tree.stats.backtrackCount).toBe(backtracks);
      expect(run.tree.stats.searchPrunes).toBe(prunes);
      expect(Object.values(run.tree.nodes).filter((n) => n.status === 'pruned')).toHaveLength(prunes);
    });
  });

  it('puts every step under its path’s parent, and backtracks to where the new path leaves the old one', () => {
    log.forEach((game, g) => {
      const run = runs[g] as CrosswordRunDraft;
      const drawn = drawnPerStep(run);
      game.forEach((step, s) => {
        const node = run.tree.nodes[(drawn[s] as { nodeId: string }).nodeId];
        const moves = pathTo(run.tree, node?.id as string)
          .slice(1)
          .map((n) => n.branch?.thought);
        expect(moves).toEqual(step.actions);
      });
      for (const event of run.events) {
        if (event.type !== 'backtrack') continue;
        const next = run.events.find((e) => e.seq > event.seq && e.type === 'node.created');
        expect(next?.type === 'node.created' && next.payload.parentId).toBe(event.payload.toId);
      }
    });
  });

  it('gives each node the model’s counts and the letter and word scores of its board, equal to the log’s', () => {
    log.forEach((game, g) => {
      const run = runs[g] as CrosswordRunDraft;
      const drawn = drawnPerStep(run);
      game.forEach((step, s) => {
        const node = run.tree.nodes[(drawn[s] as { nodeId: string }).nodeId];
        expect(node?.scores).toEqual({ ...step.count, r_letter: step.info.r_letter, r_word: step.info.r_word });
        expect(node?.score?.composite).toBe(countsComposite(step.count));
        expect(readCrosswordNode(node?.metadata)?.actions).toEqual(step.actions);
      });
    });
  });

  it('draws the board each path makes: the last move written over its row or column', () => {
    const run = runs[0] as CrosswordRunDraft;
    const node = Object.values(run.tree.nodes).find((n) => n.metadata.step === 3);
    // ["h2. motor", "h1. tasks", "h3. grand"]
    expect(node?.metadata.board).toEqual(['TASKS', 'MOTOR', 'GRAND', '_____', '_____']);
    const root = run.tree.nodes[run.tree.rootId as string];
    expect(root?.metadata.board).toEqual(['_____', '_____', '_____', '_____', '_____']);
  });

  it('outputs the deepest state, the first on a tie (the paper’s rule), and says whether it is the solution', () => {
    log.forEach((game, g) => {
      const run = runs[g] as CrosswordRunDraft;
      const deepest = Math.max(...game.map((s) => s.actions.length));
      const first = game.findIndex((s) => s.actions.length === deepest);
      const best = run.tree.nodes[run.tree.bestNodeId as string];
      expect(best?.metadata.step).toBe(first);
      const solved = (game[first] as Step).info.r_letter === 1;
      expect(run.tree.success).toBe(solved);
      expect(run.tree.verified).toBe(solved);
      expect(run.tree.finishReason).toBe('node-limit');
    });
    // game 1 filled the whole grid right at step 30; game 0 never did
    expect(runs[1]?.tree.success).toBe(true);
    expect(runs[1]?.tree.output).toBe('AREFY\nREVIE\nIGALA\nSEDER\nETERN');
    expect(runs[0]?.tree.success).toBe(false);
  });

  it('emits events that fold from scratch into the same tree, and pass as an Arborist export', () => {
    for (const run of runs) {
      expect(fold(run.events)).toEqual(run.tree);
      const file = buildExport(
        {
          id: run.events[0]?.runId as string,
          taskId: run.taskId,
          goal: run.goal,
          modelId: run.modelId,
          modelLabel: run.modelLabel,
          modelSettings: run.modelSettings,
          config: run.config,
          seed: run.seed,
          status: 'finished',
          finishReason: 'node-limit',
          createdAt: run.createdAt,
          startedAt: run.createdAt,
          finishedAt: run.createdAt,
          importTag: 'tot-log:test',
          parentRunId: null,
          parentNodeId: null,
        },
        run.events,
      );
      const checked = validateRunExport(JSON.parse(JSON.stringify(file)));
      expect(checked.ok ? 'ok' : checked.error).toBe('ok');
    }
  });
});

describe('finding the puzzle', () => {
  it('matches by scores, not by position: the second game alone is still puzzle 5', () => {
    const [, second] = readSample();
    const [run] = parse([second]);
    expect(run?.source.puzzle).toBe(5);
  });

  it('refuses a game whose scores no puzzle reproduces, naming the step where puzzle 5g disagrees', () => {
    const log = readSample();
    (log[0]?.[4] as Step).info.r_letter = 0.4;
    expect(refusal(log)).toBe(
      "not a usable Tree-of-Thoughts crosswords log: [0]: no puzzle of the 156 reproduces the game's letter and " +
        "word scores (the paper's order names puzzle 0: at steps[4] its solution gives r_letter 0.36, r_word 0.1 " +
        'where the log says 0.4, 0.1)',
    );
  });

  it('reads the bundled puzzles file: 156 puzzles of ten clues and 25 letters', () => {
    const puzzles = crosswordPuzzles();
    expect(puzzles).toHaveLength(156);
    expect(puzzles[5]?.solution.join('')).toBe('AREFYREVIEIGALASEDERETERN');
  });
});

describe('a file that is not a usable crosswords log', () => {
  it('is told apart from the Game of 24 log by shape', () => {
    expect(looksLikeTotCrosswords(readSample())).toBe(true);
    expect(looksLikeTotCrosswords([{ idx: 900, steps: [] }])).toBe(false);
    expect(looksLikeTotCrosswords([])).toBe(false);
  });

  it('refuses a move that is not "h2. motor" with its path, and never stores its text', () => {
    const log = readSample();
    (log[1]?.[2] as Step).actions[1] = 'v9. <img src=x onerror=alert(1)>';
    expect(refusal(log)).toMatch(/^not a Tree-of-Thoughts crosswords log: \[1\]\[2\]\.actions\[1\]: not a move like/);
  });

  it('refuses a path logged twice, a step out of order and a path over the cap', () => {
    const twice = readSample();
    (twice[0] as Step[])[5] = structuredClone((twice[0] as Step[])[4] as Step);
    (twice[0]?.[5] as Step).total_step = 5;
    expect(refusal(twice)).toContain('[0][5].actions: the same path as [0][4]');
    const order = readSample();
    (order[0]?.[3] as Step).total_step = 7;
    expect(refusal(order)).toContain('[0][3].total_step: expected 3, got 7');
    const long = readSample();
    (long[0]?.[0] as Step).actions = new Array(51).fill('h1. tasks');
    expect(refusal(long)).toContain('[0][0].actions: over the 50-move cap on a path');
  });
});
