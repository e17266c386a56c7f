/**
 * An abortable wait, the one every side uses: a model's latency and retry backoff (lib/models), the run page's
 * reconnect backoff (components), scripted models in tests. A real utility, not test support; here because the
 * browser and the server both need it and the contract is the room every room may import. Not a timer to poll with.
 */

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
