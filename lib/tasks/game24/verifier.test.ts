import { describe, expect, it } from 'vitest';
import { parseMove } from './move';
import { formatRational, rational } from './rational';
import { checkDeadEnd, verifyAnswer, verifyMove } from './verifier';

const PUZZLE = [4, 9, 10, 13];
const nums = (...ns: number[]) => ns.map((n) => rational(n));

describe('verifyAnswer', () => {
  it('passes a right answer and says what it checked', () => {
    const v = verifyAnswer(PUZZLE, 'Answer: (10 - 4) * (13 - 9) = 24');
    expect(v.passed).toBe(true);
    expect(v.trace).toMatch(/uses 4 9 10 13 each exactly once and evaluates exactly to 24/);
    expect(verifyAnswer(PUZZLE, '(13 - 9) * (10 - 4)').passed).toBe(true);
    expect(verifyAnswer(PUZZLE, '1. answer: (13 − 9) × (10 − 4) = 24.').passed).toBe(true);
  });

  it('passes answers that need fractions (exact arithmetic)', () => {
    expect(verifyAnswer([3, 3, 8, 8], 'Answer: 8 / (3 - 8 / 3) = 24').passed).toBe(true);
    expect(verifyAnswer([1, 4, 5, 6], '6 / (5 / 4 - 1) = 24').passed).toBe(true);
  });

  it('fails a wrong value', () => {
    expect(verifyAnswer(PUZZLE, 'Answer: 13 + 10 - 9 + 4 = 23')).toEqual({
      passed: false,
      trace: 'the line claims "= 23", not 24; evaluates to 18, not 24',
    });
    expect(verifyAnswer(PUZZLE, 'Answer: 13 + 10 + 9 - 4 = 24')).toEqual({
      passed: false,
      trace: 'evaluates to 28, not 24',
    });
  });

  it('fails a number used twice, a missing number and an extra number', () => {
    const reused = verifyAnswer(PUZZLE, 'Answer: (9 - 4) * 9 - 21 = 24');
    expect(reused.passed).toBe(false);
    expect(reused.trace).toMatch(/uses 4, 9, 9, 21 but the puzzle is 4 9 10 13/);
    expect(reused.trace).toMatch(/missing 10, 13; extra 9, 21/);

    const three = verifyAnswer(PUZZLE, 'Answer: 13 + 9 + 4 - 2 = 24');
    expect(three.trace).toMatch(/missing 10; extra 2/);
    const fewer = verifyAnswer(PUZZLE, 'Answer: (10 + 13) + 9 / 9 = 24');
    expect(fewer.trace).toMatch(/missing 4; extra 9/);
    const onlyThree = verifyAnswer([2, 3, 4, 12], 'Answer: 2 * 3 * 4 = 24');
    expect(onlyThree).toEqual({ passed: false, trace: 'uses 2, 3, 4 but the puzzle is 2 3 4 12 (missing 12)' });
    const extra = verifyAnswer([2, 3, 4, 12], 'Answer: 2 * 3 * 4 * (12 - 11) = 24');
    expect(extra.trace).toMatch(/\(extra 11\)/);
  });

  it('fails a division by zero', () => {
    const v = verifyAnswer([4, 4, 6, 8], 'Answer: 24 / (4 - 4) * 6 + 8 = 24');
    expect(v.passed).toBe(false);
    expect(v.trace).toMatch(/division by zero/);
    expect(verifyAnswer([1, 4, 4, 6], '(6 + 1) / (4 - 4)').trace).toBe('division by zero');
  });

  it('fails garbage with "cannot parse"', () => {
    for (const text of ['Answer: I do not know', 'Answer:', 'Answer: (4 + 9 = 24', 'Answer: 4 + 9 ^ 10 = 24']) {
      const v = verifyAnswer(PUZZLE, text);
      expect(v.passed, text).toBe(false);
      expect(v.trace, text).toMatch(/^cannot parse/);
    }
  });
});

