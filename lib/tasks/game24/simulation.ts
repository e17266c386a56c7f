/**
 * The offline model's Game of 24 player: answers the task's prompts the way GPT-4 does in the paper's logs,
 * imperfectly, and deterministically from the rng it is given (the SimulatedModel seeds it per request).
 * - propose: legal moves, shuffled with a bias toward moves that keep 24 reachable; about 4% of lines carry an
 *   arithmetic slip (a wrong result), which the verifier then fails.
 * - value: the exact answer (canReach24) misjudged 15% of the time, in the paper's style (attempts, then a word).
 * - answer: the expression the path's moves build; about 5% of the time the parentheses are forgotten.
 * Decisions: results are never negative (a - b with a >= b: nothing is lost, |a - b| reaches the same values);
 * fractions are allowed and written p/q ("8 / 3 = 8/3"), because puzzles such as "3 3 8 8" need them, but they
 * are proposed less often, as models do.
 * Not responsible for judging a model's lines: the verifier does that, the simulation only plays.
 */
import type { CompletionRequest } from '../../engine/index';
import type { Rng, Simulation } from '../../models/index';
import { composeAnswer, finishFromPath } from './compose';
import { applyOperator, type Expr, formatExpression, type Operator } from './expression';
import { answerBody, formatMove, formatNumbers, isAnswerLine, type Move, moveKey, parseMove } from './move';
import { MARKERS, type PromptKind, TRIED_HEADING } from './prompts';
import { compare, equals, formatRational, isInteger, parseRational, rational, type Rational } from './rational';
import { canReach24, solve } from './solver';
import { verifyAnswer } from './verifier';

/** Chance that one proposed line has a wrong result. */
export const SLIP_RATE = 0.04;
/** Chance that a value judgement is wrong (solvable called impossible, unsolvable called likely). */
export const MISJUDGE_RATE = 0.15;
/** Chance that an answer line loses its parentheses. */
export const ANSWER_SLIP_RATE = 0.05;
const DEFAULT_PROPOSALS = 8;

const KIND_BY_MARKER = new Map<string, PromptKind>(
  (Object.entries(MARKERS) as [PromptKind, string][]).map(([kind, marker]) => [marker, kind]),
);

/** The user message that opens with one of the task's markers, and which prompt it is. */
export function readPrompt(request: CompletionRequest): { kind: PromptKind; lines: string[] } | null {
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    const lines = message.content.split(/\r?\n/);
    const kind = KIND_BY_MARKER.get((lines[0] ?? '').trim());
    if (kind) return { kind, lines };
  }
  return null;
}

function lastIndexOf(lines: readonly string[], test: (line: string) => boolean): number {
  for (let i = lines.length - 1; i >= 0; i--) if (test(lines[i] ?? '')) return i;
  return -1;
}

/** The numbers on the last "Input:" line (the examples come before it); null when they do not read. */
function lastInput(lines: readonly string[]): { at: number; numbers: Rational[] | null } {
  const at = lastIndexOf(lines, (l) => l.startsWith('Input:'));
  const text = at < 0 ? '' : (lines[at] ?? '').slice('Input:'.length);
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const numbers = tokens.map(parseRational);
  return { at, numbers: tokens.length && numbers.every((n) => n !== null) ? (numbers as Rational[]) : null };
}

/** The step lines after "Steps:" (from the last "Input:"), up to a line that is neither a move nor an answer. */
function stepsAfter(lines: readonly string[], from: number): string[] {
  const start = lines.findIndex((l, i) => i > from && l.trim() === 'Steps:');
  if (start < 0) return [];
  const steps: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const t = line.trim();
    if (!t || t === 'Answer:' || t === '(none)' || t.startsWith('Write the final answer')) break;
    steps.push(t);
  }
  return steps;
}

/** The "- " lines under a heading, up to the first line that is not one. */
function listAfter(lines: readonly string[], heading: string): string[] {
  const start = lines.findIndex((l) => l.startsWith(heading));
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('- ')) break;
    out.push(line.slice(2));
  }
  return out;
}

// ---------- propose ----------

interface Candidate {
  move: Move;
  solvable: boolean;
}

