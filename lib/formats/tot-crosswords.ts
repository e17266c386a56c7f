/**
 * The Tree-of-Thoughts mini crosswords DFS log (princeton-nlp/tree-of-thought-llm, `logs/crosswords/
 * infoss_dfs_prune.json`, written by `scripts/crosswords/search_crosswords-dfs.ipynb`; shared/data/README.md): a
 * JSON array, one entry per game, each the list of search steps in the order the DFS took them. A step is
 * `{ total_step, env_step, actions, info: { r_letter, r_word }, count: { sure, maybe, impossible } }`: `actions` is
 * the whole path from the empty board ("h2. motor", ...), `info` the environment's letter and word scores against
 * the solution, `count` how GPT-4 judged the clues with two or more letters filled.
 *
 * parseTotCrosswords turns each game into one run of real events, each folded with reduce as it is made (like
 * tot-log.ts, whose draft type and default model it reuses):
 * - The puzzle: the log does not name it. The notebook ran puzzles 0, 5, 10, ... so game g should be puzzle 5g; it
 *   is taken only when its solution reproduces the log's r_letter and r_word at EVERY step (the environment's rules,
 *   lib/contract/crossword.ts), else the first puzzle of the file that does; when none does the file is refused
 *   (naming the first step where puzzle 5g disagrees). So the scores we store are ours and equal the log's by
 *   construction: a log whose scores differ from every puzzle's is not imported at all.
 * - run.started: task label 'crosswords' (not a task Arborist runs), the goal = the puzzle's clues, `external` with
 *   the search's own config (algorithm, puzzle, clues, solution, the notebook's limits, how the composite is made)
 *   and no commands (a log takes no steering). The engine config says dfs, for the record only.
 * - The root is the empty board. Each step is a node (thought = its move, "h2. motor") under the node of its path's
 *   longest logged prefix (a path's node is identified by its move list; a repeated path is refused): node.created,
 *   node.started / node.completed (result: the board's five rows), node.verified only for a full board (passed when it
 *   is the solution), node.annotated (scores sure, maybe, impossible and r_letter, r_word; metadata board and
 *   actions), then node.pruned when the model judged any clue impossible: the notebook does not expand such a state.
 * - A step whose path does not extend the previous step's path is preceded by a `backtrack` from the previous step's
 *   node to the node of the two paths' common prefix (the empty board at worst).
 * - Composite (what orders and colours nodes): the share of the judged clues the model found possible, a maybe
 *   counting half: (sure + maybe / 2) / (sure + maybe + impossible); 0.5 when it judged none. The parts (confidence,
 *   progress, novelty) are null: nothing measured them.
 * - run.finished: the output is the deepest state, the first logged on a tie: the paper's own rule (§4.3: "we
 *   simply render the deepest explored state (the first explored one if multiple) into the final output"; its
 *   "+best state" row is an oracle that picks by the answer key, named in the detail but not chosen, since a search
 *   cannot know it). success = verified = that board is the solution. Reason node-limit when the game reached the
 *   notebook's 100 steps, else frontier-empty.
 * The log has no times: every event of game g gets the import time plus g milliseconds (the file's order in lists).
 * Pure: no I/O (the puzzles are a bundled JSON module of lib/tasks). Not responsible for storing
 * (lib/server/imports.ts) or drawing the board (components/run/inspector/CrosswordBoard.tsx).
 */
import { z } from 'zod';
import {
  applyMove,
  BLANK,
  boardRows,
  CLUE_IDS,
  emptyBoard,
  parseMove,
  scoreBoard,
  type BoardScore,
  type CrosswordConfig,
  type CrosswordNode,
} from '../contract/crossword';
import { type BranchScore, type ToTConfig, toTConfigSchema } from '../contract/vocabulary';
import { DEFAULT_TOT_CONFIG, foldingLog, nextNodeId } from '../engine/index';
import { crosswordPuzzles, type CrosswordPuzzle } from '../tasks/index';
import { describeIssues } from './export';
import { type ImportedRunDraft, TOT_DEFAULT_MODEL } from './tot-log';

