// The relay of a run's calls in flight to its followers: the first change at once, then at most one figure per
// interval, always ending on the engine's last count, nothing repeated, and nothing once the run has stopped.
import { describe, expect, it } from 'vitest';
import { CallsInFlightRelay } from './calls-in-flight';

/** A relay on a hand-driven clock: `advance` runs the timers that are due. */
function relayOnClock(intervalMs = 150) {
  let now = 1_000;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let ids = 0;
  const sent: number[] = [];
  const relay = new CallsInFlightRelay({
    send: (count) => sent.push(count),
    intervalMs,
    now: () => now,
    setTimer: (callback, ms) => {
      const id = ++ids;
      timers.push({ at: now + ms, callback, id });
      return id;
    },
    clearTimer: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  });
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((t) => t.at <= now);
    timers = timers.filter((t) => t.at > now);
    for (const t of due) t.callback();
  };
  return { relay, sent, advance, pending: () => timers.length };
}

describe('CallsInFlightRelay', () => {
  it('sends the first change at once, then the newest at most once per interval, ending on the last count', () => {
    const { relay, sent, advance } = relayOnClock();
    relay.report(1);
    expect(sent).toEqual([1]);
    for (const count of [2, 3, 4, 5]) {
      advance(10);
      relay.report(count);
    }
    expect(sent).toEqual([1]); // within the interval: held
    advance(110); // 150 ms after the first send
    expect(sent).toEqual([1, 5]); // the newest, not each
    advance(10);
    relay.report(0);
    advance(149);
    expect(sent).toEqual([1, 5, 0]);
    advance(1_000);
    relay.report(2); // after a quiet spell: at once
    expect(sent).toEqual([1, 5, 0, 2]);
  });

  it('sends nothing when the count came back to the figure already sent', () => {
    const { relay, sent, advance } = relayOnClock();
    relay.report(3);
    advance(20);
    relay.report(0);
    advance(20);
    relay.report(3);
    advance(200);
    expect(sent).toEqual([3]);
  });

  it('sends nothing after the run stopped, a figure that was due included', () => {
    const { relay, sent, advance, pending } = relayOnClock();
    relay.report(4);
    advance(10);
    relay.report(7);
    relay.stop();
    expect(pending()).toBe(0);
    advance(500);
    relay.report(1);
    advance(500);
    expect(sent).toEqual([4]);
  });
});
