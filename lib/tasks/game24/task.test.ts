import { describe, expect, it } from 'vitest';
import type { EvaluationContext, GenerationContext, ThoughtNode } from '../../engine/index';
import { makePath } from '../testing/trees';
import { MARKERS } from './prompts';
import { game24Task as task } from './task';

const GOAL = '4 9 10 13';
const SCRATCHPAD =
  '<thinking_scratchpad>\n  <pruned_branch id="n7" depth="1">4 * 9 = 36 (dead end)</pruned_branch>\n</thinking_scratchpad>';

function genCtx(lines: string[], count = 3): GenerationContext {
  const path = makePath(lines);
  return { goal: GOAL, node: path.at(-1) as ThoughtNode, path, count, exploredThoughts: [], scratchpad: SCRATCHPAD };
}

function evalCtx(lines: string[], candidate: string): EvaluationContext {
  const branch = { thought: candidate, proposedAction: { type: 'response' as const, content: candidate } };
  return { goal: GOAL, path: makePath(lines), branch, siblings: [branch] };
}

const userText = (messages: { role: string; content: string }[]) =>
  messages.find((m) => m.role === 'user')?.content ?? '';

describe('game24 generation', () => {
  it('asks for up to count moves from the current numbers, with the scratchpad', () => {
    const text = userText(task.buildGenerationPrompt(genCtx(['13 - 9 = 4 (left: 4 4 10)'], 5)));
    expect(text.split('\n')[0]).toBe(MARKERS.propose);
    expect(text).toContain('Propose up to 5 possible next steps');
    expect(text.trimEnd().endsWith('Input: 4 4 10\nPossible next steps:')).toBe(true);
    expect(text).toContain('13 - 9 = 4 (left: 4 4 10)');
    expect(text).toContain(SCRATCHPAD);
  });

  it('lists the moves already tried from these numbers (explored anywhere, or dropped here)', () => {
    const ctx = genCtx(['13 - 9 = 4 (left: 4 4 10)']);
    ctx.exploredThoughts = ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 4 = 16 (left: 10 16)'];
    const dropped = { thought: '4 + 4 = 8 (left: 8 10)', proposedAction: { type: 'response' as const, content: '' } };
    ctx.node.dropped = [
      {
        branch: dropped,
        score: { confidence: 0.05, progress: 0.5, novelty: 0.5, composite: 0.2, reasoning: '', fallback: false },
        reason: 'low',
        seq: 9,
      },
    ];
    const text = userText(task.buildGenerationPrompt(ctx));
    expect(text).toContain(
      'Already tried from these numbers (propose different steps):\n- 10 - 4 = 6 (left: 4 6)\n- 4 * 4 = 16 (left: 10 16)\n- 4 + 4 = 8 (left: 8 10)\n',
    );
    // The first move is not a move from "4 4 10": it is not listed.
    expect(text).not.toContain('- 13 - 9');
    expect(userText(task.buildGenerationPrompt(genCtx([])))).not.toContain('Already tried');
  });

  it('asks for the answer line when 24 is the only number left', () => {
    const moves = ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'];
    const text = userText(task.buildGenerationPrompt(genCtx(moves)));
    expect(text.split('\n')[0]).toBe(MARKERS.answer);
    expect(text).toContain(`Input: ${GOAL}\nSteps:\n${moves.join('\n')}\nAnswer:`);
  });

  it('passes the instructions as the system message', () => {
    const messages = task.buildGenerationPrompt({ ...genCtx([]), instructions: 'Be terse.' });
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(messages[0]?.content).toContain('Be terse.');
  });

  it('parses move lines out of prose, numbering and blank lines', () => {
    const text = [
      'Sure! Here are some possible next steps:',
      '',
      '1. 4 + 9 = 13 (left: 10 13 13)',
      '2) 13 - 10 = 3 (left: 3 4 9) since 3 is handy',
      '- 10 - 4 = 6 (left: 6 9 13)',
      '* 9 * 10 = 90 (left: 4 13 90)',
      'These should help.',
    ].join('\n');
    const branches = task.parseBranches(text, genCtx([], 10));
    expect(branches?.map((b) => b.thought)).toEqual([
      '4 + 9 = 13 (left: 10 13 13)',
      '13 - 10 = 3 (left: 3 4 9)',
      '10 - 4 = 6 (left: 6 9 13)',
      '9 * 10 = 90 (left: 4 13 90)',
    ]);
    expect(branches?.[0]?.proposedAction).toEqual({ type: 'response', content: '4 + 9 = 13 (left: 10 13 13)' });
    expect(task.parseBranches(text, genCtx([], 2))).toHaveLength(2);
  });

  it('parses an answer line, and gives null (and no fallback) when nothing parses', () => {
    expect(task.parseBranches('Answer: (10 - 4) * (13 - 9) = 24', genCtx([]))?.[0]?.thought).toBe(
      'Answer: (10 - 4) * (13 - 9) = 24',
    );
    expect(task.parseBranches('I would start with the big numbers.', genCtx([]))).toBeNull();
    expect(task.parseBranches('', genCtx([]))).toBeNull();
    expect(task.fallbackBranches(genCtx([]))).toEqual([]);
  });
});