/** Every legal move from the numbers: each pair once, results never negative, no division by zero. */
export function legalMoves(left: readonly Rational[], rng?: Rng): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < left.length; i++) {
    for (let j = i + 1; j < left.length; j++) {
      const [hi, lo] = compare(left[i] as Rational, left[j] as Rational) >= 0 ? [left[i], left[j]] : [left[j], left[i]];
      const rest = left.filter((_, k) => k !== i && k !== j);
      const swap = rng ? rng.next() < 0.3 : false;
      const plan: [Rational, Operator, Rational][] = [
        swap ? [hi as Rational, '+', lo as Rational] : [lo as Rational, '+', hi as Rational],
        swap ? [hi as Rational, '*', lo as Rational] : [lo as Rational, '*', hi as Rational],
        [hi as Rational, '-', lo as Rational],
        [hi as Rational, '/', lo as Rational],
        [lo as Rational, '/', hi as Rational],
      ];
      for (const [a, op, b] of plan) {
        const result = applyOperator(op, a, b);
        if (!result) continue;
        const after = [...rest, result];
        // With repeated numbers ("4 4 10") two pairs give the same move.
        const key = moveKey({ a, op, b, left: after });
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ move: { a, op, b, result, left: after }, solvable: canReach24(after) });
      }
    }
  }
  return out;
}

/** A wrong result near the right one, carried into the left list as a careless model would. */
function slip(move: Move, rng: Rng): Move {
  const { num, den } = move.result;
  // Integers are off by 1 or 2 (never below 1); a fraction is off by one whole.
  const deltas = [-2n, -1n, 1n, 2n].filter((d) => num + d * den > 0n);
  const wrong = rational(num + rng.pick(deltas.length ? deltas : [1n]) * den, den);
  return { ...move, result: wrong, left: [...move.left.slice(0, -1), wrong] };
}

/**
 * Up to `count` move lines: promising ones tend to come first, fractions later; some lines slip.
 * Moves the prompt lists as already tried are left out, so expanding a node again brings new steps.
 */
export function proposeLines(
  left: readonly Rational[],
  count: number,
  rng: Rng,
  tried: readonly string[] = [],
): string[] {
  const triedKeys = new Set(
    tried.flatMap((line) => {
      const parsed = parseMove(line);
      return parsed.ok ? [moveKey(parsed.move)] : [];
    }),
  );
  const ranked = legalMoves(left, rng)
    .filter((c) => !triedKeys.has(moveKey(c.move)))
    .map((c) => ({
      c,
      weight: rng.next() + (c.solvable ? 0.4 : 0) - (isInteger(c.move.result) ? 0 : 0.35),
    }))
    .sort((x, y) => y.weight - x.weight)
    .slice(0, Math.max(0, count));
  return ranked.map(({ c }) => formatMove(rng.next() < SLIP_RATE ? slip(c.move, rng) : c.move));
}

function respondPropose(lines: readonly string[], rng: Rng): string {
  const count = Number(/up to (\d+)/.exec(lines.join('\n'))?.[1] ?? DEFAULT_PROPOSALS);
  const { numbers } = lastInput(lines);
  if (!numbers) return 'I cannot read the numbers left, so I cannot propose a step.';
  if (numbers.length < 2) return `No further steps: only ${formatNumbers(numbers)} is left.`;
  const moves = proposeLines(numbers, count, rng, listAfter(lines, TRIED_HEADING));
  if (!moves.length) return `Every step from ${formatNumbers(numbers)} has been tried already.`;
  const style = rng.next();
  const body =
    style < 0.2 ? moves.map((m, i) => `${i + 1}. ${m}`) : style < 0.3 ? moves.map((m) => `- ${m}`) : [...moves];
  const preface = rng.next() < 0.25 ? [rng.pick(PREFACES), ''] : [];
  return [...preface, ...body].join('\n');
}

const PREFACES = [
  'Here are some possible next steps:',
  'Let me look at which pairs combine well.',
  'Possible next steps:',
  'Some options, most promising first:',
];

// ---------- value ----------

/** A couple of honest attempts in the paper's style ("4 + 4 + 10 = 18"). */
function attempts(numbers: readonly Rational[], rng: Rng, howMany: number): string[] {
  if (numbers.length === 2) {
    const [a, b] = [...numbers].sort((x, y) => compare(y, x)) as [Rational, Rational];
    // Only the misses: these lines lead up to a verdict other than "sure".
    return (['+', '-', '*', '/'] as Operator[]).flatMap((op) => {
      const v = applyOperator(op, a, b);
      return v && !equals(v, rational(24))
        ? [`${formatRational(a)} ${op} ${formatRational(b)} = ${formatRational(v)}`]
        : [];
    });
  }
  const out: string[] = [];
  for (let k = 0; k < howMany * 3 && out.length < howMany; k++) {
    const order = rng.shuffle(numbers);
    let expr: Expr = { kind: 'num', value: order[0] as Rational };
    let value: Rational | null = order[0] as Rational;
    for (const next of order.slice(1)) {
      const op = rng.pick(['+', '-', '*', '+', '*'] as Operator[]);
      value = value && applyOperator(op, value, next);
      expr = { kind: 'bin', op, left: expr, right: { kind: 'num', value: next } };
    }
    const line = value ? `${formatExpression(expr)} = ${formatRational(value)}` : '';
    if (line && !out.includes(line) && !(value && equals(value, rational(24)))) out.push(line);
  }
  return out;
}

