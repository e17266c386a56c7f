/**
 * A 5x5 mini crossword, as the Tree-of-Thoughts paper's environment plays it (princeton-nlp/tree-of-thought-llm,
 * MiniCrosswordsEnv): 25 cells row by row, ten clues h1-h5 (rows) then v1-v5 (columns), a move "h2. motor" writes a
 * word over a row or a column (later moves overwrite the letters they cross), and a board is scored against the
 * solution by letters (cells equal) and words (the ten answers equal). Also the shapes an imported crosswords run
 * carries: run.started's external config (clues, solution) and each node's metadata (its board, its path's moves),
 * with their readers, so the importer writes them and the inspector reads them (untrusted JSON) with one definition.
 * Browser-safe and pure. Not responsible for reading a log (lib/formats/tot-crosswords.ts), the puzzles file
 * (lib/tasks/crosswords) or drawing (components/run/inspector/CrosswordBoard.tsx).
 */
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

const ROW = /^[A-Z_]{5}$/;

function isRows(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length === CROSSWORD_SIZE &&
    value.every((row) => typeof row === 'string' && ROW.test(row))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What an imported crosswords run's run.started carries in `external.config` that the board needs. */
export interface CrosswordConfig {
  /** The ten clues by id. */
  clues: Record<ClueId, string>;
  /** The solved grid as five rows; null when the run has none. */
  solution: string[] | null;
}

/** What each node of an imported crosswords run carries in its metadata. */
export interface CrosswordNode {
  /** The board at this state: five rows of five, '_' for an empty cell. */
  board: string[];
  /** The path's moves from the empty board, in order ("h2. motor", ...). */
  actions: string[];
}

/**
 * A run's external config read as a crossword's (untrusted JSON: a file or a client wrote it); null when it is not
 * one. Plain checks rather than a zod schema, so the run page's bundle does not carry zod for this.
 */
export function readCrosswordConfig(config: unknown): CrosswordConfig | null {
  if (!isRecord(config) || !isRecord(config.clues)) return null;
  const clues = config.clues;
  if (!CLUE_IDS.every((id) => typeof clues[id] === 'string')) return null;
  return {
    clues: Object.fromEntries(CLUE_IDS.map((id) => [id, clues[id] as string])) as Record<ClueId, string>,
    solution: isRows(config.solution) ? config.solution : null,
  };
}

/** A node's metadata read as a crossword state; null when it is not one (a node of another kind of run). */
export function readCrosswordNode(metadata: unknown): CrosswordNode | null {
  if (!isRecord(metadata) || !isRows(metadata.board) || !Array.isArray(metadata.actions)) return null;
  const actions = metadata.actions;
  if (!actions.every((a): a is string => typeof a === 'string')) return null;
  return { board: metadata.board, actions };
}