/** The notebook's dfs(..., time_limit=100, prune=True, max_per_state=3). */
export const NOTEBOOK_STEP_LIMIT = 100;
const NOTEBOOK_MAX_PER_STATE = 3;

/**
 * Size caps (like field-caps.ts: an untrusted file cannot make us store without bound). Every string the file gives
 * is a move, which must read "h2. motor"; these bound how many. Far above the paper's 20 games of 100 steps of at
 * most 10 moves.
 */
export const CROSSWORD_LOG_CAPS = { games: 1_000, steps: 10_000, moves: 50 } as const;

const count = z.number().int().min(0).max(CLUE_IDS.length);
const score = z.number().min(0).max(1);

const stepSchema = z.looseObject({
  total_step: z.number().int().min(0),
  env_step: z.number().int().min(0),
  actions: z
    .array(
      z.string().refine((text) => parseMove(text) !== null, {
        error: (issue) => `not a move like "h2. motor": ${JSON.stringify(String(issue.input).slice(0, 40))}`,
      }),
    )
    .min(1)
    .max(CROSSWORD_LOG_CAPS.moves, { error: `over the ${CROSSWORD_LOG_CAPS.moves}-move cap on a path` }),
  info: z.looseObject({ r_letter: score, r_word: score }),
  count: z.looseObject({ sure: count, maybe: count, impossible: count }),
});

const gameSchema = z
  .array(stepSchema)
  .min(1, { error: 'a game with no steps' })
  .max(CROSSWORD_LOG_CAPS.steps, {
    error: `over the ${CROSSWORD_LOG_CAPS.steps.toLocaleString('en-US')}-step cap on a game`,
  });

export const totCrosswordsLogSchema = z
  .array(gameSchema)
  .min(1, { error: 'the log has no games' })
  .max(CROSSWORD_LOG_CAPS.games, { error: `over the ${CROSSWORD_LOG_CAPS.games.toLocaleString('en-US')}-game cap` });
export type CrosswordStep = z.infer<typeof stepSchema>;
export type CrosswordGame = z.infer<typeof gameSchema>;

export interface CrosswordSource {
  /** The game's index in the file. */
  game: number;
  /** The puzzle whose solution reproduces the game's scores. */
  puzzle: number;
  /** The step the output comes from (the deepest, the first on a tie), and the best by words (the oracle). */
  outputStep: number;
  oracleStep: number;
  backtracks: number;
  prunes: number;
}

/** One game as a run to store (tot-log.ts's draft, with this log's own source). */
export type CrosswordRunDraft = Omit<ImportedRunDraft, 'source'> & { source: CrosswordSource };

export type TotCrosswordsParse = { ok: true; runs: CrosswordRunDraft[] } | { ok: false; error: string };

export interface TotCrosswordsOptions {
  /** The model that wrote the log (the file does not say); default gpt-4. */
  modelId?: string;
  /** Milliseconds since the epoch for the first game's events (game g: + g); default now. */
  now?: number;
  /** The puzzles to match against; default the paper's mini0505 (tests give their own). */
  puzzles?: readonly CrosswordPuzzle[];
}

class CrosswordLogError extends Error {}

/** A ToT crosswords log rather than the Game of 24 one (an array of games, each an array of steps). */
export function looksLikeTotCrosswords(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && Array.isArray(value[0]);
}

/** A state's composite (see the header): the share of judged clues found possible, a maybe counting half. */
export function countsComposite(counts: { sure: number; maybe: number; impossible: number }): number {
  const judged = counts.sure + counts.maybe + counts.impossible;
  return judged === 0 ? 0.5 : (counts.sure + counts.maybe / 2) / judged;
}

function countsScore(counts: { sure: number; maybe: number; impossible: number }): BranchScore {
  const judged = counts.sure + counts.maybe + counts.impossible;
  return {
    confidence: null,
    progress: null,
    novelty: null,
    composite: countsComposite(counts),
    reasoning:
      `GPT-4 judged the ${judged} clue${judged === 1 ? '' : 's'} with two or more letters: ` +
      `sure ${counts.sure}, maybe ${counts.maybe}, impossible ${counts.impossible}`,
    fallback: false,
  };
}

