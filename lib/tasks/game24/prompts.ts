/**
 * The Game of 24 prompts, after the Tree-of-Thoughts paper's (princeton-nlp/tree-of-thought-llm, MIT):
 * "propose" for the next moves, "value" (sure/likely/impossible) for a state, the chain-of-thought last step
 * for the answer and "value last step" (Judge: sure/impossible) for an answer; plus their parsers.
 * The first line of each user message is a marker ("Game of 24 — propose", ...) so the offline simulation can
 * tell the prompts apart; a real model just reads it as a title.
 * Model text (moves, answers, a step that does not read) goes in through promptLine: escaped, on its own line, so
 * it cannot close the scratchpad or add a line of its own (a verdict, a "Judge:" line); legal lines are unchanged.
 * Not responsible for the state of a path (state.ts) or for the ThoughtTask wiring (task.ts).
 */
import type { ChatMessage, ThoughtBranch } from '../../contract/vocabulary';
import { promptLine, type ScoreParts } from '../../engine/index';
import { answerBody, isAnswerLine, parseMove, stripListMarker } from './move';

export const MARKERS = {
  propose: 'Game of 24 — propose',
  answer: 'Game of 24 — answer',
  value: 'Game of 24 — value',
  judge: 'Game of 24 — judge',
  execute: 'Game of 24 — execute',
  synthesis: 'Game of 24 — synthesis',
} as const;

export type PromptKind = keyof typeof MARKERS;

const RULES = 'Use numbers and basic arithmetic operations (+ - * /) to obtain 24.';

function system(instructions: string | undefined, role: string): ChatMessage {
  return { role: 'system', content: [instructions, role].filter(Boolean).join('\n\n') };
}

function user(lines: (string | false | undefined)[]): ChatMessage {
  return { role: 'user', content: lines.filter((l) => l !== false && l !== undefined).join('\n') };
}

function stepsText(moves: readonly string[]): string {
  return moves.length ? moves.map(promptLine).join('\n') : '(none yet)';
}

const PROPOSE_EXAMPLE = [
  'Input: 2 8 8 14',
  'Possible next steps:',
  '2 + 8 = 10 (left: 8 10 14)',
  '8 / 2 = 4 (left: 4 8 14)',
  '14 + 2 = 16 (left: 8 8 16)',
  '2 * 8 = 16 (left: 8 14 16)',
  '8 - 2 = 6 (left: 6 8 14)',
  '14 - 8 = 6 (left: 2 6 8)',
  '14 / 2 = 7 (left: 7 8 8)',
  '14 - 2 = 12 (left: 8 8 12)',
];

export interface ProposeInput {
  instructions?: string;
  puzzle: string;
  moves: readonly string[];
  left: string;
  count: number;
  scratchpad: string;
  /** Moves already tried from these numbers (explored elsewhere, or dropped here): asked not to be repeated. */
  tried?: readonly string[];
}

export const TRIED_HEADING = 'Already tried from these numbers (propose different steps):';

export function proposePrompt(p: ProposeInput): ChatMessage[] {
  return [
    system(p.instructions, 'You play the Game of 24 one step at a time.'),
    user([
      MARKERS.propose,
      `${RULES} Each step takes two of the numbers left and replaces them with the result.`,
      `Puzzle: ${p.puzzle}`,
      `Steps so far:\n${stepsText(p.moves)}`,
      `Scratchpad (verified steps in full, abandoned branches summarised; do not repeat them):\n${p.scratchpad}`,
      p.tried?.length ? `${TRIED_HEADING}\n${p.tried.map((t) => `- ${promptLine(t)}`).join('\n')}` : undefined,
      `Propose up to ${p.count} possible next steps from the numbers left, one per line, as "a op b = c (left: ...)"; write a fraction as p/q.`,
      '',
      ...PROPOSE_EXAMPLE,
      `Input: ${p.left}`,
      'Possible next steps:',
    ]),
  ];
}

