import { describe, expect, it } from 'vitest';
import { findPrice, priceCall } from './pricing';

describe('pricing', () => {
  it('prices a call per million tokens, matching dated model names by prefix', () => {
    expect(priceCall('gpt-4o', { inputTokens: 1_000_000, outputTokens: 1_000_000 })).toBeCloseTo(12.5);
    expect(findPrice('gpt-4o-2024-08-06')).toEqual(findPrice('gpt-4o'));
    expect(findPrice('gpt-4o-mini-2024-07-18')).toEqual(findPrice('gpt-4o-mini'));
  });

  it('says "no price" (null) for an unknown model instead of inventing one', () => {
    expect(priceCall('llama-3-8b', { inputTokens: 10, outputTokens: 10 })).toBeNull();
  });

  it('takes a custom table', () => {
    expect(
      priceCall(
        'mine',
        { inputTokens: 2_000_000, outputTokens: 0 },
        { mine: { inputPerMillion: 1, outputPerMillion: 2 } },
      ),
    ).toBe(2);
  });
});
