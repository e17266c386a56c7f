import { describe, expect, it } from 'vitest';
import { connectionState, HISTORY_PAGE, nextHistoryPage, retryDelayMs, retryUnlessRefused } from './run-stream';

describe('retryUnlessRefused', () => {
  it('asks again after a dropped connection or a server error, never after a refusal or a missing run', () => {
    expect(retryUnlessRefused(0, new Error('fetch failed'))).toBe(true);
    expect(retryUnlessRefused(9, { data: { code: 'INTERNAL_SERVER_ERROR' } })).toBe(true);
    for (const code of ['NOT_FOUND', 'BAD_REQUEST', 'FORBIDDEN', 'UNAUTHORIZED']) {
      expect(retryUnlessRefused(0, { data: { code } })).toBe(false);
    }
  });
});

describe('retryDelayMs', () => {
  it('waits half a second first, doubling up to ten seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('nextHistoryPage', () => {
  it("asks from where the store's history reaches up to the snapshot, and nothing once it is there", () => {
    expect(nextHistoryPage(0, 25_000)).toEqual({ afterSeq: 0, untilSeq: 25_000, limit: HISTORY_PAGE });
    expect(nextHistoryPage(20_000, 25_000)).toEqual({ afterSeq: 20_000, untilSeq: 25_000, limit: HISTORY_PAGE });
    expect(nextHistoryPage(25_000, 25_000)).toBeNull();
    expect(nextHistoryPage(0, 0)).toBeNull();
  });
});

describe('connectionState', () => {
  it('is connecting until the stream starts, then follows the subscription', () => {
    expect(connectionState(false, 'idle', false, false)).toBe('connecting');
    expect(connectionState(true, 'connecting', false, false)).toBe('connecting');
    expect(connectionState(true, 'pending', false, true)).toBe('live');
    expect(connectionState(true, 'connecting', true, true)).toBe('reconnecting');
    expect(connectionState(true, 'error', true, true)).toBe('error');
    expect(connectionState(true, 'idle', true, true)).toBe('ended');
  });

  it('never calls ended a subscription that has not opened yet (the render that enables it is still idle)', () => {
    expect(connectionState(true, 'idle', false, false)).toBe('connecting');
    expect(connectionState(true, 'idle', false, true)).toBe('ended');
  });
});