describe('game24 evaluation', () => {
  it('asks the value of the state after the candidate move', () => {
    const text = userText(task.buildEvaluationPrompt(evalCtx(['13 - 9 = 4 (left: 4 4 10)'], '10 - 4 = 6 (left: 4 6)')));
    expect(text.split('\n')[0]).toBe(MARKERS.value);
    expect(text).toContain('Evaluate if given numbers can reach 24 (sure/likely/impossible)');
    expect(text.trimEnd().endsWith('Input: 4 6')).toBe(true);
  });

  it('asks for a judgement of an answer', () => {
    const text = userText(task.buildEvaluationPrompt(evalCtx([], 'Answer: (10 - 4) * (13 - 9) = 24')));
    expect(text.split('\n')[0]).toBe(MARKERS.judge);
    expect(text.trimEnd().endsWith(`Input: ${GOAL}\nAnswer: (10 - 4) * (13 - 9) = 24\nJudge:`)).toBe(true);
  });

  it('maps the last verdict word to a score, with progress by depth', () => {
    const ctx = evalCtx(['13 - 9 = 4 (left: 4 4 10)'], '10 - 4 = 6 (left: 4 6)');
    expect(task.parseScore('(10 - 4) * 4 = 24\nsure', ctx)).toEqual({
      confidence: 0.75,
      progress: 0.5,
      reasoning: '(10 - 4) * 4 = 24 → sure',
    });
    expect(
      task.parseScore('I cannot obtain 24 now, but numbers are within a reasonable range\nlikely', ctx)?.confidence,
    ).toBe(0.45);
    expect(task.parseScore('not sure at first... impossible', ctx)?.confidence).toBe(0.05);
    expect(task.parseScore('Impossible? No: sure.', ctx)?.confidence).toBe(0.75);
    expect(task.parseScore('{"confidence": 0.9}', ctx)).toBeNull();
    expect(task.parseScore('', ctx)).toBeNull();
  });

  it('scores a sure answer as final, above the termination confidence, and a sure state below it', () => {
    const answer = evalCtx(
      ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'],
      'Answer: (10 - 4) * (13 - 9) = 24',
    );
    expect(task.parseScore('sure', answer)).toMatchObject({ confidence: 1, progress: 1 });
    expect(task.parseScore('impossible', answer)?.confidence).toBe(0.05);
    expect(task.parseScore('sure', evalCtx([], '13 - 9 = 4 (left: 4 4 10)'))?.confidence).toBeLessThan(0.8);
  });
});

describe('game24 execution and synthesis', () => {
  it('never needs a second turn', () => {
    expect(task.isExecutionDone('anything')).toBe(true);
    const path = makePath(['13 - 9 = 4 (left: 4 4 10)']);
    const text = userText(
      task.buildExecutionPrompt({ goal: GOAL, node: path[1] as ThoughtNode, path, scratchpad: '' }),
    );
    expect(text.split('\n')[0]).toBe(MARKERS.execute);
    expect(text).toContain('Step to carry out now: 13 - 9 = 4 (left: 4 4 10)');
  });

  it('gives the path to the synthesis', () => {
    const path = makePath(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)']);
    const text = userText(task.buildSynthesisPrompt({ goal: GOAL, path }));
    expect(text.split('\n')[0]).toBe(MARKERS.synthesis);
    expect(text).toContain('Input: 4 9 10 13\nSteps:\n13 - 9 = 4 (left: 4 4 10)\n10 - 4 = 6 (left: 4 6)');
  });
});

