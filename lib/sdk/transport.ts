/**
 * The SDK's one way to talk to the server: a JSON request over fetch with a time limit, sorted into what the caller
 * does next (use the answer, retry later, or give up on this request), and the retry delay (exponential backoff with
 * jitter). Works wherever fetch does (Node 20+, browsers, workers).
 * Not responsible for what is sent or when (run.ts), nor for waiting between tries (run.ts's timers).
 */

/** What one request came to. */
export type Outcome<T> =
  | { kind: 'ok'; status: number; body: T }
  /** The server is down, slow, overloaded or failing (network error, time limit, 5xx, 429): try again later. */
  | { kind: 'retry'; status: number | null; message: string; retryAfterMs: number | null }
  /**
   * The server answered no (4xx), or the body could not be encoded (status 0; run.ts checks every item when it is
   * queued, so this is a last guard): trying the same request again will not help.
   */
  | { kind: 'refused'; status: number; body: unknown; message: string };

export interface TransportOptions {
  server: string;
  apiKey?: string;
  fetch: typeof fetch;
}

/** The server's base URL without a trailing slash ("http://127.0.0.1:3000"). */
export function baseUrl(server: string): string {
  return String(server ?? '').replace(/\/+$/, '');
}

/** A refusal's message: the server's own words when it gave them ({error, message}), else the status. */
function refusalMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown; issues?: unknown };
    const issues = Array.isArray(b.issues)
      ? (b.issues as { path?: unknown; message?: unknown }[])
          .slice(0, 3)
          .map((i) => `${String(i.path ?? '')}: ${String(i.message ?? '')}`)
          .join('; ')
      : '';
    const text = typeof b.message === 'string' ? b.message : typeof b.error === 'string' ? b.error : '';
    if (text || issues) return [text, issues].filter(Boolean).join(': ');
  }
  return `HTTP ${status}`;
}

/** Retry-After in seconds (the only form servers here send), as milliseconds. */
function retryAfter(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** Sends one JSON request; never throws. `signal` cancels it (a long poll when the run ends). */
export async function request<T>(
  transport: TransportOptions,
  method: 'GET' | 'POST',
  path: string,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Outcome<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (transport.apiKey) headers.authorization = `Bearer ${transport.apiKey}`;
  let encoded: string | undefined;
  try {
    encoded = body === undefined ? undefined : JSON.stringify(body);
  } catch (error) {
    // not the network's fault: retrying would fail the same way forever
    const message = `cannot encode the request as JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { kind: 'refused', status: 0, body: null, message };
  }
  const limit = AbortSignal.timeout(timeoutMs);
  try {
    const response = await transport.fetch(`${baseUrl(transport.server)}${path}`, {
      method,
      headers,
      body: encoded,
      signal: signal ? AbortSignal.any([signal, limit]) : limit,
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (response.ok) return { kind: 'ok', status: response.status, body: parsed as T };
    if (response.status >= 500 || response.status === 429 || response.status === 408) {
      return {
        kind: 'retry',
        status: response.status,
        message: refusalMessage(response.status, parsed),
        retryAfterMs: retryAfter(response.headers.get('retry-after')),
      };
    }
    return { kind: 'refused', status: response.status, body: parsed, message: refusalMessage(response.status, parsed) };
  } catch (error) {
    const message =
      limit.aborted && !signal?.aborted
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
          : String(error);
    return { kind: 'retry', status: null, message, retryAfterMs: null };
  }
}

export interface BackoffOptions {
  /** The first retry's delay. */
  baseMs: number;
  /** The longest delay between two tries. */
  maxMs: number;
}

/**
 * How long to wait before retry number `attempt` (1, 2, 3, ...): base * 2^(attempt-1), capped at max, of which a
 * random half is kept ("equal jitter"): clients that failed together do not retry together, and the wait never
 * drops to nothing. A server's Retry-After, when longer, wins.
 */
export function retryDelay(
  attempt: number,
  options: BackoffOptions,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, attempt - 1));
  const delay = ceiling / 2 + (random() * ceiling) / 2;
  return Math.round(Math.max(delay, retryAfterMs ?? 0));
}
