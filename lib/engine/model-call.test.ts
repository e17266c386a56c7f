/**
 * callModel: a failed call is recorded with its error and priced on the tokens its error says it used (none when
 * it says nothing), so failures that spent tokens still show in the cost.
 */
import { describe, expect, it } from 'vitest';
import { callModel } from './model-call';
import { priceCall } from './pricing';
import type { LanguageModel } from './types';

const failing = (error: unknown): LanguageModel => ({
  id: 'gpt-4o-mini',
  complete: async () => {
    throw error;
  },
});

const call = (model: LanguageModel) =>
  callModel(model, { purpose: 'generate', messages: [{ role: 'user', content: 'q' }] });

describe('callModel on a failure', () => {
  it('counts and prices the tokens a failed call used when its error carries them', async () => {
    const error = Object.assign(new Error('returned no text (finish_reason: length)'), {
      usage: { inputTokens: 1200, outputTokens: 4000 },
    });
    const { text, record } = await call(failing(error));
    expect(text).toBeNull();
    expect(record.error).toBe('returned no text (finish_reason: length)');
    expect(record.response).toBeNull();
    expect(record.usage).toEqual({ inputTokens: 1200, outputTokens: 4000 });
    expect(record.cost).toBe(priceCall('gpt-4o-mini', record.usage));
    expect(record.cost).toBeGreaterThan(0);
  });

  it('counts nothing when the error says nothing (or nonsense)', async () => {
    for (const error of [
      new Error('down'),
      'a string',
      null,
      Object.assign(new Error('x'), { usage: { inputTokens: -3, outputTokens: 'many' } }),
    ]) {
      const { record } = await call(failing(error));
      expect(record.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
      expect(record.cost).toBe(0);
    }
  });
});
