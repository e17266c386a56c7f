/**
 * A small, safe reader for arithmetic over whole numbers: + - * /, parentheses and unary minus, by recursive
 * descent (never eval: the text comes from models and people). Values are exact rationals.
 * It also writes expression trees back with the fewest parentheses, which the simulation and the solver use.
 * Not responsible for the game's rules (which numbers may be used): see verifier.ts.
 */
import { add, div, formatRational, mul, rational, type Rational, sub } from './rational';

export type Operator = '+' | '-' | '*' | '/';

export type Expr =
  | { kind: 'num'; value: Rational }
  | { kind: 'neg'; arg: Expr }
  | { kind: 'bin'; op: Operator; left: Expr; right: Expr };

export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

interface Token {
  type: 'num' | 'op' | '(' | ')';
  text: string;
  pos: number;
}

/** Models write ×, ÷ and − as often as * / -. */
const OPERATOR_ALIASES: Record<string, Operator> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '–': '-',
  '*': '*',
  '×': '*',
  '∗': '*',
  '/': '/',
  '÷': '/',
};

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (/\d/.test(ch)) {
      const m = /^\d+(\.\d+)?/.exec(text.slice(i)) as RegExpExecArray;
      if (m[1]) throw new ExpressionError(`only whole numbers are allowed, found "${m[0]}" at ${i + 1}`, i);
      tokens.push({ type: 'num', text: m[0], pos: i });
      i += m[0].length;
    } else if (OPERATOR_ALIASES[ch]) {
      tokens.push({ type: 'op', text: OPERATOR_ALIASES[ch], pos: i });
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch, text: ch, pos: i });
      i++;
    } else {
      throw new ExpressionError(`unexpected "${ch}" at ${i + 1}`, i);
    }
  }
  return tokens;
}

/** Parses the whole text; throws ExpressionError saying what is wrong and where (1-based). */
export function parseExpression(text: string): Expr {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new ExpressionError('the expression is empty', 0);
  let at = 0;
  const peek = () => tokens[at];
  const where = () => {
    const t = peek();
    return t ? `"${t.text}" at ${t.pos + 1}` : 'the end';
  };

  // expr := term (('+' | '-') term)*
  const expr = (): Expr => {
    let left = term();
    for (let t = peek(); t?.type === 'op' && (t.text === '+' || t.text === '-'); t = peek()) {
      at++;
      left = { kind: 'bin', op: t.text, left, right: term() };
    }
    return left;
  };
  // term := factor (('*' | '/') factor)*
  const term = (): Expr => {
    let left = factor();
    for (let t = peek(); t?.type === 'op' && (t.text === '*' || t.text === '/'); t = peek()) {
      at++;
      left = { kind: 'bin', op: t.text, left, right: factor() };
    }
    return left;
  };
  // factor := number | '(' expr ')' | '-' factor
  const factor = (): Expr => {
    const t = peek();
    if (!t) throw new ExpressionError('the expression ends too early', text.length);
    if (t.type === 'num') {
      at++;
      return { kind: 'num', value: rational(BigInt(t.text)) };
    }
    if (t.type === 'op' && t.text === '-') {
      at++;
      return { kind: 'neg', arg: factor() };
    }
    if (t.type === '(') {
      at++;
      const inner = expr();
      if (peek()?.type !== ')')
        throw new ExpressionError(`expected ")" but found ${where()}`, peek()?.pos ?? text.length);
      at++;
      return inner;
    }
    throw new ExpressionError(`expected a number or "(" but found ${where()}`, t.pos);
  };

  const result = expr();
  if (at < tokens.length) throw new ExpressionError(`unexpected ${where()}`, peek()?.pos ?? text.length);
  return result;
}

/** The exact value; null when a division by zero happens anywhere. */
export function evaluate(e: Expr): Rational | null {
  switch (e.kind) {
    case 'num':
      return e.value;
    case 'neg': {
      const v = evaluate(e.arg);
      return v && rational(-v.num, v.den);
    }
    case 'bin': {
      const l = evaluate(e.left);
      const r = evaluate(e.right);
      if (!l || !r) return null;
      return applyOperator(e.op, l, r);
    }
  }
}

export function applyOperator(op: Operator, a: Rational, b: Rational): Rational | null {
  switch (op) {
    case '+':
      return add(a, b);
    case '-':
      return sub(a, b);
    case '*':
      return mul(a, b);
    case '/':
      return div(a, b);
  }
}

/** The number literals in reading order (a negated literal counts as its number). */
export function literalsOf(e: Expr): Rational[] {
  switch (e.kind) {
    case 'num':
      return [e.value];
    case 'neg':
      return literalsOf(e.arg);
    case 'bin':
      return [...literalsOf(e.left), ...literalsOf(e.right)];
  }
}

const PRECEDENCE: Record<Operator, number> = { '+': 1, '-': 1, '*': 2, '/': 2 };

/**
 * Writes the tree with only the parentheses it needs: a lower-precedence operand is wrapped, and so is a
 * right operand of equal precedence under - or / (a - (b + c) is not a - b + c).
 * `flat: true` drops every parenthesis: the simulation's slip of a model that forgets them.
 */
export function formatExpression(e: Expr, options: { flat?: boolean } = {}): string {
  const flat = options.flat ?? false;
  const wrap = (child: Expr, parent: Operator, side: 'left' | 'right'): string => {
    const text = formatExpression(child, options);
    if (flat || child.kind !== 'bin') return text;
    const cp = PRECEDENCE[child.op];
    const pp = PRECEDENCE[parent];
    const needs = cp < pp || (side === 'right' && cp === pp && (parent === '-' || parent === '/'));
    return needs ? `(${text})` : text;
  };
  switch (e.kind) {
    case 'num':
      return e.value.den === 1n ? formatRational(e.value) : `(${formatRational(e.value)})`;
    case 'neg':
      return e.arg.kind === 'num' || flat
        ? `-${formatExpression(e.arg, options)}`
        : `-(${formatExpression(e.arg, options)})`;
    case 'bin':
      return `${wrap(e.left, e.op, 'left')} ${e.op} ${wrap(e.right, e.op, 'right')}`;
  }
}
