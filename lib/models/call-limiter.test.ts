/**
 * The process-wide limiter of a model server: one per server (origin and path), taking the latest limit asked for.
 * The slots themselves are the engine's CallGate (lib/engine/call-gate.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { serverCallLimiter, serverKey } from './call-limiter';

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
