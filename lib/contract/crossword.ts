/**
 * A 5x5 mini crossword, as the Tree-of-Thoughts paper's environment plays it (princeton-nlp/tree-of-thought-llm,
 * MiniCrosswordsEnv): 25 cells row by row, ten clues h1-h5 (rows) then v1-v5 (columns), a move "h2. motor" writes a
 * word over a row or a column (later moves overwrite the letters they cross), and a board is scored against the
 * solution by letters (cells equal) and words (the ten answers equal). Also the shapes an imported crosswords run
 * carries: run.started's external config (clues, solution) and each node's metadata (its board, its path's moves),
 * as zod schemas, so the importer writes them and the inspector reads them (untrusted JSON) with one definition.
 * Browser-safe and pure. Not responsible for reading a log (lib/formats/tot-crosswords.ts), the puzzles file
 * (lib/tasks/crosswords) or drawing (components/run/inspector/CrosswordBoard.tsx).
 */
import { z } from 'zod';

export const CROSSWORD_SIZE = 5;
export const CROSSWORD_CELLS = CROSSWORD_SIZE * CROSSWORD_SIZE;
/** An empty cell, as the environment writes it. */
export const BLANK = '_';

/** The clues in the puzzle file's order: h1-h5 across (rows), then v1-v5 down (columns). */
export const CLUE_IDS = ['h1', 'h2', 'h3', 'h4', 'h5', 'v1', 'v2', 'v3', 'v4', 'v5'] as const;
export type ClueId = (typeof CLUE_IDS)[number];

export interface CrosswordMove {
  clue: ClueId;
  /** Five letters, upper case (the board's case). */
  word: string;
}

const MOVE = /^([hv][1-5])\. ([A-Za-z]{5})$/;

/** "h2. motor" -> { clue: 'h2', word: 'MOTOR' }; null for anything else (the log's proposal parser takes only these). */
export function parseMove(text: string): CrosswordMove | null {
  const match = MOVE.exec(text);
  if (!match) return null;
  return { clue: match[1] as ClueId, word: (match[2] as string).toUpperCase() };
}

/** The cells a clue's answer occupies, in reading order. */
export function clueCells(clue: ClueId): number[] {
  const line = Number(clue.slice(1)) - 1;
  const across = clue.startsWith('h');
  return Array.from({ length: CROSSWORD_SIZE }, (_, k) =>
    across ? line * CROSSWORD_SIZE + k : k * CROSSWORD_SIZE + line,
  );
}

export function emptyBoard(): string[] {
  return new Array<string>(CROSSWORD_CELLS).fill(BLANK);
}

/** The board after a move: the word written over its row or column (a new array). */
export function applyMove(board: readonly string[], move: CrosswordMove): string[] {
  const next = board.slice();
  clueCells(move.clue).forEach((cell, k) => (next[cell] = move.word[k] as string));
  return next;
}

/** The ten answers a board holds, in CLUE_IDS order ('_' where a cell is empty). */
export function boardAnswers(board: readonly string[]): string[] {
  return CLUE_IDS.map((clue) =>
    clueCells(clue)
      .map((cell) => board[cell] ?? BLANK)
      .join(''),
  );
}

export interface BoardScore {
  /** Cells equal to the solution's, of 25. */
  letters: number;
  /** Answers equal to the solution's, of 10. */
  words: number;
  /** letters / 25 and words / 10: the environment's r_letter and r_word. */
  rLetter: number;
  rWord: number;
}

export function scoreBoard(board: readonly string[], solution: readonly string[]): BoardScore {
  const letters = board.filter((cell, i) => cell === solution[i]).length;
  const mine = boardAnswers(board);
  const words = boardAnswers(solution).filter((answer, i) => answer === mine[i]).length;
  return { letters, words, rLetter: letters / CROSSWORD_CELLS, rWord: words / CLUE_IDS.length };
}

/** The board as five rows of five ("_____", "MOTOR", ...): how a node's metadata holds it. */
export function boardRows(board: readonly string[]): string[] {
  return Array.from({ length: CROSSWORD_SIZE }, (_, r) =>
    board.slice(r * CROSSWORD_SIZE, (r + 1) * CROSSWORD_SIZE).join(''),
  );
}

const row = z.string().regex(/^[A-Z_]{5}$/);
const rows = z.array(row).length(CROSSWORD_SIZE);

/** What an imported crosswords run's run.started carries in `external.config` that the board needs. */
export const crosswordConfigSchema = z.looseObject({
  /** The ten clues by id. */
  clues: z.record(z.enum(CLUE_IDS), z.string().max(1_000)),
  /** The solved grid as five rows, or absent when the run has none. */
  solution: rows.optional(),
});
export type CrosswordConfig = z.infer<typeof crosswordConfigSchema>;

/** What each node of an imported crosswords run carries in its metadata. */
export const crosswordNodeSchema = z.looseObject({
  /** The board at this state: five rows of five, '_' for an empty cell. */
  board: rows,
  /** The path's moves from the empty board, in order ("h2. motor", ...). */
  actions: z.array(z.string().max(100)).max(100),
});
export type CrosswordNode = z.infer<typeof crosswordNodeSchema>;
