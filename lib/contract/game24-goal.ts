/**
 * The goal of a Game of 24 run is the puzzle itself, "4 9 10 13": this reads and checks it.
 * In the contract because the run form checks a puzzle as the server will (lib/contract/tasks.ts), while the task's
 * prompts, verifier and puzzle list (lib/tasks/game24, server side) import it from here.
 * Not responsible for the puzzle list (lib/tasks/game24/puzzles.ts) or for solving.
 */

export const PUZZLE_SIZE = 4;
const SIZE_WORD = 'four';
export const MIN_NUMBER = 1;
export const MAX_NUMBER = 13;

export class InvalidPuzzleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPuzzleError';
  }
}

const RULE = `a Game of 24 puzzle is ${SIZE_WORD} whole numbers from ${MIN_NUMBER} to ${MAX_NUMBER}, like "4 9 10 13"`;

/** The puzzle's numbers, ascending; throws InvalidPuzzleError saying what is wrong. Commas are tolerated. */
export function puzzleNumbers(goal: string): number[] {
  const parts = goal
    .trim()
    .split(/[\s,;]+/)
    .filter(Boolean);
  if (parts.length !== PUZZLE_SIZE) {
    throw new InvalidPuzzleError(
      `${RULE}; got ${parts.length === 0 ? 'nothing' : `${parts.length}: "${goal.trim()}"`}`,
    );
  }
  const numbers = parts.map((p) => {
    if (!/^\d+$/.test(p)) throw new InvalidPuzzleError(`${RULE}; "${p}" is not a whole number`);
    const n = Number(p);
    if (n < MIN_NUMBER || n > MAX_NUMBER) throw new InvalidPuzzleError(`${RULE}; ${n} is out of range`);
    return n;
  });
  return numbers.sort((a, b) => a - b);
}

/** "13, 4 9 10" -> "4 9 10 13": the canonical form a run stores. */
export function normalizePuzzle(goal: string): string {
  return puzzleNumbers(goal).join(' ');
}

/** The error message, or null when the goal is a valid puzzle (for ThoughtTask.validateGoal). */
export function puzzleError(goal: string): string | null {
  try {
    puzzleNumbers(goal);
    return null;
  } catch (error) {
    if (error instanceof InvalidPuzzleError) return error.message;
    throw error;
  }
}
