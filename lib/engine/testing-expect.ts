/**
 * A check the deadline tests share (vitest's expect, so test files only): every call that answered is counted in the
 * log, the result and its tokens, as the model's own log (TimedModel) says. Kept apart from testing.ts, which bench
 * scripts import outside vitest. Not responsible for running anything.
 */
import { expect } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import type { TimedModel } from './testing';
import { fold } from './tree';
import type { ToTResult } from './types';

/**
 * What every run must show (issue 10, item 2): the log, the result and the model's own log (the outside truth) tell
 * the same calls and tokens, cut short or not.
 */
export function expectEveryAnsweredCallCounted({
  model,
  events,
  result,
}: {
  model: TimedModel;
  events: readonly ExplorationEvent[];
  result: ToTResult;
}): void {
  const answered = model.answered();
  expect(fold(events).stats).toEqual(result.stats);
  expect(result.stats.modelCalls).toBe(answered.calls);
  expect(result.stats.tokenUsage).toEqual({
    inputTokens: answered.inputTokens,
    outputTokens: answered.outputTokens,
    totalTokens: answered.inputTokens + answered.outputTokens,
  });
  expect(result.usage.inputTokens).toBe(answered.inputTokens);
  expect(events.filter((e) => e.type === 'model.called')).toHaveLength(answered.calls);
}
