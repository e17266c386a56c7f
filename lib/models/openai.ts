/**
 * OpenAIModel: a LanguageModel over any OpenAI-compatible chat completions API (OpenAI, vLLM, llama.cpp server,
 * Ollama, LM Studio), through the `openai` SDK's chat.completions.create.
 *
 * - Retries are ours, not the SDK's (its maxRetries is 0), so they are testable and honour Retry-After exactly:
 *   429 and 5xx are retried, honouring `retry-after-ms` or `Retry-After` (seconds or an HTTP date; capped at
 *   maxRetryAfterMs), else after a jittered exponential backoff; connection errors (refused, reset, host not
 *   found, connect timeout) are retried the same way. 400/401/403/404/422 and other 4xx are not, nor is a 429 that
 *   says the quota is used up. Sleep, clock and randomness are injectable (tests).
 * - timeoutMs limits each HTTP attempt, body included; a call that hits it fails as 'timeout' and is not
 *   retried (a model that took that long once will likely take that long again; the engine backtracks).
 * - Every attempt is logged (ModelAttempt: when it started on the injectable clock, how long it took, the HTTP
 *   status, our message for a failure, the wait before the next): a success after retries returns the log as
 *   `attempts`, a failure carries it as ModelError.attemptLog, so the node's trace shows each one. Tokens a failed
 *   attempt spent (when the server said) are added to the call's usage.
 * - `limiter` (call-limiter.ts) bounds the requests in flight to the server across every model and run of the
 *   process: each attempt takes a slot and gives it back before any wait to retry; the time spent waiting for a slot
 *   is not the attempt's latency, and an abort while waiting rejects at once.
 * - The call's AbortSignal cancels the request in flight; an abort rethrows the signal's reason.
 * - Usage comes from the response's usage (prompt_tokens, completion_tokens). A server that sends none gets
 *   about characters / 4 tokens each way, and the usage is marked `estimated: true` (the engine's model.called
 *   event keeps only the two counts, so a recording keeps the mark and the event log does not).
 * - Every failure is a ModelError (model-error.ts) whose message says what happened and what to do, in our words
 *   only: the HTTP status and a fixed phrase, never text of the server's reply (an error body, a 404 or HTML page,
 *   a 200 body that is not a chat completion, a JSON parser's excerpt of it). Messages are stored in the run's
 *   events, which everyone who may read the run reads; a server's body is the server's, not the run's. The body is
 *   read only to classify a failure (a missing model, a context overflow, an exhausted quota). The content of a
 *   valid chat completion (and its refusal) is the model's answer and is returned as such.
 * - Redirects are not followed (a model API has no reason to redirect; following one would let a server send a
 *   call, and its key, elsewhere): a 3xx is a refused request.
 * - The API key is held in a private field, sent only as the Authorization header, and redacted from every
 *   message; the SDK's own logging is off and it reads nothing from the environment (every option is passed).
 * Not responsible for which key goes to which server (lib/server/model-factory.ts) or for prices (engine/pricing).
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { ModelAttempt, TokenUsage } from '../contract/vocabulary';
import type { CallGate, CompletionRequest, CompletionResponse, LanguageModel } from '../engine/index';
import { ModelError, type ModelErrorKind } from './model-error';
import { countTokens } from './simulated';
import { sleep } from '../contract/sleep';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Sent as the bearer token when no key is configured for the server (local servers ignore it). */
export const NO_API_KEY = 'no-key';
export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface RetryTiming {
  /** First backoff (ms) when the server gives no Retry-After; doubles per retry. */
  initialDelayMs?: number;
  /** Largest backoff (ms). */
  maxDelayMs?: number;
  /** Largest wait (ms) a Retry-After may ask for. */
  maxRetryAfterMs?: number;
}

export interface OpenAIModelOptions {
  /** Null or absent: no key is sent (a placeholder bearer token is, for servers that need none). */
  apiKey?: string | null;
  baseURL?: string;
  model: string;
  temperature?: number;
  /** Sent as reasoning_effort only when set. */
  reasoningEffort?: ReasoningEffort;
  /**
   * Ask for a JSON object (response_format json_object) on generate and evaluate calls whose prompt mentions
   * JSON (OpenAI rejects json_object for a prompt that does not; the Game of 24 prompts ask for lines).
   */
  jsonMode?: boolean;
  /** Sent as seed (best-effort determinism on servers that support it). */
  seed?: number;
  /** Limit of each HTTP attempt, body included (ms). */
  timeoutMs?: number;
  /** Retries after the first attempt (429, 5xx, connection errors). */
  maxRetries?: number;
  retry?: RetryTiming;
  /** Waits between retries; rejects with the signal's reason on abort. Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock (ms since the epoch) for HTTP-date Retry-After values and each attempt's start and latency. */
  now?: () => number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** The transport (default: the global fetch); the server passes one that connects to public addresses only. */
  fetch?: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** The server's limit of requests in flight (serverCallLimiter in call-limiter.ts); absent: no limit. */
  limiter?: Pick<CallGate, 'acquire'>;
}

