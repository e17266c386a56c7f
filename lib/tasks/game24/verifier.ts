/**
 * The Game of 24's checker: exact facts about a line, with a trace that says precisely what was checked or why
 * it failed (the trace is shown in the inspector and folded into the model's scratchpad).
 * - verifyAnswer: "Answer: <expr> = 24" uses each puzzle number exactly once and is exactly 24.
 * - verifyMove: "a op b = c (left: ...)" takes two available numbers, computes right, and lists what is left.
 * - checkDeadEnd: one number left that is not 24.
 * Not responsible for judging whether a state can still reach 24 (that is the model's value call; solver.ts
 * is the simulation's oracle), nor for reading a path (state.ts).
 */
import type { Verification } from '../../contract/vocabulary';
import { applyOperator, evaluate, ExpressionError, literalsOf, parseExpression } from './expression';
import { answerBody, formatNumbers, parseMove } from './move';
import { multisetDiff, takeFrom } from './multiset';
import { compare, equals, formatRational, rational, type Rational, TWENTY_FOUR } from './rational';

const key = formatRational;

function list(values: readonly Rational[]): string {
  return values.map(formatRational).join(', ');
}

function pass(trace: string): Verification {
  return { passed: true, trace };
}

function fail(trace: string): Verification {
  return { passed: false, trace };
}

/**
 * Accepts "Answer: <expr> = 24", "<expr> = 24" or a bare expression. Every problem found is reported, not only
 * the first, so a trace like "uses 4, 9, 9 ...; evaluates to 23, not 24" tells the whole story.
 */
export function verifyAnswer(puzzle: readonly number[], answerLine: string): Verification {
  const body = answerBody(answerLine).replace(/\.\s*$/, '');
  const [exprText = '', ...claims] = body.split('=');
  const puzzleText = puzzle.join(' ');
  let expr;
  try {
    expr = parseExpression(exprText);
  } catch (error) {
    if (error instanceof ExpressionError) return fail(`cannot parse "${exprText.trim()}": ${error.message}`);
    throw error;
  }
  const problems: string[] = [];
  const claim = claims.at(-1);
  if (claim !== undefined) {
    const claimed = claim.trim() === '' ? null : tryValue(claim);
    if (!claimed || !equals(claimed, TWENTY_FOUR)) problems.push(`the line claims "= ${claim.trim()}", not 24`);
  }
  const used = literalsOf(expr).sort(compare);
  const expected = puzzle.map((n) => rational(n));
  const { missing, extra } = multisetDiff(used, expected, key);
  if (missing.length || extra.length) {
    const details = [missing.length ? `missing ${list(missing)}` : '', extra.length ? `extra ${list(extra)}` : '']
      .filter(Boolean)
      .join('; ');
    problems.push(`uses ${list(used)} but the puzzle is ${puzzleText} (${details})`);
  }
  const value = evaluate(expr);
  if (!value) problems.push('division by zero');
  else if (!equals(value, TWENTY_FOUR)) problems.push(`evaluates to ${formatRational(value)}, not 24`);

  if (problems.length) return fail(problems.join('; '));
  return pass(`checked "${exprText.trim()}": uses ${puzzleText} each exactly once and evaluates exactly to 24`);
}

function tryValue(text: string): Rational | null {
  try {
    return evaluate(parseExpression(text));
  } catch {
    return null;
  }
}

/** Checks one move against the numbers available before it (a multiset). */
export function verifyMove(leftBefore: readonly Rational[], moveLine: string): Verification {
  const parsed = parseMove(moveLine);
  if (!parsed.ok) return fail(parsed.error);
  const { a, op, b, result, left } = parsed.move;
  const before = formatNumbers(leftBefore);
  const step = `${formatRational(a)} ${op} ${formatRational(b)}`;

  const { rest, missing } = takeFrom(leftBefore, [a, b], key);
  if (missing.length) {
    const twice = missing.length === 1 && equals(a, b) && leftBefore.some((v) => equals(v, a));
    return fail(
      twice
        ? `uses ${formatRational(a)} twice but only one ${formatRational(a)} is left (${before})`
        : `uses ${list(missing)}, which ${missing.length > 1 ? 'are' : 'is'} not among the numbers left (${before})`,
    );
  }
  const actual = applyOperator(op, a, b);
  if (!actual) return fail(`${step}: division by zero`);
  if (!equals(actual, result)) return fail(`${step} = ${formatRational(actual)}, not ${formatRational(result)}`);

  const expected = [...rest, actual];
  const diff = multisetDiff(left, expected, key);
  if (diff.missing.length || diff.extra.length) {
    const details = [
      diff.missing.length ? `missing ${list(diff.missing)}` : '',
      diff.extra.length ? `extra ${list(diff.extra)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return fail(`the left list "${formatNumbers(left)}" should be "${formatNumbers(expected)}" (${details})`);
  }
  return pass(`${step} = ${formatRational(actual)} is right; from ${before}, ${formatNumbers(expected)} are left`);
}

/** A failure when a single number other than 24 is left; null otherwise (nothing to say). */
export function checkDeadEnd(left: readonly Rational[]): Verification | null {
  const only = left.length === 1 ? left[0] : undefined;
  if (only && !equals(only, TWENTY_FOUR)) return fail(`dead end: ${formatRational(only)} ≠ 24`);
  return null;
}