export function parseTotCrosswords(value: unknown, options: TotCrosswordsOptions = {}): TotCrosswordsParse {
  const parsed = totCrosswordsLogSchema.safeParse(value);
  if (!parsed.success) {
    return { ok: false, error: `not a Tree-of-Thoughts crosswords log: ${describeIssues(parsed.error)}` };
  }
  const modelId = options.modelId?.trim() || TOT_DEFAULT_MODEL;
  const now = options.now ?? Date.now();
  const puzzles = options.puzzles ?? crosswordPuzzles();
  try {
    return { ok: true, runs: parsed.data.map((game, g) => replayGame(game, g, puzzles, modelId, now + g)) };
  } catch (error) {
    if (error instanceof CrosswordLogError) {
      return { ok: false, error: `not a usable Tree-of-Thoughts crosswords log: ${error.message}` };
    }
    throw error;
  }
}

/** The board each step's path leads to, from the empty board (later moves overwrite the cells they cross). */
function boardsOf(game: CrosswordGame): string[][] {
  return game.map((step) =>
    step.actions.reduce(
      (board, text) => applyMove(board, parseMove(text) as NonNullable<ReturnType<typeof parseMove>>),
      emptyBoard(),
    ),
  );
}

/** Equal as the environment's fractions (n/25, n/10) are: within rounding. */
const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** The first step whose logged scores this solution does not reproduce, or null when it reproduces them all. */
function firstMismatch(game: CrosswordGame, boards: string[][], solution: readonly string[]) {
  for (const [s, step] of game.entries()) {
    const ours = scoreBoard(boards[s] as string[], solution);
    if (!same(ours.rLetter, step.info.r_letter) || !same(ours.rWord, step.info.r_word)) return { s, ours, step };
  }
  return null;
}

/** The puzzle game g played: 5g when its solution reproduces every step's scores, else the first that does. */
function matchPuzzle(game: CrosswordGame, boards: string[][], g: number, puzzles: readonly CrosswordPuzzle[]) {
  const expected = puzzles[5 * g];
  if (expected && !firstMismatch(game, boards, expected.solution)) return expected;
  const found = puzzles.find((p) => !firstMismatch(game, boards, p.solution));
  if (found) return found;
  const why = expected ? firstMismatch(game, boards, expected.solution) : null;
  throw new CrosswordLogError(
    `[${g}]: no puzzle of the ${puzzles.length} reproduces the game's letter and word scores` +
      (why
        ? ` (the paper's order names puzzle ${5 * g}: at steps[${why.s}] its solution gives r_letter ` +
          `${why.ours.rLetter}, r_word ${why.ours.rWord} where the log says ${why.step.info.r_letter}, ${why.step.info.r_word})`
        : ` (the paper's order names puzzle ${5 * g}, which the puzzles file does not have)`),
  );
}

function checkGame(game: CrosswordGame, g: number): void {
  const seen = new Map<string, number>();
  game.forEach((step, s) => {
    const at = `[${g}][${s}]`;
    if (step.total_step !== s) throw new CrosswordLogError(`${at}.total_step: expected ${s}, got ${step.total_step}`);
    if (step.env_step !== step.actions.length) {
      throw new CrosswordLogError(
        `${at}.env_step: ${step.env_step} for a path of ${step.actions.length} moves (the environment counts each move)`,
      );
    }
    const key = step.actions.join('\n');
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new CrosswordLogError(`${at}.actions: the same path as [${g}][${earlier}]: a DFS logs each state once`);
    }
    seen.set(key, s);
  });
}

/** How many leading moves two paths share. */
function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** A step's path does not extend the previous one: the search went back up (what the test counts too). */
export function leavesPath(previous: readonly string[], path: readonly string[]): boolean {
  return commonPrefix(previous, path) < previous.length;
}

const describeCounts = (c: CrosswordStep['count']) => `sure ${c.sure}, maybe ${c.maybe}, impossible ${c.impossible}`;