describe('game24 verification and terminal states', () => {
  const verify = (lines: string[]) => {
    const path = makePath(lines);
    return task.verify?.(path.at(-1) as ThoughtNode, path, GOAL);
  };

  it('checks a move against its parent state', () => {
    expect(verify(['13 - 9 = 4 (left: 4 4 10)'])?.passed).toBe(true);
    expect(verify(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)'])?.passed).toBe(true);
    // 13 is no longer available after the first move.
    expect(verify(['13 - 9 = 4 (left: 4 4 10)', '13 - 4 = 9 (left: 4 9 10)'])).toEqual({
      passed: false,
      trace: 'uses 13, which is not among the numbers left (4 4 10)',
    });
    expect(verify(['9 * 13 = 115 (left: 4 10 115)'])?.trace).toBe('9 * 13 = 117, not 115');
  });

  it('fails a dead end and says 24 leads to the answer', () => {
    const dead = verify(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 + 6 = 10 (left: 10)']);
    expect(dead?.passed).toBe(false);
    expect(dead?.trace).toMatch(/^dead end: 10 ≠ 24/);
    const done = verify(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)']);
    expect(done?.passed).toBe(true);
    expect(done?.trace).toMatch(/the answer comes next/);
  });

  it('verifies answers against the puzzle', () => {
    const moves = ['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'];
    expect(verify([...moves, 'Answer: (13 - 9) * (10 - 4) = 24'])?.passed).toBe(true);
    expect(verify([...moves, 'Answer: 4 * (10 - 4) = 24'])?.trace).toMatch(/missing 9, 13/);
  });

  it('replays a path from the puzzle, not from its own "(left: ...)" claims: a node past a failed move never verifies', () => {
    // the paper's GPT-4 log, game 903 ("3 4 4 13"): the third move uses a 2 that is not left, and the fourth
    // takes that move's claimed "8 16" at its word
    const puzzle = '3 4 4 13';
    const lines = ['13 + 3 = 16 (left: 4 4 16)', '4 + 4 = 8 (left: 8 16)', '8 * 2 = 16 (left: 8 16)'];
    const at = (more: string[]) => {
      const path = makePath([...lines, ...more]);
      return task.verify?.(path.at(-1) as ThoughtNode, path, puzzle);
    };
    expect(at([])).toEqual({ passed: false, trace: 'uses 2, which is not among the numbers left (8 16)' });
    const after = at(['8 + 16 = 24 (left: 24)']);
    expect(after?.passed).toBe(false);
    expect(after?.trace).toBe(
      'reached through a failed move: step 3 "8 * 2 = 16 (left: 8 16)" uses 2, which is not among the numbers left (8 16)',
    );
    // however right an answer line is on its own, it cannot verify below a failed move either
    expect(at(['8 + 16 = 24 (left: 24)', 'Answer: (13 + 3) + (4 + 4) = 24'])?.passed).toBe(false);
  });

  it('verifies nothing at the root', () => {
    const path = makePath([]);
    expect(task.verify?.(path[0] as ThoughtNode, path, GOAL)).toBeNull();
  });

  it('ends paths at answers and lone numbers other than 24', () => {
    const terminal = (lines: string[]) => {
      const path = makePath(lines);
      return task.isTerminal?.(path.at(-1) as ThoughtNode, path, GOAL);
    };
    expect(terminal([])).toBe(false);
    expect(terminal(['13 - 9 = 4 (left: 4 4 10)'])).toBe(false);
    expect(terminal(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 * 6 = 24 (left: 24)'])).toBe(false);
    expect(terminal(['13 - 9 = 4 (left: 4 4 10)', '10 - 4 = 6 (left: 4 6)', '4 + 6 = 10 (left: 10)'])).toBe(true);
    expect(terminal(['Answer: (13 - 9) * (10 - 4) = 24'])).toBe(true);
    const path = makePath(['13 - 9 = 4 (left: 4 4 10)', 'Answer: (13 - 9) * (10 - 4) = 24']);
    expect(task.isAnswer?.(path[2] as ThoughtNode, path, GOAL)).toBe(true);
    expect(task.isAnswer?.(path[1] as ThoughtNode, path, GOAL)).toBe(false);
  });

  it('validates the goal', () => {
    expect(task.validateGoal?.('4 9 10 13')).toBeNull();
    expect(task.validateGoal?.('make 24')).toMatch(/four whole numbers from 1 to 13/);
  });
});
