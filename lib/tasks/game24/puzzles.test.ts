import { describe, expect, it } from 'vitest';
import { normalizePuzzle, puzzleError } from '../../contract/game24-goal';
import { allPuzzles, getPuzzle, parsePuzzleCsv, puzzleGoal, puzzleRange } from './puzzles';

describe('puzzle CSV', () => {
  it('parses rows into 0-based indexes', () => {
    const csv =
      'Rank,Puzzles,AMT (s),Solved rate,1-sigma Mean (s),1-sigma STD (s)\n1,1 1 4 6,4.4,99.20%,4.67,1.48\n2,1 1 11 11,4.41,99.60%,4.68,1.45\n';
    expect(parsePuzzleCsv(csv)).toEqual([
      { index: 0, rank: 1, numbers: [1, 1, 4, 6], solvedRate: 0.992 },
      { index: 1, rank: 2, numbers: [1, 1, 11, 11], solvedRate: 0.996 },
    ]);
  });

  it('names a malformed line', () => {
    expect(() => parsePuzzleCsv('Rank,Puzzles,Solved rate\n1,1 2 3,50%')).toThrow(/line 2/);
    expect(() => parsePuzzleCsv('a,b\n')).toThrow(/header/);
  });

  it("ships the paper's 1,362 puzzles, index 900 being the first of its test set", () => {
    expect(allPuzzles()).toHaveLength(1362);
    // The first game of the paper's GPT-4 log (idx 900) is "4 5 6 10".
    expect(puzzleGoal(getPuzzle(900))).toBe('4 5 6 10');
    expect(getPuzzle(0).rank).toBe(1);
    expect(puzzleRange(900, 1000)).toHaveLength(100);
    expect(() => getPuzzle(1362)).toThrow(/no puzzle with index 1362/);
    expect(() => puzzleRange(5, 2)).toThrow(/bad puzzle range/);
  });
});

describe('normalizePuzzle', () => {
  it('sorts four numbers from 1 to 13', () => {
    expect(normalizePuzzle(' 13 4, 10 9 ')).toBe('4 9 10 13');
    expect(puzzleError('1 1 1 1')).toBeNull();
  });

  it('explains what is wrong', () => {
    expect(() => normalizePuzzle('4 9 10')).toThrow(/four whole numbers from 1 to 13.*got 3/);
    expect(() => normalizePuzzle('4 9 10 14')).toThrow(/14 is out of range/);
    expect(() => normalizePuzzle('4 9 10 0')).toThrow(/0 is out of range/);
    expect(() => normalizePuzzle('4 9 10 x')).toThrow(/"x" is not a whole number/);
    expect(() => normalizePuzzle('4 9 10 2.5')).toThrow(/not a whole number/);
    expect(puzzleError('')).toMatch(/got nothing/);
  });
});
