/**
 * Breakpoints: the conditions under which a search stops by itself, as data. A run's list is set by a
 * breakpoints.set event (before the search starts, or live through the `breakpoints` steering command) and each
 * condition is judged against one event at a time: the engine judges the event it is about to commit and pauses at
 * the end of that step (run.paused naming the hit), the page judges a recorded log's events to find its hits.
 * Here: the schemas, the words a person reads for each condition, and a pattern's safety check. The MCTS kinds
 * (issue 31: an iteration, a node's Q, a node's visits) never hit on a run of another strategy, which writes no MCTS
 * events.
 * Browser-safe; imports zod and safe-regex2 only. Not responsible for judging events (lib/engine/breakpoints.ts),
 * for pausing (lib/engine/executor.ts) nor for the panel (components/run/breakpoints).
 */
import safeRegex from 'safe-regex2';
import { z } from 'zod';

/** Which text of the tree a text condition reads: a candidate's thought, a node's result, a model's raw response. */
export const textFieldSchema = z.enum(['thought', 'result', 'response']);
export type TextField = z.infer<typeof textFieldSchema>;

/**
 * Why a text pattern cannot be a breakpoint, or null. A regular expression is run on the server against every model
 * response; one with nested repetition (`(a+)+`) can take exponential time on a crafted text and stall every run, so
 * safe-regex2's star-height check refuses it up front.
 */
export function patternProblem(pattern: string, regex: boolean): string | null {
  if (!regex) return null;
  try {
    new RegExp(pattern);
  } catch (error) {
    return `not a regular expression: ${error instanceof Error ? error.message : String(error)}`;
  }
  return safeRegex(pattern) ? null : 'this regular expression could take exponential time (nested repetition)';
}

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const breakpointConditionSchema = z.discriminatedUnion('kind', [
  /** A node's verification fails (node.verified, passed false). */
  z.strictObject({ kind: z.literal('verification-failed') }),
  /** The search backtracks from a dead end. */
  z.strictObject({ kind: z.literal('backtrack') }),
  /** A candidate's composite score is below `value` (branch.scored). */
  z.strictObject({ kind: z.literal('score-below'), value: finite }),
  /** A candidate's composite score is above `value` (branch.scored). */
  z.strictObject({ kind: z.literal('score-above'), value: finite }),
  /** A node is created at depth `depth` (the search reaches that depth; deeper nodes are not hits). */
  z.strictObject({ kind: z.literal('depth'), depth: z.number().int().min(1).max(10_000) }),
  /** The run's cost passes `usd` (the model call that takes it over). */
  z.strictObject({ kind: z.literal('cost-above'), usd: z.number().min(0).refine(Number.isFinite) }),
  /** The run's tokens (input and output) pass `tokens`. */
  z.strictObject({ kind: z.literal('tokens-above'), tokens: z.number().int().min(0) }),
  /** A thought, result or model response contains the text, or matches the regular expression. */
  z
    .strictObject({
      kind: z.literal('text-match'),
      field: textFieldSchema,
      pattern: z.string().min(1).max(200),
      regex: z.boolean(),
      caseSensitive: z.boolean(),
    })
    .superRefine((c, ctx) => {
      const problem = patternProblem(c.pattern, c.regex);
      if (problem) ctx.addIssue({ code: 'custom', path: ['pattern'], message: problem });
    }),
  /**
   * "Run to here": this node is about to run (its next step starts). Judged before the step's node.started, so the
   * run stops with the node still queued; used once (the hit disables it), like a debugger's run-to-cursor.
   */
  z.strictObject({ kind: z.literal('node-runs'), nodeId: z.string().min(1).max(200) }),
  /** A model call fails (model.called with an error). */
  z.strictObject({ kind: z.literal('model-call-failed') }),
  /** An MCTS search begins iteration `iteration` (its mcts.selected): the run stops with the iteration's leaf chosen. */
  z.strictObject({ kind: z.literal('mcts-iteration'), iteration: z.number().int().min(1) }),
  /**
   * A node's MCTS Q passes `q`: the mcts.backpropagated that takes a node on its path from at most `q` (or no Q yet)
   * to above it, as the run's mctsBackup (mean or max) folds the value.
   */
  z.strictObject({ kind: z.literal('q-above'), q: finite }),
  /** A node's MCTS visits pass `visits`: the mcts.backpropagated that gives it its (visits + 1)th visit. */
  z.strictObject({ kind: z.literal('visits-above'), visits: z.number().int().min(1) }),
]);
export type BreakpointCondition = z.infer<typeof breakpointConditionSchema>;
export type BreakpointKind = BreakpointCondition['kind'];