const ANSWER_EXAMPLE = [
  'Input: 4 4 6 8',
  'Steps:',
  '4 + 8 = 12 (left: 4 6 12)',
  '6 - 4 = 2 (left: 2 12)',
  '2 * 12 = 24 (left: 24)',
  'Answer: (6 - 4) * (4 + 8) = 24',
];

export interface AnswerInput {
  instructions?: string;
  puzzle: string;
  moves: readonly string[];
  scratchpad: string;
}

/** The last step: the moves reach 24, now write them as one expression over the puzzle's numbers. */
export function answerPrompt(p: AnswerInput): ChatMessage[] {
  return [
    system(p.instructions, 'You play the Game of 24 one step at a time.'),
    user([
      MARKERS.answer,
      `${RULES} The steps below reach 24: write them as one expression that uses each input number exactly once.`,
      'Answer with one line: "Answer: <expression> = 24".',
      `Scratchpad (verified steps in full, abandoned branches summarised):\n${p.scratchpad}`,
      '',
      ...ANSWER_EXAMPLE,
      `Input: ${p.puzzle}`,
      'Steps:',
      ...p.moves.map(promptLine),
      'Answer:',
    ]),
  ];
}

const VALUE_EXAMPLES = [
  'Input: 10 14',
  '10 + 14 = 24',
  'sure',
  'Input: 11 12',
  '11 + 12 = 23',
  '12 - 11 = 1',
  '11 * 12 = 132',
  '11 / 12 = 0.91',
  'impossible',
  'Input: 4 4 10',
  '4 + 4 + 10 = 8 + 10 = 18',
  '4 * 10 - 4 = 40 - 4 = 36',
  '(10 - 4) * 4 = 6 * 4 = 24',
  'sure',
  'Input: 5 7 8',
  '5 + 7 + 8 = 12 + 8 = 20',
  '(8 - 5) * 7 = 3 * 7 = 21',
  'I cannot obtain 24 now, but numbers are within a reasonable range',
  'likely',
  'Input: 1 3 3',
  '1 * 3 * 3 = 9',
  '(1 + 3) * 3 = 12',
  '1 3 3 are all too small',
  'impossible',
];

/** Can these numbers still reach 24? `left` is the state after the candidate move. */
export function valuePrompt(p: { instructions?: string; left: string; step: string }): ChatMessage[] {
  return [
    system(p.instructions, 'You judge Game of 24 states strictly and briefly.'),
    user([
      MARKERS.value,
      `Candidate step: ${promptLine(p.step)}`,
      'Evaluate if given numbers can reach 24 (sure/likely/impossible). Give a line or two of reasoning, then the verdict word alone on the last line.',
      '',
      ...VALUE_EXAMPLES,
      `Input: ${promptLine(p.left)}`,
    ]),
  ];
}

const JUDGE_EXAMPLES = [
  'Input: 4 4 6 8',
  'Answer: (4 + 8) * (6 - 4) = 24',
  'Judge: sure',
  'Input: 2 9 10 12',
  'Answer: 2 * 12 * (10 - 9) = 24',
  'Judge: sure',
  'Input: 4 4 6 8',
  'Answer: (4 + 8) * (6 - 4) + 1 = 25',
  'Judge: impossible',
  'Input: 2 9 10 12',
  'Answer: 2 * (12 - 10) = 24',
  'Judge: impossible',
];

/** Is this final answer right? (the paper's value_last_step prompt) */
export function judgePrompt(p: { instructions?: string; puzzle: string; answer: string }): ChatMessage[] {
  return [
    system(p.instructions, 'You judge Game of 24 answers strictly and briefly.'),
    user([
      MARKERS.judge,
      `${RULES} Given an input and an answer, give a judgement (sure/impossible) if the answer is correct, i.e. it uses each input exactly once and no other numbers, and reaches 24.`,
      '',
      ...JUDGE_EXAMPLES,
      `Input: ${p.puzzle}`,
      `Answer: ${promptLine(answerBody(p.answer))}`,
      'Judge:',
    ]),
  ];
}