/** Usage as this backend reports it: `estimated` when the server sent none and characters were counted. */
export interface ReportedUsage extends TokenUsage {
  estimated?: true;
}

const completionSchema = z.object({
  choices: z.array(
    z.object({
      message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }).nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: z.unknown().optional(),
});

const usageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
});

/** What went wrong in one attempt, before it becomes a ModelError. */
interface Failure {
  kind: ModelErrorKind;
  status?: number;
  retryable: boolean;
  /** What the server asked for (Retry-After), in ms, uncapped. */
  retryAfterMs: number | null;
  /** Tokens the server says the failed call used. */
  usage?: TokenUsage | null;
  /** The message, given the number of attempts made. */
  describe(attempts: number): string;
}

class AttemptTimeout extends Error {}

/** What an attempt saw of the server's answer before it failed (the status of a 200 that read() refused). */
interface Seen {
  status: number | null;
}

function since(startedAt: number, now: () => number): number {
  // a wall clock may step back; a latency may not be negative
  return Math.max(0, Math.round(now() - startedAt));
}

function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (!a || !b) return a ?? b;
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** The answer with the tokens of failed attempts added, and the attempts when there were retries. */
function answered(response: CompletionResponse, log: ModelAttempt[], spent: TokenUsage | null): CompletionResponse {
  const usage: ReportedUsage = spent
    ? { ...response.usage, ...addUsage(response.usage, spent) }
    : (response.usage as ReportedUsage);
  return { text: response.text, usage, ...(log.length > 1 ? { attempts: log } : {}) };
}

export class OpenAIModel implements LanguageModel {
  readonly id: string;
  /** The base URL without credentials or query (safe to show). */
  readonly baseURL: string;
  readonly #apiKey: string | null;
  readonly #client: OpenAI;
  readonly #options: OpenAIModelOptions;
  readonly #host: string;
  readonly #isOpenAI: boolean;

  constructor(options: OpenAIModelOptions) {
    if (!options.model.trim()) throw new ModelError('config', 'no model name given: pick a model the server lists');
    const baseURL = (options.baseURL ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
    let url: URL;
    try {
      url = new URL(baseURL);
    } catch {
      throw new ModelError(
        'config',
        `the base URL "${displayURL(baseURL)}" is not a URL: use e.g. ${DEFAULT_OPENAI_BASE_URL}`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ModelError('config', `the base URL must start with http:// or https:// (got ${url.protocol})`);
    }
    this.id = options.model;
    this.#options = options;
    this.#apiKey = options.apiKey ? options.apiKey : null;
    this.baseURL = displayURL(baseURL);
    this.#host = url.host;
    this.#isOpenAI = url.hostname === 'api.openai.com';
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // Every option the SDK would otherwise read from the environment is given, so nothing leaks to a server.
    this.#client = new OpenAI({
      apiKey: this.#apiKey ?? NO_API_KEY,
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      baseURL,
      maxRetries: 0,
      // our own timer (per attempt, body included) fires first; this one is a backstop
      timeout: timeoutMs + 1_000,
      logLevel: 'off',
      fetch: normalizingFetch(options.fetch ?? fetch),
    });
  }

