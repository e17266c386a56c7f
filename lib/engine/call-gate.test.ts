/**
 * CallGate: never more calls in flight than the limit, admitted in the order they asked, an abort while waiting
 * leaves the queue at once; a pause or a hold keeps a step's calls from starting while the step under way goes on,
 * and a cancelled step's waiting calls are refused. The executor's use of it is proven in concurrency.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CallGate, StepCancelled } from './call-gate';

const settle = () => new Promise((r) => setImmediate(r));

describe('CallGate, one slot at a time (a model server\'s limiter)', () => {
  it('hands out at most `limit` slots, the rest in the order they asked as slots come back', async () => {
    const limiter = new CallGate(2);
    const granted: number[] = [];
    const releases = new Map<number, () => void>();
    for (const n of [1, 2, 3, 4]) {
      void limiter.acquire().then((release) => {
        granted.push(n);
        releases.set(n, release);
      });
    }
    await settle();
    expect(granted).toEqual([1, 2]);
    expect([limiter.callsInFlight, limiter.waitingCalls]).toEqual([2, 2]);
    releases.get(2)?.();
    // a second release of the same slot frees nothing more
    releases.get(2)?.();
    await settle();
    expect(granted).toEqual([1, 2, 3]);
    expect([limiter.callsInFlight, limiter.waitingCalls]).toEqual([2, 1]);
    releases.get(1)?.();
    await settle();
    expect(granted).toEqual([1, 2, 3, 4]);
  });

  it('an abort while waiting rejects at once with its reason and gives up the place in the queue', async () => {
    const limiter = new CallGate(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    const reason = new Error('aborted by a person');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(limiter.waitingCalls).toBe(1);
    held();
    // the slot goes to the next in line, not to the call that left
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(limiter.callsInFlight).toBe(1);
    // an already aborted signal never queues
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(limiter.waitingCalls).toBe(0);
  });

  it('a raised limit admits waiting calls at once; a limit below 1 is refused', async () => {
    const limiter = new CallGate(1);
    await limiter.acquire();
    let admitted = false;
    void limiter.acquire().then(() => {
      admitted = true;
    });
    await settle();
    expect(admitted).toBe(false);
    limiter.setLimit(2);
    await settle();
    expect(admitted).toBe(true);
    expect(() => new CallGate(0)).toThrow(RangeError);
    expect(() => limiter.setLimit(1.5)).toThrow(RangeError);
  });
});

describe('CallGate, steps', () => {
  it('a pause or a hold keeps calls waiting, except those of the step under way; a cancel refuses them', async () => {
    const gate = new CallGate(4);
    const later = gate.ticket();
    const current = gate.ticket();
    gate.setPaused(true);
    const started: string[] = [];
    const waiting = later.admit().then((release) => {
      started.push('later');
      return release;
    });
    current.start();
    const releaseCurrent = await current.admit();
    expect(gate.callsInFlight).toBe(1);
    await settle();
    expect(started).toEqual([]);
    later.hold();
    gate.setPaused(false);
    await settle();
    expect(started).toEqual([]);
    later.hold(false);
    (await waiting)();
    expect(started).toEqual(['later']);
    const held = gate.ticket();
    held.hold();
    const refused = held.admit();
    held.cancel();
    await expect(refused).rejects.toBeInstanceOf(StepCancelled);
    await expect(held.admit()).rejects.toBeInstanceOf(StepCancelled);
    releaseCurrent();
    expect(gate.callsInFlight).toBe(0);
  });
});
