/**
 * The limit of HTTP requests in flight to one model server, whatever run or model sends them (issue 30: several runs
 * must not hammer one endpoint). `serverCallLimiter(baseURL, limit)` gives the process-wide limiter of a server, keyed
 * by its origin and path, so every OpenAIModel built for that server queues on the same one. A limiter is the engine's
 * CallGate used one slot at a time (`acquire`): first come, first served, a waiting call honouring its abort signal.
 * Not responsible for retries or their waits (openai.ts takes a slot per attempt and gives it back before waiting to
 * retry, so a backing-off call holds no slot), nor for a run's own limit of calls in flight (lib/engine's call gate).
 */
import { CallGate } from '../engine/index';

/** Requests in flight at once to one model server when the operator does not say (ARBORIST_MODEL_SERVER_MAX_CALLS). */
export const DEFAULT_MODEL_SERVER_MAX_CALLS = 16;

/** The server a base URL names, for limiting: origin and path (no credentials, query or trailing slash). */
export function serverKey(baseURL: string): string {
  const url = new URL(baseURL);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

// On globalThis, like the Prisma client: a hot reload in `next dev` re-evaluates this module, and a second registry
// would double every server's limit.
const REGISTRY = Symbol.for('arborist.modelServerLimiters');
type Registry = Map<string, CallGate>;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * The process-wide limiter of the server at `baseURL`, made on first use. The limit is the latest asked for: the
 * environment is read as each run starts, so a changed setting reaches runs started after it.
 */
export function serverCallLimiter(baseURL: string, limit: number): CallGate {
  const key = serverKey(baseURL);
  const known = registry().get(key);
  if (known) {
    if (known.limit !== limit) known.setLimit(limit);
    return known;
  }
  const limiter = new CallGate(limit);
  registry().set(key, limiter);
  return limiter;
}