export const breakpointSchema = z.strictObject({
  id: z.string().min(1).max(64),
  enabled: z.boolean(),
  condition: breakpointConditionSchema,
});
export type Breakpoint = z.infer<typeof breakpointSchema>;

/** The most breakpoints a run holds: each is judged against every event the search writes. */
export const MAX_BREAKPOINTS = 50;

/** A run's whole list: ids unique, at most MAX_BREAKPOINTS. */
export const breakpointListSchema = z
  .array(breakpointSchema)
  .max(MAX_BREAKPOINTS, `at most ${MAX_BREAKPOINTS} breakpoints`)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((b, i) => {
      if (seen.has(b.id))
        ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `breakpoint id "${b.id}" is used twice` });
      seen.add(b.id);
    });
  });

/**
 * Where a breakpoint hit: the breakpoint (its condition as it was, so the log says why even once the breakpoint is
 * changed or gone), the event that satisfied it (seq null: a node-runs stop, before the node's node.started is
 * written), the node it concerns and one sentence saying why.
 */
export const breakpointHitSchema = z.strictObject({
  breakpointId: z.string().min(1).max(64),
  condition: breakpointConditionSchema,
  seq: z.number().int().min(1).nullable(),
  eventType: z.string().min(1).max(100),
  nodeId: z.string().min(1).max(200).nullable(),
  detail: z.string().max(1000),
});
export type BreakpointHit = z.infer<typeof breakpointHitSchema>;

/** The kinds in the order the panel offers them, with the words for each. */
export const BREAKPOINT_KINDS: readonly { kind: BreakpointKind; label: string }[] = [
  { kind: 'verification-failed', label: 'Verification fails' },
  { kind: 'backtrack', label: 'Backtrack' },
  { kind: 'score-below', label: 'Score below' },
  { kind: 'score-above', label: 'Score above' },
  { kind: 'depth', label: 'Node at depth' },
  { kind: 'cost-above', label: 'Cost passes' },
  { kind: 'tokens-above', label: 'Tokens pass' },
  { kind: 'text-match', label: 'Text matches' },
  { kind: 'node-runs', label: 'Node about to run' },
  { kind: 'model-call-failed', label: 'Model call fails' },
  { kind: 'mcts-iteration', label: 'Iteration (MCTS)' },
  { kind: 'q-above', label: 'Q passes (MCTS)' },
  { kind: 'visits-above', label: 'Visits pass (MCTS)' },
];

const FIELD_WORDS: Record<TextField, string> = {
  thought: 'a thought',
  result: 'a result',
  response: 'a model response',
};

/** One line for a condition, as the panel lists it and a hit explains itself ("score below 0.3"). */
export function describeCondition(c: BreakpointCondition): string {
  switch (c.kind) {
    case 'verification-failed':
      return 'a node fails verification';
    case 'backtrack':
      return 'the search backtracks';
    case 'score-below':
      return `a candidate scores below ${c.value}`;
    case 'score-above':
      return `a candidate scores above ${c.value}`;
    case 'depth':
      return `a node reaches depth ${c.depth}`;
    case 'cost-above':
      return `the run's cost passes $${c.usd}`;
    case 'tokens-above':
      return `the run's tokens pass ${c.tokens.toLocaleString('en-US')}`;
    case 'text-match':
      return `${FIELD_WORDS[c.field]} ${c.regex ? 'matches' : 'contains'} ${c.regex ? `/${c.pattern}/` : JSON.stringify(c.pattern)}${c.caseSensitive ? '' : ' (any case)'}`;
    case 'node-runs':
      return `${c.nodeId} is about to run`;
    case 'model-call-failed':
      return 'a model call fails';
    case 'mcts-iteration':
      return `MCTS iteration ${c.iteration.toLocaleString('en-US')} begins`;
    case 'q-above':
      return `a node's Q passes ${c.q}`;
    case 'visits-above':
      return `a node's visits pass ${c.visits.toLocaleString('en-US')}`;
  }
}