/** Never needed for move lines (the engine takes a response as is); here so the task is complete. */
export function executionPrompt(p: {
  instructions?: string;
  puzzle: string;
  moves: readonly string[];
  step: string;
}): ChatMessage[] {
  return [
    system(p.instructions, 'You play the Game of 24 one step at a time.'),
    user([
      MARKERS.execute,
      RULES,
      `Puzzle: ${p.puzzle}`,
      `Steps so far:\n${stepsText(p.moves)}`,
      `Step to carry out now: ${promptLine(p.step)}`,
      'Check the step and write it again on one line after "FINAL ANSWER: ".',
    ]),
  ];
}

export function synthesisPrompt(p: { instructions?: string; puzzle: string; lines: readonly string[] }): ChatMessage[] {
  return [
    system(p.instructions, 'You write the final answer of a Game of 24 search.'),
    user([
      MARKERS.synthesis,
      RULES,
      `Input: ${p.puzzle}`,
      'Steps:',
      ...(p.lines.length ? p.lines.map(promptLine) : ['(none)']),
      'Write the final answer as one line "Answer: <expression using each input number exactly once> = 24", or say that no solution was found from these steps.',
    ]),
  ];
}

/**
 * Move and answer lines out of a model's text, tolerating numbering, bullets, prose and blank lines.
 * A move keeps its text up to the end of its "(left: ...)" list. Null when no line parses.
 */
export function parseProposals(text: string, count: number): ThoughtBranch[] | null {
  const seen = new Set<string>();
  const branches: ThoughtBranch[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = stripListMarker(raw);
    let thought: string | null = null;
    if (isAnswerLine(line)) {
      const body = answerBody(line).trim();
      thought = body ? `Answer: ${body}` : null;
    } else if (parseMove(line).ok) {
      thought = line.slice(0, line.indexOf(')', line.search(/\(\s*left\s*:/i)) + 1).trim();
    }
    if (!thought || seen.has(thought)) continue;
    seen.add(thought);
    branches.push({ thought, proposedAction: { type: 'response', content: thought } });
  }
  return branches.length ? branches.slice(0, Math.max(1, count)) : null;
}

export type Verdict = 'sure' | 'likely' | 'impossible';

/** The last verdict word in the text, with the line it sits on (and the reasoning line before it). */
export function parseVerdict(text: string): { verdict: Verdict; quote: string } | null {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    const words = [...(lines[i] ?? '').matchAll(/\b(sure|likely|impossible)\b/gi)];
    const last = words.at(-1);
    if (!last) continue;
    const verdict = (last[1] ?? '').toLowerCase() as Verdict;
    const before = lines.slice(0, i).filter(Boolean).at(-1);
    const line = lines[i] ?? '';
    const quote = line.length < 20 && before ? `${before} → ${line}` : line;
    return { verdict, quote: quote.length > 160 ? `${quote.slice(0, 159)}…` : quote };
  }
  return null;
}

/**
 * Verdicts as score parts. An intermediate "sure" gives 0.75, on purpose below the engine's default
 * terminationConfidence (0.8): a state that can still reach 24 is promising, not done, so the search goes on to
 * the answer; only a "sure" answer (1.0) stops it. Progress is the depth out of the game's 4 steps
 * (3 moves and the answer).
 */
const CONFIDENCE: Record<'move' | 'answer', Record<Verdict, number>> = {
  move: { sure: 0.75, likely: 0.45, impossible: 0.05 },
  answer: { sure: 1, likely: 0.45, impossible: 0.05 },
};

export const GAME_STEPS = 4;

export function verdictScore(text: string, kind: 'move' | 'answer', depth: number): ScoreParts | null {
  const found = parseVerdict(text);
  if (!found) return null;
  return {
    confidence: CONFIDENCE[kind][found.verdict],
    progress: Math.min(1, Math.max(0, depth / GAME_STEPS)),
    reasoning: found.quote,
  };
}
