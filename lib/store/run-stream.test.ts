import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { historyLineOf } from '../contract/run';
import { connectionState, isRefusal, NdjsonEvents, retryDelayMs } from './run-stream';

describe('isRefusal', () => {
  it('stops on a bad range, nobody, a refusal or a missing run; asks again after a server error or a restart', () => {
    for (const status of [400, 401, 403, 404]) expect(isRefusal(status)).toBe(true);
    for (const status of [500, 502, 503, 504, 429]) expect(isRefusal(status)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  it('waits half a second first, doubling up to ten seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelayMs)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});

describe('NdjsonEvents', () => {
  const event = (seq: number, text = `thought ${seq}`) =>
    ({ runId: 'r', seq, ts: seq, type: 'node.created', payload: { text } }) as unknown as ExplorationEvent;

  it('gives the events of the lines each piece completes, however the text is cut, and holds the unfinished one', () => {
    const events = [event(1), event(2, 'a line\nwith "quotes" and é'), event(3), event(4)];
    // the server writes each line without its runId (a HistoryLine); the reader gives it back
    const text = events.map((e) => `${JSON.stringify(historyLineOf(e))}\n`).join('');
    expect(text).not.toContain('runId');
    for (const size of [1, 7, 64, text.length]) {
      const reader = new NdjsonEvents('r');
      const read: ExplorationEvent[] = [];
      for (let at = 0; at < text.length; at += size) read.push(...reader.push(text.slice(at, at + size)));
      expect(read).toEqual(events);
    }
    const broken = new NdjsonEvents('r');
    expect(broken.push(text.slice(0, text.length - 5))).toEqual(events.slice(0, 3)); // the fourth never ended
    expect(broken.push('')).toEqual([]);
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