  /** What JSON.stringify shows of a model: never the key or the client. */
  toJSON(): { id: string; baseURL: string } {
    return { id: this.id, baseURL: this.baseURL };
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const body = this.body(request);
    const maxRetries = Math.max(0, this.#options.maxRetries ?? DEFAULT_MAX_RETRIES);
    const now = this.#options.now ?? Date.now;
    const log: ModelAttempt[] = [];
    // tokens the failed attempts spent, when their server said: the call's usage includes them
    let spent: TokenUsage | null = null;
    for (let attempt = 1; ; attempt++) {
      request.signal?.throwIfAborted();
      // one slot per attempt, taken before the clock starts: a wait for the server's limit is not the model's time
      const release = this.#options.limiter ? await this.#options.limiter.acquire(request.signal) : null;
      const startedAt = now();
      const seen: Seen = { status: null };
      let failure: Failure;
      try {
        const response = await this.attempt(body, request, seen);
        log.push({ startedAt, latencyMs: since(startedAt, now), status: seen.status, error: null, waitMs: null });
        return answered(response, log, spent);
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        failure = this.classify(error);
      } finally {
        release?.();
      }
      const latencyMs = since(startedAt, now);
      spent = addUsage(spent, failure.usage ?? null);
      const last = !failure.retryable || attempt > maxRetries;
      const waitMs = last ? null : this.retryDelay(failure, attempt);
      log.push({
        startedAt,
        latencyMs,
        status: failure.status ?? seen.status,
        error: this.redact(failure.describe(1)),
        waitMs,
      });
      if (waitMs === null) {
        throw new ModelError(failure.kind, this.redact(failure.describe(attempt)), {
          status: failure.status,
          attempts: attempt,
          usage: spent,
          attemptLog: log,
        });
      }
      await (this.#options.sleep ?? sleep)(waitMs, request.signal);
    }
  }

  /** The request body: only what is set is sent. */
  private body(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
    const o = this.#options;
    const temperature = request.temperature ?? o.temperature;
    const wantsJson =
      o.jsonMode === true &&
      (request.purpose === 'generate' || request.purpose === 'evaluate') &&
      request.messages.some((m) => /json/i.test(m.content));
    return {
      model: o.model,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      ...(temperature !== undefined ? { temperature } : {}),
      // OpenAI's reasoning models take only max_completion_tokens; other servers know max_tokens best
      ...(request.maxTokens !== undefined
        ? this.#isOpenAI
          ? { max_completion_tokens: request.maxTokens }
          : { max_tokens: request.maxTokens }
        : {}),
      ...(o.reasoningEffort ? { reasoning_effort: o.reasoningEffort } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      ...(wantsJson ? { response_format: { type: 'json_object' as const } } : {}),
    };
  }

  /** One HTTP attempt under its own time limit, read into text and usage. */
  private async attempt(
    body: ChatCompletionCreateParamsNonStreaming,
    request: CompletionRequest,
    seen: Seen,
  ): Promise<CompletionResponse> {
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(new AttemptTimeout()), timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    try {
      const { data, response } = await this.#client.chat.completions.create(body, { signal }).withResponse();
      // kept for the attempt's log: a 200 whose body is not a usable completion still had this status
      seen.status = response.status;
      return this.read(data as unknown, request);
    } catch (error) {
      if (timer.signal.aborted && !request.signal?.aborted) throw new AttemptTimeout();
      throw error;
    } finally {
      clearTimeout(handle);
    }
  }

  private read(completion: unknown, request: CompletionRequest): CompletionResponse {
    const parsed = completionSchema.safeParse(completion);
    if (!parsed.success) {
      // what the body was, never what it said (see the header)
      const what =
        typeof completion === 'string'
          ? completion.trim()
            ? `a text body instead of JSON (${completion.length} characters, not shown)`
            : 'an empty body'
          : 'JSON that is not a chat completion (not shown)';
      throw this.badResponse(what);
    }
    const choice = parsed.data.choices[0];
    if (!choice) throw this.badResponse('a completion with no choices');
    const reported = usageSchema.safeParse(parsed.data.usage);
    const usage: TokenUsage | null = reported.success
      ? { inputTokens: reported.data.prompt_tokens, outputTokens: reported.data.completion_tokens }
      : null;
    const text = choice.message?.content ?? '';
    if (!text.trim()) {
      // the tokens were spent all the same: the error carries them, so the call's cost stays honest
      const refusal = choice.message?.refusal;
      if (refusal) {
        throw new ModelError('bad-response', this.redact(`${this.id} refused to answer: "${preview(refusal)}"`), {
          usage,
        });
      }
      // the server's own word, said only when it is one of the API's (a server could put anything there)
      const said = choice.finish_reason ?? 'none';
      const reason = KNOWN_FINISH_REASONS.has(said) ? said : 'other';
      const advice =
        reason === 'length'
          ? 'it ran out of tokens (allow more output tokens or lower the reasoning effort)'
          : 'try again, or pick another model';
      throw new ModelError(
        'bad-response',
        this.redact(`${this.id} at ${this.#host} returned no text (finish_reason: ${reason}): ${advice}`),
        { usage },
      );
    }
    if (usage) return { text, usage };
    const estimated: ReportedUsage = {
      inputTokens: request.messages.reduce((sum, m) => sum + countTokens(m.content), 0),
      outputTokens: countTokens(text),
      estimated: true,
    };
    return { text, usage: estimated };
  }

  private badResponse(what: string): ModelError {
    return new ModelError(
      'bad-response',
      this.redact(
        `${this.#host} did not answer with a chat completion: it sent ${what}: check that ${this.baseURL} is an OpenAI-compatible API`,
      ),
    );
  }

  private retryDelay(failure: Failure, attempt: number): number {
    const timing = this.#options.retry ?? {};
    if (failure.retryAfterMs !== null) return Math.min(failure.retryAfterMs, timing.maxRetryAfterMs ?? 60_000);
    const base = Math.min(timing.maxDelayMs ?? 8_000, (timing.initialDelayMs ?? 500) * 2 ** (attempt - 1));
    // jitter: between half and all of the exponential step, so clients that failed together spread out
    return Math.round(base * (0.5 + 0.5 * (this.#options.random ?? Math.random)()));
  }

  private classify(error: unknown): Failure {
    const model = this.id;
    const host = this.#host;
    const base = this.baseURL;
    const fixed = (kind: ModelErrorKind, message: string, status?: number): Failure => ({
      kind,
      status,
      retryable: false,
      retryAfterMs: null,
      describe: () => message,
    });
    if (error instanceof ModelError) {
      return { ...fixed(error.kind, error.message, error.status ?? undefined), usage: error.usage };
    }
    if (error instanceof AttemptTimeout) {
      const seconds = ((this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000).toString();
      return fixed(
        'timeout',
        `${model} at ${host} did not answer within ${seconds} s: raise the timeout, pick a faster model or lower the reasoning effort`,
      );
    }
    if (error instanceof OpenAI.APIConnectionError) {
      const timedOut = error instanceof OpenAI.APIConnectionTimeoutError;
      const detail = timedOut ? 'the connection timed out' : connectionDetail(error);
      // fetch never connects to some ports (6000, 6665-6669, ...): retrying cannot help
      const badPort = detail === 'bad port';
      // a team-mode guard refused the address: retrying cannot help either
      const refusedAddress = detail.endsWith(`(${PRIVATE_ADDRESS})`);
      return {
        kind: 'unreachable',
        retryable: !badPort && !refusedAddress,
        retryAfterMs: null,
        describe: (attempts) =>
          badPort
            ? `cannot reach ${base}: port ${new URL(base).port} is one that fetch refuses to connect to: serve the model on another port`
            : `cannot reach ${base}: ${detail}${tries(attempts)}: check that the server is running and that the base URL (OPENAI_BASE_URL or the run's own) is right`,
      };
    }
    if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
      const status = error.status;
      // the status only: the body's message is read to classify, never repeated (see the header)
      const said = `HTTP ${status}`;
      const code = typeof error.code === 'string' ? error.code : '';
      if (status === 401 || status === 403) {
        return fixed(
          'auth',
          this.#apiKey
            ? `the API key was refused by ${host} (${said}): check OPENAI_API_KEY`
            : `${host} asks for an API key and none was sent (${said}): set OPENAI_API_KEY and point OPENAI_BASE_URL at this server (the key is sent only there)`,
          status,
        );
      }
      if (status === 404) {
        if (code === 'model_not_found' || /model/i.test(serverMessage(error))) {
          return fixed(
            'unknown-model',
            `the server at ${host} has no model named "${model}" (${said}): pick a model the server lists (GET ${base}/models)`,
            status,
          );
        }
        return fixed(
          'rejected',
          `${base}/chat/completions was not found (${said}): check the base URL (OpenAI-compatible servers usually serve under /v1)`,
          status,
        );
      }
      if (status === 400 && (code === 'context_length_exceeded' || CONTEXT_LENGTH.test(serverMessage(error)))) {
        return fixed(
          'context-length',
          `the prompt is longer than ${model}'s context window (${said}): pick a model with a longer context, or search smaller (fewer branches, less depth) so the scratchpad stays short`,
          status,
        );
      }
      if (status === 429) {
        if (code === 'insufficient_quota') {
          return fixed(
            'rate-limited',
            `${host} says the account has no quota left (${said}): check the plan and billing of the account whose key is OPENAI_API_KEY`,
            status,
          );
        }
        return {
          kind: 'rate-limited',
          status,
          retryable: true,
          retryAfterMs: retryAfterMs(error.headers, (this.#options.now ?? Date.now)()),
          describe: (attempts) =>
            `${host} is rate-limiting requests (${said})${tries(attempts)}: wait and try again, send it fewer requests at once (ARBORIST_MODEL_SERVER_MAX_CALLS, ARBORIST_MAX_CONCURRENT_RUNS) or raise the account's rate limit`,
        };
      }
      if (status >= 500) {
        return {
          kind: 'server',
          status,
          retryable: true,
          retryAfterMs: retryAfterMs(error.headers, (this.#options.now ?? Date.now)()),
          describe: (attempts) =>
            `${host} had a server error (${said})${tries(attempts)}: try again later, or read the server's log if it is yours`,
        };
      }
      return fixed(
        'rejected',
        `${host} rejected the request (${said}): check the run's model settings (temperature, reasoning effort, JSON mode) against what ${model} supports`,
        status,
      );
    }
    // a JSON parser's message quotes the body: say only that it was malformed
    if (error instanceof SyntaxError) return fixed('bad-response', this.badResponse('malformed JSON').message);
    const name = error instanceof Error ? error.name : typeof error;
    return fixed('bad-response', `unexpected failure calling ${host} (${name}): check the server's log`);
  }

  /** The key never leaves in a message, whatever a server echoes. */
  private redact(text: string): string {
    const key = this.#apiKey;
    return key && key.length >= 4 ? text.split(key).join('[redacted]') : text;
  }
}

const KNOWN_FINISH_REASONS = new Set(['stop', 'length', 'content_filter', 'tool_calls', 'function_call', 'none']);

const CONTEXT_LENGTH = /context[_ ](length|window|size)|maximum context|too many tokens|prompt is too long/i;

function tries(attempts: number): string {
  return attempts > 1 ? `, on all ${attempts} attempts` : '';
}

function preview(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  const text =
    typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3}\s*/, '') || 'no message';
  return preview(text);
}

/** A URL fit to show: no user, password, query or fragment. */
export function displayURL(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, '');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
  }
}

/** The code of a connection a transport refused because the address is not public (lib/server/model-servers.ts). */
export const PRIVATE_ADDRESS = 'ARBORIST_PRIVATE_ADDRESS';

const CONNECTION_CODES: Record<string, string> = {
  [PRIVATE_ADDRESS]:
    'the host is or resolves to a private, loopback or reserved address, which this server does not call',
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_HEADERS_TIMEOUT: 'the server sent no headers in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending the body',
};

/** The innermost cause's code (ECONNREFUSED, ...) said in words, else the innermost cause's message. */
function connectionDetail(error: Error): string {
  let coded: string | null = null;
  let innermost = error.message;
  let cause: unknown = (error as { cause?: unknown }).cause;
  for (let depth = 0; cause instanceof Error && depth < 6; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') coded = `${CONNECTION_CODES[code] ?? cause.message} (${code})`;
    innermost = cause.message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return coded ?? innermost;
}

/** Retry-After as ms: `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date (relative to now). */
export function retryAfterMs(headers: Headers | undefined, now: number): number | null {
  const ms = headers?.get('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headers?.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

type Fetch = NonNullable<OpenAIModelOptions['fetch']>;

/**
 * Error bodies in the SDK's shape ({ error: { message, type, code } }): vLLM sends { message, type, code },
 * Ollama { error: "..." }, FastAPI servers { detail }; without this the SDK could not read their message or code to
 * classify the failure. Redirects are not followed (see the header).
 */
function normalizingFetch(transport: Fetch): Fetch {
  return async (input, init) => {
    const response = await transport(input, { ...init, redirect: 'manual' });
    return response.ok ? response : normalizedError(response);
  };
}

async function normalizedError(response: Response): Promise<Response> {
  const text = await response.text();
  const normalized = normalizeErrorBody(text);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  if (normalized !== text) headers.set('content-type', 'application/json');
  return new Response(normalized, { status: response.status, statusText: response.statusText, headers });
}

export function normalizeErrorBody(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return text;
  const b = body as Record<string, unknown>;
  if (b.error && typeof b.error === 'object') return text;
  const message =
    typeof b.error === 'string'
      ? b.error
      : typeof b.message === 'string'
        ? b.message
        : typeof b.detail === 'string'
          ? b.detail
          : JSON.stringify(body);
  return JSON.stringify({
    error: { message, type: typeof b.type === 'string' ? b.type : null, code: b.code ?? null },
  });
}
