/**
 * The line format of one Game of 24 step, as the Tree-of-Thoughts prompts write it:
 *   "4 + 5 = 9 (left: 6 9 10)"    a move: two numbers combined, and the numbers left after it
 *   "Answer: (4 + 5) * ... = 24"  the final answer
 * Numbers in a move are rationals written "24", "-1", "8/3" (or an exact decimal "1.5", which models write).
 * Not responsible for whether a move is legal (verifier.ts) or for the state of a path (state.ts).
 */
import type { Operator } from './expression';
import { compare, formatRational, multisetKey, parseRational, type Rational } from './rational';

export interface Move {
  a: Rational;
  op: Operator;
  b: Rational;
  /** The result the line claims (not necessarily right). */
  result: Rational;
  /** The numbers the line claims are left. */
  left: Rational[];
}

export type MoveParse = { ok: true; move: Move } | { ok: false; error: string };

const NUMBER = String.raw`-?\d+(?:\.\d+)?(?:/\d+)?`;
const OPERAND = String.raw`\(\s*${NUMBER}\s*\)|${NUMBER}`;
const LHS = new RegExp(String.raw`^\s*(${OPERAND})\s*([-+*/×÷−∗])\s*(${OPERAND})\s*$`);
const OPERATORS: Record<string, Operator> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '*': '*',
  '×': '*',
  '∗': '*',
  '/': '/',
  '÷': '/',
};

/** Drops list numbering and bullets a model puts before a line: "1. ", "2) ", "- ", "* ", "Step 1: ". */
export function stripListMarker(line: string): string {
  return line
    .trim()
    .replace(/^(?:[-*•]\s+|\d+[.)]\s+|step\s*\d+\s*[:.)]\s*)/i, '')
    .replace(/^\*\*(.*)\*\*$/, '$1')
    .trim();
}

export function isAnswerLine(line: string): boolean {
  return /^answer\s*:/i.test(stripListMarker(line));
}

/** The expression part of "Answer: <expr> = 24" (everything after "Answer:"). */
export function answerBody(line: string): string {
  return stripListMarker(line).replace(/^answer\s*:\s*/i, '');
}

export function parseMove(line: string): MoveParse {
  const text = stripListMarker(line);
  const m = /^([^=]+)=([^=]*?)\(\s*left\s*:\s*([^)]*)\)/i.exec(text);
  if (!m) return { ok: false, error: `cannot parse the move "${text}": expected "a op b = c (left: ...)"` };
  const [, lhs = '', rhs = '', leftText = ''] = m;
  const parts = LHS.exec(lhs);
  if (!parts) return { ok: false, error: `cannot parse "${lhs.trim()}": expected two numbers and one of + - * /` };
  const a = parseRational(parts[1] ?? '');
  const b = parseRational(parts[3] ?? '');
  const op = OPERATORS[parts[2] ?? ''];
  // The result is the first number after "=": tolerates "6.67 (approx.)".
  const resultText = /^\s*(\(\s*-?[\d./]+\s*\)|-?[\d./]+)/.exec(rhs)?.[1] ?? rhs.trim();
  const result = parseRational(resultText);
  if (!a || !b || !op) return { ok: false, error: `cannot read the numbers in "${lhs.trim()}"` };
  if (!result) return { ok: false, error: `cannot read the result "${rhs.trim()}"` };
  const left: Rational[] = [];
  for (const token of leftText.split(/[\s,]+/).filter(Boolean)) {
    const value = parseRational(token);
    if (!value) return { ok: false, error: `cannot read "${token}" in the left list "${leftText.trim()}"` };
    left.push(value);
  }
  return { ok: true, move: { a, op, b, result, left } };
}

/** Numbers as move lines write them, ascending like the paper's logs: "6 9 10". */
export function formatNumbers(values: readonly Rational[]): string {
  return [...values].sort(compare).map(formatRational).join(' ');
}

export function formatMove(move: Move): string {
  return `${formatRational(move.a)} ${move.op} ${formatRational(move.b)} = ${formatRational(move.result)} (left: ${formatNumbers(move.left)})`;
}

/**
 * What a move does, whatever its wording: the operator, its operands (in any order for + and *) and the numbers
 * it leaves. Two moves with the same key lead to the same state ("4 + 10" and "10 + 4" from "4 4 10").
 */
export function moveKey(move: Pick<Move, 'a' | 'op' | 'b' | 'left'>): string {
  const { a, op, b } = move;
  const operands = op === '+' || op === '*' ? multisetKey([a, b]) : `${formatRational(a)} ${formatRational(b)}`;
  return `${op}|${operands}|${multisetKey(move.left)}`;
}
