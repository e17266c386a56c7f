/**
 * Exhaustive Game of 24 solver over exact rationals: the simulation's oracle (is this state still solvable?)
 * and the test suite's ground truth. canReach24 is memoised by the sorted multiset, because the simulation
 * asks about the same few thousand states over and over.
 * All six results of a pair are tried (a+b, a*b, a-b, b-a, a/b, b/a), so negative and fractional intermediate
 * values are covered ("3 3 8 8" needs 8/3).
 * Not responsible for checking a model's lines (verifier.ts).
 */
import { applyOperator, type Expr, formatExpression, type Operator } from './expression';
import { compare, equals, multisetKey, rational, type Rational, TWENTY_FOUR } from './rational';

/** One way to combine two values: `x op y`, where (x, y) is (a, b) or (b, a). */
export interface Combination {
  x: Rational;
  op: Operator;
  y: Rational;
  value: Rational;
  /** Where x and y came from: 0 for the first argument of combinations(), 1 for the second. */
  order: [0 | 1, 0 | 1];
}

/**
 * The combinations of a and b, natural ones first (sum, product, larger minus smaller, larger over smaller),
 * so a solution found first reads the way a person would write it.
 */
export function combinations(a: Rational, b: Rational): Combination[] {
  const [hi, lo, order]: [Rational, Rational, [0 | 1, 0 | 1]] = compare(a, b) >= 0 ? [a, b, [0, 1]] : [b, a, [1, 0]];
  const reversed: [0 | 1, 0 | 1] = [order[1], order[0]];
  const plan: [Rational, Operator, Rational, [0 | 1, 0 | 1]][] = [
    [hi, '+', lo, order],
    [hi, '*', lo, order],
    [hi, '-', lo, order],
    [hi, '/', lo, order],
    [lo, '/', hi, reversed],
    [lo, '-', hi, reversed],
  ];
  const out: Combination[] = [];
  for (const [x, op, y, o] of plan) {
    const value = applyOperator(op, x, y);
    if (value) out.push({ x, op, y, value, order: o });
  }
  return out;
}

const MEMO_LIMIT = 500_000;
const memo = new Map<string, boolean>();

function toRationals(values: readonly (number | Rational)[]): Rational[] {
  return values.map((v) => (typeof v === 'number' ? rational(v) : v));
}

/** True when the numbers can make exactly 24, each used once. */
export function canReach24(values: readonly (number | Rational)[]): boolean {
  return reach(toRationals(values));
}

function reach(values: Rational[]): boolean {
  if (values.length === 0) return false;
  if (values.length === 1) return equals(values[0] as Rational, TWENTY_FOUR);
  const key = multisetKey(values);
  const known = memo.get(key);
  if (known !== undefined) return known;
  let found = false;
  outer: for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      const rest = values.filter((_, k) => k !== i && k !== j);
      for (const c of combinations(values[i] as Rational, values[j] as Rational)) {
        if (reach([...rest, c.value])) {
          found = true;
          break outer;
        }
      }
    }
  }
  // A plain cap instead of an LRU: the state space of 4-number puzzles is small, this only guards misuse.
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, found);
  return found;
}

/** A value with the expression that produced it (a puzzle number, or the replay of some moves). */
export interface Term {
  value: Rational;
  expr: Expr;
}

/** An expression tree making 24 from the terms (each used once), or null. Guided by canReach24, so it is fast. */
export function solveTerms(terms: readonly Term[]): Expr | null {
  if (terms.length === 1) {
    const only = terms[0] as Term;
    return equals(only.value, TWENTY_FOUR) ? only.expr : null;
  }
  if (!reach(terms.map((t) => t.value))) return null;
  for (let i = 0; i < terms.length; i++) {
    for (let j = i + 1; j < terms.length; j++) {
      const pair = [terms[i] as Term, terms[j] as Term] as const;
      const rest = terms.filter((_, k) => k !== i && k !== j);
      for (const c of combinations(pair[0].value, pair[1].value)) {
        const next: Term = {
          value: c.value,
          expr: { kind: 'bin', op: c.op, left: pair[c.order[0]].expr, right: pair[c.order[1]].expr },
        };
        if (reach([...rest.map((t) => t.value), c.value])) return solveTerms([...rest, next]);
      }
    }
  }
  return null;
}

export function termOf(value: number | Rational): Term {
  const r = typeof value === 'number' ? rational(value) : value;
  return { value: r, expr: { kind: 'num', value: r } };
}

/** A solution such as "(10 - 4) * (13 - 9)", or null when there is none. */
export function solve(values: readonly (number | Rational)[]): string | null {
  const expr = solveTerms(values.map(termOf));
  return expr ? formatExpression(expr) : null;
}
