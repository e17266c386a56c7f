/**
 * The time limit has one meaning everywhere (issue 10, item 3): 0 and null (an empty field) both mean "no limit",
 * in the engine's config, the zod schema the API and the form use, and explore()'s own option; the config keeps
 * "no limit" as null, so every reader sees one value for it. A negative or fractional limit is refused everywhere.
 */
import { describe, expect, it } from 'vitest';
import { toTConfigFields, toTConfigSchema } from '../contract/vocabulary';
import { InvalidConfigError, resolveConfig } from './config';
import { ThoughtTreeExecutor } from './executor';
import { ScriptedTreeModel, TimedModel, type TreeSpec } from '../models/index';

const TREE: TreeSpec = { children: { '': ['A', 'B'] }, scores: { A: 0.7, B: 0.6 } };

describe('a time limit of 0', () => {
  it('is accepted by the config and the schemas, and kept as null (no limit)', () => {
    expect(resolveConfig({ timeout: 0 }).timeout).toBeNull();
    expect(new ThoughtTreeExecutor({ timeout: 0 }).config.timeout).toBeNull();
    const whole = toTConfigSchema.safeParse({ ...resolveConfig(), timeout: 0 });
    expect(whole.success && whole.data.timeout).toBeNull();
    expect(toTConfigFields.partial().safeParse({ timeout: 0 }).success).toBe(true); // the API's input
  });

  it('means no limit in explore(), over a config limit too', async () => {
    // every call takes 30 ms: a 20 ms limit would cut the run at its first call
    const run = (config: { timeout: number | null }, timeout?: number | null) =>
      new ThoughtTreeExecutor({ maxDepth: 1, ...config }).explore(
        { name: 't', model: new TimedModel(new ScriptedTreeModel(TREE), { latencyMs: 30 }) },
        'goal',
        timeout === undefined ? {} : { timeout },
      );
    expect((await run({ timeout: 20 })).finishReason).toBe('timeout');
    expect((await run({ timeout: 20 }, 0)).finishReason).toBe('frontier-empty');
    expect((await run({ timeout: 0 })).finishReason).toBe('frontier-empty');
  });

  it('is told apart from a bad limit, which is refused everywhere', async () => {
    for (const bad of [-5, 1.5]) {
      expect(() => resolveConfig({ timeout: bad })).toThrow(InvalidConfigError);
      expect(toTConfigFields.partial().safeParse({ timeout: bad }).success).toBe(false);
      const model = new ScriptedTreeModel(TREE);
      await expect(new ThoughtTreeExecutor().explore({ name: 't', model }, 'goal', { timeout: bad })).rejects.toThrow(
        InvalidConfigError,
      );
      expect(model.calls).toHaveLength(0);
    }
  });
});