describe('verifyMove', () => {
  const before = nums(4, 9, 10, 13);

  it('passes a correct move', () => {
    const v = verifyMove(before, '13 - 9 = 4 (left: 4 4 10)');
    expect(v).toEqual({ passed: true, trace: '13 - 9 = 4 is right; from 4 9 10 13, 4 4 10 are left' });
    expect(verifyMove(before, '2. 10 * 13 = 130 (left: 4 9 130)').passed).toBe(true);
    expect(verifyMove(before, '9 / 4 = 9/4 (left: 9/4 10 13)').passed).toBe(true);
    expect(verifyMove(before, '9 / 4 = 2.25 (left: 2.25 10 13)').passed).toBe(true);
    expect(verifyMove(before, '4 - 9 = -5 (left: -5 10 13)').passed).toBe(true);
    expect(verifyMove(nums(4, 4, 10), '4 + 4 = 8 (left: 8 10)').passed).toBe(true);
  });

  it('fails wrong arithmetic, exactly', () => {
    expect(verifyMove(before, '9 * 13 = 115 (left: 4 10 115)')).toEqual({
      passed: false,
      trace: '9 * 13 = 117, not 115',
    });
    expect(verifyMove(before, '10 / 13 = 0.769 (left: 0.769 4 9)').trace).toBe('10 / 13 = 10/13, not 769/1000');
  });

  it('fails a number that is not available', () => {
    expect(verifyMove(before, '7 + 4 = 11 (left: 9 10 11 13)').trace).toMatch(
      /uses 7, which is not among the numbers left \(4 9 10 13\)/,
    );
    expect(verifyMove(before, '4 + 4 = 8 (left: 8 9 10 13)').trace).toMatch(/uses 4 twice but only one 4 is left/);
  });

  it('fails a wrong left list', () => {
    expect(verifyMove(before, '13 - 9 = 4 (left: 4 10)').trace).toBe(
      'the left list "4 10" should be "4 4 10" (missing 4)',
    );
    expect(verifyMove(before, '13 - 9 = 4 (left: 4 9 10)').trace).toMatch(/missing 4; extra 9/);
  });

  it('fails division by zero and unreadable lines', () => {
    expect(verifyMove(nums(0, 5, 6), '5 / 0 = 0 (left: 0 6)').trace).toMatch(/division by zero/);
    expect(verifyMove(before, 'combine 4 and 9').trace).toMatch(/^cannot parse the move/);
  });
});

describe('checkDeadEnd', () => {
  it('fails one number that is not 24 and nothing else', () => {
    expect(checkDeadEnd(nums(23))).toEqual({ passed: false, trace: 'dead end: 23 ≠ 24' });
    expect(checkDeadEnd(nums(24))).toBeNull();
    expect(checkDeadEnd(nums(4, 6))).toBeNull();
  });
});

describe('parseMove', () => {
  it('tolerates the ways models write moves', () => {
    for (const line of [
      '4 + 5 = 9 (left: 6 9 10)',
      '1. 4 + 5 = 9 (left: 6 9 10)',
      '- 4 + 5 = 9 (left: 6, 9, 10)',
      'Step 1: 4 + 5 = 9 (Left: 6 9 10) because it is small',
      '**4 + 5 = 9 (left: 6 9 10)**',
    ]) {
      const p = parseMove(line);
      expect(p.ok, line).toBe(true);
      if (p.ok) expect(p.move.left.map(formatRational), line).toEqual(['6', '9', '10']);
    }
    const neg = parseMove('10 - (-1) = 11 (left: 6 11)');
    expect(neg.ok && formatRational(neg.move.b)).toBe('-1');
    const approx = parseMove('10 / 1.5 = 6.67 (approx.) (left: 6.67)');
    expect(approx.ok && formatRational(approx.move.result)).toBe('667/100');
    const fraction = parseMove('3/2 / 4 = 3/8 (left: 3/8 5)');
    expect(fraction.ok && [fraction.move.a, fraction.move.b].map(formatRational)).toEqual(['3/2', '4']);
  });
});
