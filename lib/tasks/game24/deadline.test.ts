/**
 * A Game of 24 run cut short (issue 10, item 2, as it was found: a 50 ms model and a 160-190 ms limit): every call
 * that answered counts in the stats, the tokens and the event log, whether the model honours the abort signal or
 * runs each call to the end. The model's own log (TimedModel) is the outside truth.
 */
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { type ExploreOptions, ThoughtTreeExecutor } from '../../engine/server';
import { expectEveryAnsweredCallCounted } from '../../engine/testing';
import { TimedModel, type TimedModelOptions } from '../../models/index';
import { createSimulatedModel } from '../simulated-model';
import { game24Task } from './task';

async function search(timing: TimedModelOptions, timeout: number | null, options: ExploreOptions = {}) {
  const model = new TimedModel(createSimulatedModel({ seed: 3 }), timing);
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor({ timeout }).explore({ name: 't', model }, '4 9 10 13', {
    ...options,
    task: game24Task,
    onEvent: (e) => events.push(e),
  });
  return { model, events, result };
}

describe('a Game of 24 run cut short', () => {
  it.each([
    { timeout: 160, ignoreAbort: false },
    { timeout: 175, ignoreAbort: false },
    { timeout: 190, ignoreAbort: false },
    { timeout: 175, ignoreAbort: true },
  ])('by its time limit counts every answered call ($timeout ms, ignores the abort: $ignoreAbort)', async (c) => {
    const { model, events, result } = await search({ latencyMs: 50, ignoreAbort: c.ignoreAbort }, c.timeout);
    expect(result.finishReason).toBe('timeout');
    // the run's clock starts before its first call: nothing may start once the limit has passed since that call
    expect(model.startedFrom((model.log[0]?.startedAt ?? 0) + c.timeout)).toEqual([]);
    expectEveryAnsweredCallCounted({ model, events, result });
  });

  // The run grows the root (a generation, 3 evaluations), then grows its level (beam: n1 and n2 at once): their
  // generations start together and the abort comes as the second starts, so both are cut by a model that honours
  // the signal; a model deaf to it answers both. Either way nothing else starts.
  it.each([false, true])(
    "by an abort in mid-step counts the step's answered calls (ignores it: %s)",
    async (ignoreAbort) => {
      const controller = new AbortController();
      const onStart = (_: unknown, index: number) => {
        if (index === 5) controller.abort();
      };
      const { model, events, result } = await search({ latencyMs: 5, ignoreAbort, onStart }, null, {
        abortSignal: controller.signal,
      });
      expect(result.finishReason).toBe('aborted');
      expect(model.log).toHaveLength(6); // the level's evaluations never started
      expect(model.answered().calls).toBe(ignoreAbort ? 6 : 4);
      expectEveryAnsweredCallCounted({ model, events, result });
    },
  );
});
