/**
 * Timers that never keep a Node process alive by themselves (unref'd where the runtime has unref; browsers have
 * none and need none): the SDK's batching, backoff and heartbeat must not hold a host program open after its own work
 * is done. Waits the caller awaits on purpose (finish's deadline) use a plain timer instead.
 * Not responsible for deciding when anything runs (run.ts).
 */

type Handle = ReturnType<typeof setTimeout>;

function unref(handle: Handle): Handle {
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

export function later(ms: number, fn: () => void): Handle {
  return unref(setTimeout(fn, ms));
}

export function every(ms: number, fn: () => void): ReturnType<typeof setInterval> {
  const handle = setInterval(fn, ms);
  (handle as { unref?: () => void }).unref?.();
  return handle;
}

/** Waits `ms` without holding the process open. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => later(ms, resolve));
}
