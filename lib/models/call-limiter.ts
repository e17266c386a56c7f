/**
 * CallLimiter: at most `limit` HTTP requests in flight to one model server, whatever run or model sends them (issue
 * 30: several runs must not hammer one endpoint). `serverCallLimiter(baseURL, limit)` gives the process-wide limiter
 * of a server, keyed by its origin and path, so every OpenAIModel built for that server queues on the same one.
 * Slots are handed out first come, first served; a call waiting for one honours its abort signal (it leaves the
 * queue and rejects at once with the signal's reason).
 * Not responsible for retries or their waits (openai.ts takes a slot per attempt and gives it back before waiting to
 * retry, so a backing-off call holds no slot), nor for a run's own limit of calls in flight (lib/engine's call gate).
 */

/** Requests in flight at once to one model server when the operator does not say (ARBORIST_MODEL_SERVER_MAX_CALLS). */
export const DEFAULT_MODEL_SERVER_MAX_CALLS = 16;

interface Waiter {
  grant: (release: () => void) => void;
  refuse: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class CallLimiter {
  #limit: number;
  #inFlight = 0;
  readonly #waiting: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = checkedLimit(limit);
  }

  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** A new limit (the operator changed the setting); a raised one admits waiting calls at once. */
  setLimit(limit: number): void {
    this.#limit = checkedLimit(limit);
    this.#pump();
  }

  /** Resolves with the slot's release (call it exactly once; later calls are ignored) when one is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        refuse: reject,
        signal,
        onAbort: () => {
          const at = this.#waiting.indexOf(waiter);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < this.#limit) {
      const waiter = this.#waiting.shift();
      if (!waiter) return;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.#inFlight += 1;
      let released = false;
      waiter.grant(() => {
        // a double release must not free someone else's slot
        if (released) return;
        released = true;
        this.#inFlight -= 1;
        this.#pump();
      });
    }
  }
}

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a call limit is a whole number >= 1 (got ${limit})`);
  return limit;
}

/** The server a base URL names, for limiting: origin and path (no credentials, query or trailing slash). */
export function serverKey(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// On globalThis, like the Prisma client: a hot reload in `next dev` re-evaluates this module, and a second registry
// would double every server's limit.
const REGISTRY = Symbol.for('arborist.modelServerLimiters');
type Registry = Map<string, CallLimiter>;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * The process-wide limiter of the server at `baseURL`, made on first use. The limit is the latest asked for: the
 * environment is read as each run starts, so a changed setting reaches runs started after it.
 */
export function serverCallLimiter(baseURL: string, limit: number): CallLimiter {
  const key = serverKey(baseURL);
  const known = registry().get(key);
  if (known) {
    if (known.limit !== limit) known.setLimit(limit);
    return known;
  }
  const limiter = new CallLimiter(limit);
  registry().set(key, limiter);
  return limiter;
}