function replayGame(
  game: CrosswordGame,
  g: number,
  puzzles: readonly CrosswordPuzzle[],
  modelId: string,
  now: number,
): CrosswordRunDraft {
  checkGame(game, g);
  const boards = boardsOf(game);
  const puzzle = matchPuzzle(game, boards, g, puzzles);
  const solutionRows = boardRows(puzzle.solution);
  const clues = Object.fromEntries(CLUE_IDS.map((id, i) => [id, puzzle.clues[i] ?? ''])) as CrosswordConfig['clues'];
  const scores: BoardScore[] = boards.map((board) => scoreBoard(board, puzzle.solution));

  // the children each state got: the config says how many at most (for the record; nothing runs it)
  const childCount = new Map<string, number>();
  for (const step of game) {
    const parentKey = step.actions.slice(0, -1).join('\n');
    childCount.set(parentKey, (childCount.get(parentKey) ?? 0) + 1);
  }
  const deepest = Math.max(...game.map((step) => step.actions.length));
  const config = toTConfigSchema.parse({
    ...DEFAULT_TOT_CONFIG,
    explorationStrategy: 'dfs',
    maxDepth: Math.min(50, Math.max(CLUE_IDS.length, deepest)),
    branchFactor: Math.min(20, Math.max(1, ...childCount.values())),
    beamWidth: 1,
    confidenceThreshold: 0,
    terminationConfidence: 1,
    maxTotalNodes: Math.max(NOTEBOOK_STEP_LIMIT, game.length),
  } satisfies ToTConfig);

  // the paper's output: the deepest state, the first logged on a tie; the oracle: the most words right, first on a tie
  const outputStep = game.findIndex((step) => step.actions.length === deepest);
  const oracleStep = scores.reduce((best, sc, s) => (sc.words > (scores[best] as BoardScore).words ? s : best), 0);

  const runId = `tot-crosswords[${g}]`;
  const { tree, events, emit } = foldingLog(runId, () => now);
  // what CrosswordBoard reads back (readCrosswordNode)
  const meta = (board: readonly string[], actions: readonly string[]) =>
    ({
      board: boardRows(board),
      actions: [...actions],
    }) satisfies CrosswordNode;

  const goal = `Mini crossword ${puzzle.index} (5x5): ` + CLUE_IDS.map((id) => `${id}. ${clues[id]}`).join(' · ');
  emit('run.started', {
    goal,
    taskId: 'crosswords',
    agentName: 'tree-of-thought-llm (dfs)',
    modelId,
    config,
    external: {
      config: {
        algorithm: 'DFS with pruning',
        source: 'princeton-nlp/tree-of-thought-llm, scripts/crosswords/search_crosswords-dfs.ipynb',
        game: g,
        puzzle: puzzle.index,
        puzzleByOrder: 5 * g,
        clues,
        solution: solutionRows,
        stepLimit: NOTEBOOK_STEP_LIMIT,
        maxPerState: NOTEBOOK_MAX_PER_STATE,
        prune: 'a state with any clue judged impossible is not expanded',
        composite: '(sure + maybe / 2) / (sure + maybe + impossible): the share of judged clues found possible',
        output: 'the deepest state, the first on a tie (the paper, section 4.3)',
      } satisfies Omit<CrosswordConfig, 'solution'> & Record<string, unknown>,
      commands: [],
    },
  });
  const rootId = nextNodeId(tree);
  emit('node.created', { nodeId: rootId, parentId: null, branch: null, score: null });
  emit('node.annotated', { nodeId: rootId, metadata: { ...meta(emptyBoard(), []) } });

  const nodeOf = new Map<string, string>([['', rootId]]);
  /** The node of the longest prefix of `path` (its first `length` moves at most) that has one. */
  const nodeOfPrefix = (path: readonly string[], length: number): string => {
    for (let k = length; k > 0; k--) {
      const id = nodeOf.get(path.slice(0, k).join('\n'));
      if (id) return id;
    }
    return rootId;
  };

  let backtracks = 0;
  let prunes = 0;
  let previousId = rootId;
  game.forEach((step, s) => {
    const path = step.actions;
    const move = path[path.length - 1] as string;
    const previous = s > 0 ? (game[s - 1] as CrosswordStep) : null;
    if (previous && leavesPath(previous.actions, path)) {
      const shared = commonPrefix(previous.actions, path);
      const toId = nodeOfPrefix(path, shared);
      const left = previous.actions[previous.actions.length - 1] as string;
      const up = previous.actions.length - shared;
      emit('backtrack', {
        fromId: previousId,
        toId,
        reason:
          `step ${s} does not extend step ${s - 1}'s path: the DFS leaves "${left}"` +
          (previous.count.impossible > 0 ? ' (pruned: a clue judged impossible)' : '') +
          ` and goes back ${up} move${up === 1 ? '' : 's'} to ` +
          (shared === 0 ? 'the empty board' : `"${path[shared - 1]}"`) +
          `, to try "${move}"`,
      });
      backtracks += 1;
    }

    const nodeId = nextNodeId(tree);
    const branch = { thought: move, proposedAction: { type: 'response' as const, content: move } };
    emit('node.created', {
      nodeId,
      parentId: nodeOfPrefix(path, path.length - 1),
      branch,
      score: countsScore(step.count),
    });
    nodeOf.set(path.join('\n'), nodeId);
    previousId = nodeId;

    const board = boards[s] as string[];
    const full = !board.includes(BLANK);
    const sc = scores[s] as BoardScore;
    emit('node.started', { nodeId, mode: 'execute' });
    emit('node.completed', {
      nodeId,
      result: { response: boardRows(board).join('\n'), iterations: 0, isAnswer: full },
    });
    if (full) {
      const wrong = CLUE_IDS.length - sc.words;
      emit('node.verified', {
        nodeId,
        passed: sc.letters === board.length,
        trace:
          sc.letters === board.length
            ? 'the full board is the solution: 25/25 letters, 10/10 words'
            : `the full board is not the solution: ${sc.letters}/25 letters, ${sc.words}/10 words (${wrong} wrong)`,
      });
    }
    emit('node.annotated', {
      nodeId,
      scores: { ...step.count, r_letter: sc.rLetter, r_word: sc.rWord },
      metadata: { ...meta(board, path), step: s },
    });
    if (step.count.impossible > 0) {
      emit('node.pruned', {
        nodeId,
        reason:
          `GPT-4 judged ${step.count.impossible} clue${step.count.impossible === 1 ? '' : 's'} impossible ` +
          `(${describeCounts(step.count)}): the DFS does not expand a state with an impossible clue`,
      });
      prunes += 1;
    }
  });

  const output = scores[outputStep] as BoardScore;
  const oracle = scores[oracleStep] as BoardScore;
  const solved = output.letters === puzzle.solution.length;
  const bestNodeId = nodeOf.get((game[outputStep] as CrosswordStep).actions.join('\n')) ?? null;
  const figures = (sc: BoardScore) => `${sc.letters}/25 letters, ${sc.words}/10 words`;
  emit('run.finished', {
    reason: game.length >= NOTEBOOK_STEP_LIMIT ? 'node-limit' : 'frontier-empty',
    detail:
      `Tree-of-Thoughts DFS log (mini crosswords), game ${g}, puzzle ${puzzle.index}: ${game.length} steps, ` +
      `${backtracks} backtracks, ${prunes} states pruned. The output is the deepest state (the paper's rule), ` +
      `step ${outputStep}: ${figures(output)}${solved ? ', the solution' : ''}; the best state by words (the ` +
      `paper's oracle, "+best state") is step ${oracleStep}: ${figures(oracle)}.`,
    bestNodeId,
    output: boardRows(boards[outputStep] as string[]).join('\n'),
    answerSource: 'node',
    success: solved,
    verified: solved,
  });

  return {
    taskId: 'crosswords',
    goal,
    modelId,
    modelLabel: `${modelId} (imported log)`,
    modelSettings: { provider: 'tot-log', model: modelId },
    config,
    seed: null,
    createdAt: new Date(now),
    events,
    tree,
    source: { game: g, puzzle: puzzle.index, outputStep, oracleStep, backtracks, prunes },
  };
}
