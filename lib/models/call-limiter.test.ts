/**
 * CallLimiter and the process-wide limiter of a model server: never more slots out than the limit, first come first
 * served, an abort while waiting leaves the queue at once, and one limiter per server (origin and path).
 */
import { describe, expect, it } from 'vitest';
import { CallLimiter, serverCallLimiter, serverKey } from './call-limiter';

const settle = () => new Promise((r) => setImmediate(r));

describe('CallLimiter', () => {
  it('hands out at most `limit` slots, the rest in the order they asked as slots come back', async () => {
    const limiter = new CallLimiter(2);
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
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 2]);
    releases.get(2)?.();
    // a second release of the same slot frees nothing more
    releases.get(2)?.();
    await settle();
    expect(granted).toEqual([1, 2, 3]);
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 1]);
    releases.get(1)?.();
    await settle();
    expect(granted).toEqual([1, 2, 3, 4]);
  });

  it('an abort while waiting rejects at once with its reason and gives up the place in the queue', async () => {
    const limiter = new CallLimiter(1);
    const held = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    const reason = new Error('aborted by a person');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(limiter.waiting).toBe(1);
    held();
    // the slot goes to the next in line, not to the call that left
    await expect(next).resolves.toEqual(expect.any(Function));
    expect(limiter.inFlight).toBe(1);
    // an already aborted signal never queues
    await expect(limiter.acquire(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(limiter.waiting).toBe(0);
  });

  it('a raised limit admits waiting calls at once; a limit below 1 is refused', async () => {
    const limiter = new CallLimiter(1);
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
    expect(() => new CallLimiter(0)).toThrow(RangeError);
    expect(() => limiter.setLimit(1.5)).toThrow(RangeError);
  });
});

describe('serverCallLimiter', () => {
  it('is one limiter per server: same origin and path, whatever the credentials, query or trailing slash', () => {
    const a = serverCallLimiter('http://127.0.0.1:9/limiter-test/v1', 3);
    expect(serverCallLimiter('http://user:pw@127.0.0.1:9/limiter-test/v1/?x=1', 3)).toBe(a);
    expect(serverCallLimiter('http://127.0.0.1:9/limiter-test/v2', 3)).not.toBe(a);
    expect(serverCallLimiter('http://127.0.0.1:10/limiter-test/v1', 3)).not.toBe(a);
    expect(serverKey('HTTP://Example.COM:443/v1/')).toBe('http://example.com:443/v1');
  });

  it('takes the latest limit asked for (the setting is read as each run starts)', () => {
    const limiter = serverCallLimiter('http://127.0.0.1:9/limiter-test/resized', 3);
    expect(serverCallLimiter('http://127.0.0.1:9/limiter-test/resized', 5)).toBe(limiter);
    expect(limiter.limit).toBe(5);
  });
});