export function valueResponse(numbers: readonly Rational[] | null, rng: Rng): string {
  if (!numbers) return 'I cannot read these numbers.\nimpossible';
  const text = formatNumbers(numbers);
  if (numbers.length === 1) {
    return equals(numbers[0] as Rational, rational(24)) ? '24 = 24\nsure' : `${text} is not 24\nimpossible`;
  }
  const misjudge = rng.next() < MISJUDGE_RATE;
  if (canReach24(numbers)) {
    if (misjudge) return [...attempts(numbers, rng, 2), `I cannot obtain 24 from ${text}`, 'impossible'].join('\n');
    if (numbers.length > 2 && rng.next() < 0.25) {
      return [
        ...attempts(numbers, rng, 2),
        'I cannot obtain 24 now, but numbers are within a reasonable range',
        'likely',
      ].join('\n');
    }
    return [`${solve(numbers) ?? text} = 24`, 'sure'].join('\n');
  }
  if (misjudge) {
    return [
      ...attempts(numbers, rng, 1),
      'I cannot obtain 24 now, but numbers are within a reasonable range',
      'likely',
    ].join('\n');
  }
  const tooSmall = numbers.every((n) => compare(n, rational(5)) < 0);
  return [
    ...attempts(numbers, rng, 2),
    tooSmall ? `${text} are all too small` : `I cannot obtain 24 from ${text}`,
    'impossible',
  ].join('\n');
}

// ---------- judge, answer, synthesis, execution ----------

function respondJudge(lines: readonly string[], rng: Rng): string {
  const { at, numbers } = lastInput(lines);
  const answer = lines.slice(at + 1).find(isAnswerLine);
  if (!numbers || !answer) return 'I cannot read the answer.\nimpossible';
  const puzzle = numbers.map((n) => Number(n.num));
  const right = verifyAnswer(puzzle, answer).passed;
  const says = rng.next() < (right ? 0.95 : 0.08) ? 'sure' : 'impossible';
  const reason =
    says === 'sure'
      ? `${answerBody(answer)}: it uses ${formatNumbers(numbers)} once each.`
      : `${answerBody(answer)} does not use ${formatNumbers(numbers)} exactly once to make 24.`;
  return `${reason}\n${says}`;
}

function respondAnswer(lines: readonly string[], rng: Rng): string {
  const { at, numbers } = lastInput(lines);
  const puzzle = (numbers ?? []).map((n) => Number(n.num));
  const expr = composeAnswer(puzzle, stepsAfter(lines, at));
  // A model that lost track writes something plausible but wrong; the verifier catches it.
  if (!expr) return `Answer: ${puzzle.join(' + ')} = 24`;
  return `Answer: ${formatExpression(expr, { flat: rng.next() < ANSWER_SLIP_RATE })} = 24`;
}

function respondSynthesis(lines: readonly string[]): string {
  const { at, numbers } = lastInput(lines);
  const puzzle = (numbers ?? []).map((n) => Number(n.num));
  const steps = stepsAfter(lines, at);
  const answer = steps.find(isAnswerLine);
  if (answer && verifyAnswer(puzzle, answer).passed) return `Answer: ${answerBody(answer)}`;
  return finishFromPath(
    puzzle,
    steps.filter((s) => !isAnswerLine(s)),
  );
}

function respondExecute(lines: readonly string[]): string {
  const step = lines
    .find((l) => l.startsWith('Step to carry out now:'))
    ?.slice('Step to carry out now:'.length)
    .trim();
  return `FINAL ANSWER: ${step ?? ''}`;
}

export const game24Simulation: Simulation = {
  taskId: 'game24',
  recognizes: (request) => readPrompt(request) !== null,
  respond(request, rng) {
    const prompt = readPrompt(request);
    if (!prompt) throw new Error('the game24 simulation was given a prompt it does not recognise');
    const { kind, lines } = prompt;
    switch (kind) {
      case 'propose':
        return respondPropose(lines, rng);
      case 'value':
        return valueResponse(lastInput(lines).numbers, rng);
      case 'judge':
        return respondJudge(lines, rng);
      case 'answer':
        return respondAnswer(lines, rng);
      case 'synthesis':
        return respondSynthesis(lines);
      case 'execute':
        return respondExecute(lines);
    }
  },
};
