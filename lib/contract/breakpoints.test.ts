/**
 * The breakpoint schemas refuse what must never reach the judge (issue 17): a pattern that is no regular expression
 * or one that could take exponential time, ids used twice, too many breakpoints, a kind nobody knows, an MCTS
 * iteration or visits of 0 and a Q that is not finite; and each condition reads as one line. The judge itself: lib/engine/breakpoints.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  BREAKPOINT_KINDS,
  MAX_BREAKPOINTS,
  breakpointListSchema,
  breakpointSchema,
  describeCondition,
  patternProblem,
  type Breakpoint,
  type BreakpointCondition,
} from './breakpoints';

const text = (pattern: string, regex: boolean): BreakpointCondition => ({
  kind: 'text-match',
  field: 'response',
  pattern,
  regex,
  caseSensitive: false,
});
const bp = (id: string, condition: BreakpointCondition = { kind: 'backtrack' }): Breakpoint => ({
  id,
  enabled: true,
  condition,
});
/** The messages of a failed parse, with where each is. */
function problems(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } },
  value: unknown,
) {
  const parsed = schema.safeParse(value);
  expect(parsed.success).toBe(false);
  return (parsed.error?.issues ?? []) as { path: (string | number)[]; message: string }[];
}

describe('breakpoint schemas', () => {
  it('accepts every kind the panel offers, and a safe regex', () => {
    const conditions: BreakpointCondition[] = [
      { kind: 'verification-failed' },
      { kind: 'backtrack' },
      { kind: 'score-below', value: 0.3 },
      { kind: 'score-above', value: 0.9 },
      { kind: 'depth', depth: 3 },
      { kind: 'cost-above', usd: 0.5 },
      { kind: 'tokens-above', tokens: 10_000 },
      text('FINAL ANSWER:\\s*\\d+', true),
      { kind: 'node-runs', nodeId: 'n7' },
      { kind: 'model-call-failed' },
      { kind: 'mcts-iteration', iteration: 3 },
      { kind: 'q-above', q: 0.7 },
      { kind: 'visits-above', visits: 5 },
    ];
    expect(conditions.map((c) => c.kind)).toEqual(BREAKPOINT_KINDS.map((k) => k.kind));
    const list = conditions.map((c, i) => bp(`b${i}`, c));
    expect(breakpointListSchema.parse(list)).toEqual(list);
  });

  it('refuses a pattern that is not a regular expression, saying so on the pattern', () => {
    const [issue, ...rest] = problems(breakpointSchema, bp('b', text('(unclosed', true)));
    expect(rest).toEqual([]);
    expect(issue?.path).toEqual(['condition', 'pattern']);
    expect(issue?.message).toMatch(/^not a regular expression: .*unterminated group/i);
    // the same text as plain text is fine: it is searched for as it is
    expect(breakpointSchema.safeParse(bp('b', text('(unclosed', false))).success).toBe(true);
  });

  it('refuses a catastrophic regular expression with a clear message', () => {
    const [issue] = problems(breakpointSchema, bp('b', text('(a+)+$', true)));
    expect(issue).toMatchObject({
      path: ['condition', 'pattern'],
      message: 'this regular expression could take exponential time (nested repetition)',
    });
    expect(patternProblem('(a+)+$', true)).toBe(issue?.message);
    expect(patternProblem('(a+)+$', false)).toBeNull();
    expect(patternProblem('a+b*', true)).toBeNull();
  });

  it('refuses an id used twice, naming it', () => {
    const [issue] = problems(breakpointListSchema, [bp('x'), bp('y'), bp('x')]);
    expect(issue).toMatchObject({ path: [2, 'id'], message: 'breakpoint id "x" is used twice' });
  });

  it(`refuses more than ${MAX_BREAKPOINTS} breakpoints`, () => {
    const many = Array.from({ length: MAX_BREAKPOINTS + 1 }, (_, i) => bp(`b${i}`));
    expect(breakpointListSchema.safeParse(many.slice(0, MAX_BREAKPOINTS)).success).toBe(true);
    expect(problems(breakpointListSchema, many)[0]?.message).toBe(`at most ${MAX_BREAKPOINTS} breakpoints`);
  });

  it('refuses an unknown kind, a key the kind does not have, and a depth of 0', () => {
    expect(problems(breakpointSchema, { id: 'b', enabled: true, condition: { kind: 'node-fails' } })[0]?.path).toEqual([
      'condition',
      'kind',
    ]);
    expect(
      breakpointSchema.safeParse({ id: 'b', enabled: true, condition: { kind: 'backtrack', value: 1 } }).success,
    ).toBe(false);
    expect(breakpointSchema.safeParse(bp('b', { kind: 'depth', depth: 0 })).success).toBe(false);
    expect(breakpointSchema.safeParse(bp('b', { kind: 'score-below', value: Number.NaN })).success).toBe(false);
  });

  it('refuses the MCTS kinds past their bounds: iteration 0, a Q that is not finite, visits 0, fractions', () => {
    const refused = (condition: unknown) => problems(breakpointSchema, { id: 'b', enabled: true, condition })[0]?.path;
    expect(refused({ kind: 'mcts-iteration', iteration: 0 })).toEqual(['condition', 'iteration']);
    expect(refused({ kind: 'mcts-iteration', iteration: 2.5 })).toEqual(['condition', 'iteration']);
    expect(refused({ kind: 'q-above', q: Number.POSITIVE_INFINITY })).toEqual(['condition', 'q']);
    expect(refused({ kind: 'q-above', q: Number.NaN })).toEqual(['condition', 'q']);
    expect(refused({ kind: 'visits-above', visits: 0 })).toEqual(['condition', 'visits']);
    expect(refused({ kind: 'visits-above', visits: 1.5 })).toEqual(['condition', 'visits']);
    // each kind has its own field: a Q is not a score's `value`
    expect(refused({ kind: 'q-above', value: 0.5 })).toBeDefined();
    // a Q may be any finite figure (a threshold below 0 hits on a node's first value)
    expect(breakpointSchema.safeParse(bp('b', { kind: 'q-above', q: -1 })).success).toBe(true);
  });
});

describe('describeCondition', () => {
  it('says each condition in one line', () => {
    expect(describeCondition({ kind: 'verification-failed' })).toBe('a node fails verification');
    expect(describeCondition({ kind: 'score-below', value: 0.3 })).toBe('a candidate scores below 0.3');
    expect(describeCondition({ kind: 'cost-above', usd: 0.05 })).toBe("the run's cost passes $0.05");
    expect(describeCondition({ kind: 'tokens-above', tokens: 20000 })).toBe("the run's tokens pass 20,000");
    expect(describeCondition({ kind: 'depth', depth: 2 })).toBe('a node reaches depth 2');
    expect(describeCondition(text('24', false))).toBe('a model response contains "24" (any case)');
    expect(
      describeCondition({ kind: 'text-match', field: 'thought', pattern: '^\\d', regex: true, caseSensitive: true }),
    ).toBe('a thought matches /^\\d/');
    expect(describeCondition({ kind: 'node-runs', nodeId: 'n4' })).toBe('n4 is about to run');
    expect(describeCondition({ kind: 'mcts-iteration', iteration: 3 })).toBe('MCTS iteration 3 begins');
    expect(describeCondition({ kind: 'q-above', q: 0.7 })).toBe("a node's Q passes 0.7");
    expect(describeCondition({ kind: 'visits-above', visits: 1200 })).toBe("a node's visits pass 1,200");
  });
});
