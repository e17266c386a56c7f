/**
 * Turns the moves of a path back into expressions: each number carries the expression that made it, so after
 * "4 + 8 = 12" and "6 - 4 = 2" and "2 * 12 = 24" the 24 carries (6 - 4) * (4 + 8). The simulation writes its
 * answers with it, and continues a path with the solver when it synthesises.
 * Not responsible for checking the moves: a move that does not replay makes the whole replay null.
 */
import { applyOperator, type Expr, formatExpression } from './expression';
import { parseMove } from './move';
import { equals, formatRational, TWENTY_FOUR } from './rational';
import { solveTerms, type Term, termOf } from './solver';

/** The terms left after replaying the moves from the puzzle's numbers; null when a move does not replay. */
export function replayTerms(puzzle: readonly number[], moves: readonly string[]): Term[] | null {
  let terms = puzzle.map(termOf);
  for (const line of moves) {
    const parsed = parseMove(line);
    if (!parsed.ok) return null;
    const { a, op, b } = parsed.move;
    const ia = terms.findIndex((t) => equals(t.value, a));
    if (ia < 0) return null;
    const ta = terms[ia] as Term;
    const rest = terms.filter((_, k) => k !== ia);
    const ib = rest.findIndex((t) => equals(t.value, b));
    if (ib < 0) return null;
    const tb = rest[ib] as Term;
    const value = applyOperator(op, a, b);
    if (!value) return null;
    terms = [...rest.filter((_, k) => k !== ib), { value, expr: { kind: 'bin', op, left: ta.expr, right: tb.expr } }];
  }
  return terms;
}

/** The expression the moves build when they end on a lone 24; null otherwise. */
export function composeAnswer(puzzle: readonly number[], moves: readonly string[]): Expr | null {
  const terms = replayTerms(puzzle, moves);
  const only = terms?.length === 1 ? terms[0] : undefined;
  return only && equals(only.value, TWENTY_FOUR) ? only.expr : null;
}

/** "Answer: <expr> = 24" finishing the path with the solver, or why there is none. */
export function finishFromPath(puzzle: readonly number[], moves: readonly string[]): string {
  const terms = replayTerms(puzzle, moves);
  if (!terms) return 'No solution found from this path: its steps do not replay from the puzzle.';
  const expr = solveTerms(terms);
  if (expr) return `Answer: ${formatExpression(expr)} = 24`;
  const left = terms.map((t) => formatRational(t.value)).join(' ');
  return `No solution found from this path: ${left} cannot reach 24.`;
}
