import { describe, expect, it } from 'vitest';
import { CARD_MIN_ZOOM, CARD_SMALLEST_FONT, PILL_FONT, PILL_MIN_ZOOM, READABLE_PX, levelOf } from './lod';

describe('levelOf', () => {
  it('shows cards only where their smallest text is readable, pills where theirs is, shapes below', () => {
    expect(levelOf(1)).toBe('card');
    expect(CARD_SMALLEST_FONT * CARD_MIN_ZOOM).toBeGreaterThanOrEqual(READABLE_PX - 1e-9);
    expect(levelOf(CARD_MIN_ZOOM * 0.99)).toBe('pill');
    expect(PILL_FONT * PILL_MIN_ZOOM).toBeGreaterThanOrEqual(READABLE_PX - 1e-9);
    expect(levelOf(PILL_MIN_ZOOM)).toBe('pill');
    expect(levelOf(PILL_MIN_ZOOM * 0.99)).toBe('shape');
    expect(levelOf(0.05)).toBe('shape');
  });
});
