import { describe, expect, it } from 'vitest';
import { puzzleGoal, puzzleRange } from './puzzles';
import { rational } from './rational';
import { canReach24, solve } from './solver';
import { verifyAnswer } from './verifier';

describe('solver', () => {
  it("solves every puzzle of the paper's test set (rows 900-999), each solution verified", () => {
    const puzzles = puzzleRange(900, 1000);
    for (const p of puzzles) {
      const solution = solve(p.numbers);
      expect(solution, puzzleGoal(p)).not.toBeNull();
      const check = verifyAnswer(p.numbers, `Answer: ${solution} = 24`);
      expect(check.passed, `${puzzleGoal(p)}: ${solution}: ${check.trace}`).toBe(true);
      expect(canReach24(p.numbers)).toBe(true);
    }
  });

  it('needs fractions where the puzzle does', () => {
    const solution = solve([3, 3, 8, 8]);
    expect(solution).not.toBeNull();
    expect(verifyAnswer([3, 3, 8, 8], solution as string).passed).toBe(true);
  });

  it('knows unsolvable sets', () => {
    expect(solve([1, 1, 1, 1])).toBeNull();
    expect(canReach24([1, 1, 1, 1])).toBe(false);
    expect(canReach24([13, 13, 13, 13])).toBe(false);
    expect(canReach24([11, 12])).toBe(false);
    expect(canReach24([])).toBe(false);
  });

  it('works on intermediate states, rationals included', () => {
    expect(canReach24([rational(24)])).toBe(true);
    expect(canReach24([rational(23)])).toBe(false);
    expect(canReach24([4, 4, 10])).toBe(true);
    expect(canReach24([rational(8, 3), 3, 8])).toBe(true);
    expect(solve([rational(1, 3), 8])).toBe('8 / (1/3)');
  });

  it('finds every shipped puzzle solvable (the list holds solvable puzzles only)', () => {
    expect(puzzleRange(0, 1362).filter((p) => canReach24(p.numbers))).toHaveLength(1362);
  });
});
