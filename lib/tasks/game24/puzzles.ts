/**
 * The 1,362 Game of 24 puzzles of the Tree-of-Thoughts paper (puzzles.csv, ranked by human solve time).
 * `index` is the 0-based row the paper uses: its test set is rows 900-999 (puzzleRange(900, 1000)).
 * The CSV is read lazily with node:fs, relative to this module, so it works under vitest, tsx and Next's server.
 * Not responsible for checking a typed goal (lib/contract/game24-goal.ts) or for solving (solver.ts).
 */
import { readFileSync } from 'node:fs';

export interface Puzzle {
  /** 0-based row index, as in the paper's logs (`idx`). */
  index: number;
  rank: number;
  numbers: number[];
  /** Share of people who solved it, 0..1. */
  solvedRate: number;
}

/** Reads the CSV text (header Rank,Puzzles,AMT (s),Solved rate,...); throws naming the bad line. */
export function parsePuzzleCsv(text: string): Puzzle[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const header = (lines.shift() ?? '').split(',').map((h) => h.trim());
  const rankCol = header.indexOf('Rank');
  const puzzleCol = header.indexOf('Puzzles');
  const rateCol = header.indexOf('Solved rate');
  if (rankCol < 0 || puzzleCol < 0 || rateCol < 0) {
    throw new Error('puzzle CSV: the header must have Rank, Puzzles and Solved rate columns');
  }
  return lines.map((line, index) => {
    const cells = line.split(',');
    const rank = Number(cells[rankCol]);
    const numbers = (cells[puzzleCol] ?? '').trim().split(/\s+/).map(Number);
    const rate = Number((cells[rateCol] ?? '').replace('%', '')) / 100;
    if (
      !Number.isInteger(rank) ||
      numbers.length !== 4 ||
      numbers.some((n) => !Number.isInteger(n)) ||
      Number.isNaN(rate)
    ) {
      throw new Error(`puzzle CSV line ${index + 2} is malformed: "${line}"`);
    }
    return { index, rank, numbers, solvedRate: rate };
  });
}

let cache: Puzzle[] | null = null;

export function allPuzzles(): readonly Puzzle[] {
  cache ??= parsePuzzleCsv(readFileSync(new URL('./puzzles.csv', import.meta.url), 'utf8'));
  return cache;
}

export function getPuzzle(index: number): Puzzle {
  const puzzles = allPuzzles();
  const puzzle = Number.isInteger(index) ? puzzles[index] : undefined;
  if (!puzzle) throw new RangeError(`no puzzle with index ${index}: indexes run from 0 to ${puzzles.length - 1}`);
  return puzzle;
}

/** Rows start..end-1, like the paper's --task_start_index/--task_end_index. */
export function puzzleRange(start: number, end: number): Puzzle[] {
  const puzzles = allPuzzles();
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > puzzles.length || start > end) {
    throw new RangeError(`bad puzzle range ${start}..${end}: indexes run from 0 to ${puzzles.length - 1}`);
  }
  return puzzles.slice(start, end);
}

/** The puzzle as a goal string, "4 5 6 10". */
export function puzzleGoal(puzzle: Puzzle): string {
  return puzzle.numbers.join(' ');
}
