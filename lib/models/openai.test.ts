/**
 * OpenAIModel against a real local HTTP server speaking OpenAI's wire format (no mocks of the SDK): the request it
 * sends, usage, every error kind and its message, retries and Retry-After (with an injected sleep and clock: no
 * real waiting), every attempt in the call's record, the server's limit of requests in flight, time limits, aborts
 * that close the socket, and the key kept out of everything.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionRequest } from '../engine/index';
import { CallGate } from '../engine/index';
import { ModelError } from './model-error';
import { NO_API_KEY, OpenAIModel, type OpenAIModelOptions, normalizeErrorBody, retryAfterMs } from './openai';
import { type FakeOpenAIServer, type Handler, type Reply, completionBody, errorBody, startFakeOpenAI } from './testing';

const KEY = 'sk-test-SECRET-1234';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI(handler);
  servers.push(server);
  return server;
}

interface Harness {
  model: OpenAIModel;
  sleeps: number[];
}

function modelFor(server: FakeOpenAIServer | string, options: Partial<OpenAIModelOptions> = {}): Harness {
  const sleeps: number[] = [];
  const model = new OpenAIModel({
    apiKey: KEY,
    baseURL: typeof server === 'string' ? server : server.baseURL,
    model: 'gpt-4o-mini',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { model, sleeps };
}

const ask = (text = 'Say hi', purpose: CompletionRequest['purpose'] = 'generate'): CompletionRequest => ({
  purpose,
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: text },
  ],
});

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ModelError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAIModel: a call', () => {
  it('sends the model and messages, returns the text and the usage the server reports', async () => {
    const server = await serve(() => ({
      json: completionBody('hi', { usage: { prompt_tokens: 17, completion_tokens: 2 } }),
    }));
    const { model } = modelFor(server);
    const response = await model.complete(ask());
    expect(response).toEqual({ text: 'hi', usage: { inputTokens: 17, outputTokens: 2 } });
    const sent = server.requests[0];
    expect(sent?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hi' },
      ],
    });
    expect(model.id).toBe('gpt-4o-mini');
  });

  it('sends temperature, reasoning effort, seed and max tokens only when set', async () => {
    const server = await serve(() => ({ json: completionBody('ok') }));
    await modelFor(server, { temperature: 0.7, reasoningEffort: 'low', seed: 5 }).model.complete({
      ...ask(),
      maxTokens: 64,
    });
    await modelFor(server).model.complete({ ...ask(), temperature: 0.2 });
    expect(server.requests[0]?.body).toMatchObject({
      temperature: 0.7,
      reasoning_effort: 'low',
      seed: 5,
      max_tokens: 64,
    });
    expect(server.requests[1]?.body).toMatchObject({ temperature: 0.2 });
    expect(server.requests[1]?.body).not.toHaveProperty('reasoning_effort');
    expect(server.requests[1]?.body).not.toHaveProperty('max_tokens');
  });

  it('asks for a JSON object only in JSON mode, only for generate and evaluate prompts that ask for JSON', async () => {
    const server = await serve(() => ({ json: completionBody('not json at all, just prose') }));
    const { model } = modelFor(server, { jsonMode: true });
    // prose where JSON was asked is an answer, not an error: the engine's parsers fall back
    const prose = await model.complete(ask('Answer in JSON: {"branches": [...]}', 'generate'));
    expect(prose.text).toBe('not json at all, just prose');
    await model.complete(ask('Score this as JSON', 'evaluate'));
    await model.complete(ask('Answer in JSON', 'execute'));
    await model.complete(ask('Propose moves, one per line', 'generate'));
    await modelFor(server).model.complete(ask('Answer in JSON', 'generate'));
    const formats = server.requests.map((r) => r.body?.response_format ?? null);
    expect(formats).toEqual([{ type: 'json_object' }, { type: 'json_object' }, null, null, null]);
  });

  it('counts about 4 characters a token and marks the usage estimated when the server sends no usage', async () => {
    const server = await serve(() => ({ json: completionBody('12345678', { usage: null }) }));
    const { model } = modelFor(server);
    const response = await model.complete(ask('abcdefgh'));
    // "You are terse." is 14 characters (4 tokens), "abcdefgh" 8 (2); the answer 8 (2)
    expect(response.usage).toEqual({ inputTokens: 6, outputTokens: 2, estimated: true });
  });

  it('never sends the environment key: without a key of its own it sends a placeholder', async () => {
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-env-MUST-NOT-LEAK';
    try {
      const server = await serve(() => ({ json: completionBody('ok') }));
      await modelFor(server, { apiKey: null }).model.complete(ask());
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${NO_API_KEY}`);
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    }
  });
});

describe('OpenAIModel: errors a person can act on', () => {
  it('auth: 401 and 403 say the key was refused by the host, once (not retried)', async () => {
    for (const status of [401, 403]) {
      const server = await serve(() => ({
        status,
        json: errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
      }));
      const { model, sleeps } = modelFor(server);
      const error = await failure(model.complete(ask()));
      expect(error.kind).toBe('auth');
      expect(error.message).toContain(`the API key was refused by ${new URL(server.baseURL).host}`);
      expect(error.message).toContain('check OPENAI_API_KEY');
      expect(error.status).toBe(status);
      expect(server.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('auth without a key says none was sent and how to send one', async () => {
    const server = await serve(() => ({ status: 401, json: errorBody('Missing bearer token', 'auth') }));
    const error = await failure(modelFor(server, { apiKey: null }).model.complete(ask()));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/asks for an API key and none was sent.*OPENAI_API_KEY/);
  });

  it('unknown-model: 404 model_not_found names the model and says to pick one the server lists', async () => {
    const server = await serve(() => ({
      status: 404,
      json: errorBody(
        'The model `gpt-9` does not exist or you do not have access to it.',
        'invalid_request_error',
        'model_not_found',
      ),
    }));
    const { model } = modelFor(server, { model: 'gpt-9' });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('unknown-model');
    expect(error.message).toContain('has no model named "gpt-9"');
    expect(error.message).toContain(`pick a model the server lists (GET ${server.baseURL}/models)`);
    expect(server.requests).toHaveLength(1);
  });

  it("unknown-model from vLLM's and Ollama's error bodies too (normalised to OpenAI's shape)", async () => {
    const vllm = await serve(() => ({
      status: 404,
      json: { object: 'error', message: 'The model `llama` does not exist.', type: 'NotFoundError', code: 404 },
    }));
    const ollama = await serve(() => ({ status: 404, json: { error: "model 'llama' not found" } }));
    for (const server of [vllm, ollama]) {
      const error = await failure(modelFor(server, { model: 'llama' }).model.complete(ask()));
      expect(error.kind).toBe('unknown-model');
      expect(error.message).toMatch(/"llama" \(HTTP 404\)/);
      // classified from the body, which is not repeated
      expect(error.message).not.toContain('does not exist');
      expect(error.message).not.toContain('not found');
    }
  });

  it('a 404 that is not about the model points at the base URL', async () => {
    const server = await serve(() => ({ json: completionBody('never') }));
    const withoutV1 = server.baseURL.replace(/\/v1$/, '');
    const error = await failure(modelFor(withoutV1).model.complete(ask()));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('check the base URL');
    expect(error.message).toContain('/v1');
  });

  it('context-length: 400 context_length_exceeded, or a message about the maximum context length', async () => {
    const openai = await serve(() => ({
      status: 400,
      json: errorBody(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        'invalid_request_error',
        'context_length_exceeded',
      ),
    }));
    const vllm = await serve(() => ({
      status: 400,
      json: {
        object: 'error',
        message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
        type: 'BadRequestError',
        code: 400,
      },
    }));
    for (const server of [openai, vllm]) {
      const { model, sleeps } = modelFor(server);
      const error = await failure(model.complete(ask()));
      expect(error.kind).toBe('context-length');
      expect(error.message).toContain("longer than gpt-4o-mini's context window");
      expect(error.message).toMatch(/longer context.*fewer branches, less depth/);
      expect(sleeps).toEqual([]);
    }
  });

  it('rejected: another 400 or a 422 is not retried and says which settings to check', async () => {
    for (const status of [400, 422]) {
      const server = await serve(() => ({
        status,
        json: errorBody("Unsupported parameter: 'temperature'", 'invalid_request_error', 'unsupported_parameter'),
      }));
      const { model, sleeps } = modelFor(server, { temperature: 0.3 });
      const error = await failure(model.complete(ask()));
      expect(error.kind).toBe('rejected');
      expect(error.message).toContain(`(HTTP ${status})`);
      expect(error.message).not.toContain('Unsupported parameter');
      expect(error.message).toContain('check the run');
      expect(server.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('bad-response: a malformed JSON body', async () => {
    const server = await serve(() => ({ raw: '{"id": "chatcmpl-1", "choices": [{"message": {"content": "hi"' }));
    const error = await failure(modelFor(server).model.complete(ask()));
    expect(error.kind).toBe('bad-response');
    expect(error.message).toMatch(/did not answer with a chat completion: it sent malformed JSON/);
    expect(error.message).toContain('OpenAI-compatible API');
  });

  it('bad-response: an HTML page, JSON that is not a completion, no choices, no text, a refusal', async () => {
    const cases: [Handler, RegExp][] = [
      [() => ({ raw: '<html><body>Welcome</body></html>', contentType: 'text/html' }), /a text body instead of JSON/],
      [() => ({ json: { hello: 'world' } }), /JSON that is not a chat completion/],
      [() => ({ json: { ...(completionBody('x') as object), choices: [] } }), /a completion with no choices/],
      [
        () => ({ json: completionBody('', { finishReason: 'length' }) }),
        /returned no text \(finish_reason: length\).*tokens/,
      ],
      [() => ({ json: completionBody(null) }), /returned no text/],
      [
        () => ({
          json: {
            choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }],
          },
        }),
        /refused to answer: "I cannot help with that."/,
      ],
    ];
    for (const [handler, message] of cases) {
      const server = await serve(handler);
      const { model, sleeps } = modelFor(server);
      const error = await failure(model.complete(ask()));
      expect(error.kind).toBe('bad-response');
      expect(error.message).toMatch(message);
      expect(sleeps).toEqual([]);
    }
  });

  it('a completion with no text still reports the tokens it used, on the error', async () => {
    const server = await serve(() => ({
      json: completionBody('', { finishReason: 'length', usage: { prompt_tokens: 900, completion_tokens: 4096 } }),
    }));
    const error = await failure(modelFor(server).model.complete(ask()));
    expect(error.kind).toBe('bad-response');
    expect(error.usage).toEqual({ inputTokens: 900, outputTokens: 4096 });
  });

  it('unreachable: a refused connection is retried, then names the base URL and what to check', async () => {
    const server = await serve(() => ({ json: completionBody('x') }));
    const baseURL = server.baseURL;
    await server.close();
    const { model, sleeps } = modelFor(baseURL, { maxRetries: 2 });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toContain(`cannot reach ${baseURL}: the connection was refused`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('on all 3 attempts');
    expect(error.message).toContain('check that the server is running');
    expect(error.attempts).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('unreachable: a port fetch refuses to use is said plainly and not retried', async () => {
    const { model, sleeps } = modelFor('http://127.0.0.1:6000/v1');
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(
      'cannot reach http://127.0.0.1:6000/v1: port 6000 is one that fetch refuses to connect to: serve the model on another port',
    );
    expect(sleeps).toEqual([]);
  });

  it('unreachable: a host that does not resolve', async () => {
    const { model } = modelFor('http://arborist-no-such-host.invalid/v1', { maxRetries: 0 });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toMatch(/cannot reach http:\/\/arborist-no-such-host\.invalid\/v1: .*(ENOTFOUND|EAI_AGAIN)/);
  });

  it('timeout: no headers within the limit, or a body that stops coming; not retried', async () => {
    const slowHead = await serve(() => ({ delayMs: 5_000, json: completionBody('late') }));
    const slowBody = await serve(() => ({ bodyDelayMs: 5_000, json: completionBody('late') }));
    for (const server of [slowHead, slowBody]) {
      const { model, sleeps } = modelFor(server, { timeoutMs: 150 });
      const started = Date.now();
      const error = await failure(model.complete(ask()));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error.kind).toBe('timeout');
      expect(error.message).toContain(`gpt-4o-mini at ${new URL(server.baseURL).host} did not answer within 0.15 s`);
      expect(error.message).toContain('raise the timeout');
      expect(server.requests).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });
});

describe('OpenAIModel: retries', () => {
  it('a 500 then a success: one retry after a jittered backoff', async () => {
    const server = await serve((_, i) =>
      i === 0
        ? { status: 500, json: errorBody('The server had an error', 'server_error') }
        : { json: completionBody('ok') },
    );
    const { model, sleeps } = modelFor(server, { random: () => 0 });
    expect((await model.complete(ask())).text).toBe('ok');
    expect(server.requests).toHaveLength(2);
    // 500 ms first step, jittered down to half at random() = 0
    expect(sleeps).toEqual([250]);
  });

  it('server: 5xx on every attempt, backing off exponentially, then says so', async () => {
    const server = await serve(() => ({ status: 503, raw: 'upstream unavailable', contentType: 'text/plain' }));
    const { model, sleeps } = modelFor(server, { maxRetries: 3, random: () => 0.999999 });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('server');
    expect(error.message).toContain('had a server error (HTTP 503), on all 4 attempts');
    expect(error.message).not.toContain('upstream unavailable');
    expect(error.message).toContain('try again later');
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([500, 1000, 2000]);
  });

  it('429 honours Retry-After in seconds exactly', async () => {
    const server = await serve((_, i) =>
      i < 2
        ? { status: 429, headers: { 'retry-after': '2' }, json: errorBody('Rate limit reached', 'requests') }
        : { json: completionBody('ok') },
    );
    const { model, sleeps } = modelFor(server);
    expect((await model.complete(ask())).text).toBe('ok');
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('429 honours Retry-After as an HTTP date (against the injected clock) and retry-after-ms', async () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const server = await serve((_, i): Reply =>
      i === 0
        ? {
            status: 429,
            headers: { 'retry-after': new Date(now + 7_000).toUTCString() },
            json: errorBody('slow down', 'requests'),
          }
        : i === 1
          ? {
              status: 429,
              headers: { 'retry-after-ms': '1234', 'retry-after': '9' },
              json: errorBody('slow down', 'requests'),
            }
          : { json: completionBody('ok') },
    );
    const { model, sleeps } = modelFor(server, { now: () => now });
    expect((await model.complete(ask())).text).toBe('ok');
    expect(sleeps).toEqual([7000, 1234]);
  });

  it('caps what Retry-After may ask for; a 503 Retry-After counts too', async () => {
    const server = await serve((_, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '3600' }, json: errorBody('Rate limit reached', 'requests') }
        : i === 1
          ? { status: 503, headers: { 'retry-after': '1' }, json: errorBody('overloaded', 'server_error') }
          : { json: completionBody('ok') },
    );
    const { model, sleeps } = modelFor(server, { retry: { maxRetryAfterMs: 30_000 } });
    expect((await model.complete(ask())).text).toBe('ok');
    expect(sleeps).toEqual([30_000, 1000]);
  });

  it('rate-limited: 429 on every attempt, counted, then says what to do', async () => {
    const server = await serve(() => ({
      status: 429,
      headers: { 'retry-after': '1' },
      json: errorBody('Rate limit reached for gpt-4o-mini', 'requests', 'rate_limit_exceeded'),
    }));
    const { model, sleeps } = modelFor(server, { maxRetries: 2 });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('rate-limited');
    expect(error.attempts).toBe(3);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([1000, 1000]);
    expect(error.message).toContain('is rate-limiting requests (HTTP 429), on all 3 attempts');
    expect(error.message).toContain('ARBORIST_MODEL_SERVER_MAX_CALLS, ARBORIST_MAX_CONCURRENT_RUNS');
  });

  it('a used-up quota (429 insufficient_quota) is not retried', async () => {
    const server = await serve(() => ({
      status: 429,
      json: errorBody('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota'),
    }));
    const { model, sleeps } = modelFor(server);
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toContain('no quota left');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retryAfterMs reads seconds, fractions, dates and nonsense', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const h = (entries: Record<string, string>) => new Headers(entries);
    expect(retryAfterMs(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(h({ 'retry-after': new Date(now + 4000).toUTCString() }), now)).toBe(4000);
    expect(retryAfterMs(h({ 'retry-after': new Date(now - 4000).toUTCString() }), now)).toBe(0);
    expect(retryAfterMs(h({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(h({}), now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('normalizeErrorBody keeps OpenAI bodies and text, wraps the others', () => {
    const openai = JSON.stringify(errorBody('x', 'y', 'z'));
    expect(normalizeErrorBody(openai)).toBe(openai);
    expect(normalizeErrorBody('Bad Gateway')).toBe('Bad Gateway');
    expect(JSON.parse(normalizeErrorBody('{"detail":"Not Found"}'))).toEqual({
      error: { message: 'Not Found', type: null, code: null },
    });
  });
});

describe('OpenAIModel: aborts', () => {
  it('an abort cancels the request in flight: the server sees the connection close', async () => {
    const server = await serve(() => ({ hang: true }));
    const { model } = modelFor(server);
    const controller = new AbortController();
    const call = model.complete({ ...ask(), signal: controller.signal });
    const closed = server.nextEarlyClose();
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const reason = new Error('stopped by a person');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await closed;
    expect(server.closedEarly).toBe(1);
  });

  it('an abort during the wait before a retry stops at once', async () => {
    const server = await serve(() => ({ status: 503, json: errorBody('overloaded', 'server_error') }));
    // the real sleep, with a long backoff: only the abort can end it quickly
    const model = new OpenAIModel({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      retry: { initialDelayMs: 60_000 },
    });
    const controller = new AbortController();
    const call = model.complete({ ...ask(), signal: controller.signal });
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort(new Error('enough'));
    await expect(call).rejects.toThrow('enough');
    expect(server.requests).toHaveLength(1);
  });
});

describe('OpenAIModel: the key', () => {
  it('never appears in an error, a model, or anything returned, even when a server echoes it', async () => {
    const echo = `Incorrect API key provided: ${KEY}. You can find your API key at https://example.test`;
    const handlers: Handler[] = [
      () => ({ status: 401, json: errorBody(echo, 'invalid_request_error', 'invalid_api_key') }),
      () => ({ status: 404, json: errorBody(`model not found for ${KEY}`, 'x', 'model_not_found') }),
      () => ({ status: 400, json: errorBody(`maximum context length exceeded (${KEY})`, 'x') }),
      () => ({ status: 400, raw: `bad request from ${KEY}`, contentType: 'text/plain' }),
      () => ({ status: 429, json: errorBody(`slow down ${KEY}`, 'requests') }),
      () => ({ status: 500, json: { detail: `boom ${KEY}` } }),
      () => ({ raw: `{"broken ${KEY}` }),
      () => ({ raw: `<p>${KEY}</p>`, contentType: 'text/html' }),
      () => ({ json: { choices: [{ message: { content: '', refusal: `no, ${KEY}` } }] } }),
      () => ({ json: completionBody('fine') }),
    ];
    const seen: unknown[] = [];
    for (const handler of handlers) {
      const server = await serve(handler);
      const { model } = modelFor(server, { maxRetries: 1 });
      try {
        seen.push(await model.complete(ask()));
      } catch (error) {
        expect(error).toBeInstanceOf(ModelError);
        const e = error as ModelError;
        seen.push(e, e.message, e.stack, inspect(e));
      }
      seen.push(model, inspect(model, { showHidden: true, depth: 5 }), String(model));
    }
    const everything = JSON.stringify(seen);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('SECRET');
    expect(everything).toContain('[redacted]');
  });
});

describe('OpenAIModel: every attempt, in the call', () => {
  /** A clock only the test moves: each wait to retry moves it by the wait, so every figure is exact. */
  function clocked(server: FakeOpenAIServer, options: Partial<OpenAIModelOptions> = {}) {
    const clock = { t: 1_000_000 };
    const sleeps: number[] = [];
    const model = new OpenAIModel({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      random: () => 0.999999,
      now: () => clock.t,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.t += ms;
      },
      ...options,
    });
    return { model, clock, sleeps };
  }

  it('a 429 with Retry-After, then a 200: the answer lists both attempts, the wait honoured, in our words', async () => {
    const server = await serve((_, i) =>
      i === 0
        ? {
            status: 429,
            headers: { 'retry-after': '2' },
            json: errorBody('Rate limit reached MARKER-FROM-SERVER', 'requests'),
          }
        : { json: completionBody('ok', { usage: { prompt_tokens: 11, completion_tokens: 1 } }) },
    );
    const { model, sleeps } = clocked(server);
    const response = await model.complete(ask());
    expect(response.text).toBe('ok');
    expect(response.usage).toEqual({ inputTokens: 11, outputTokens: 1 });
    expect(sleeps).toEqual([2000]);
    const host = new URL(server.baseURL).host;
    expect(response.attempts).toEqual([
      {
        startedAt: 1_000_000,
        latencyMs: 0,
        status: 429,
        error: expect.stringContaining(`${host} is rate-limiting requests (HTTP 429): wait and try again`),
        waitMs: 2000,
      },
      { startedAt: 1_002_000, latencyMs: 0, status: 200, error: null, waitMs: null },
    ]);
    expect(JSON.stringify(response)).not.toContain('MARKER');
  });

  it('a call that fails on every attempt carries each attempt on its error, the last with no wait', async () => {
    const server = await serve(() => ({ status: 503, raw: 'upstream MARKER unavailable', contentType: 'text/plain' }));
    const { model } = clocked(server, { maxRetries: 2 });
    const error = await failure(model.complete(ask()));
    expect(error.kind).toBe('server');
    expect(error.attemptLog?.map((a) => [a.status, a.waitMs])).toEqual([
      [503, 500],
      [503, 1000],
      [503, null],
    ]);
    expect(error.attemptLog?.map((a) => a.startedAt)).toEqual([1_000_000, 1_000_500, 1_001_500]);
    for (const attempt of error.attemptLog ?? []) {
      expect(attempt.error).toMatch(/had a server error \(HTTP 503\): try again later/);
    }
    expect(JSON.stringify(error)).not.toContain('MARKER');
  });

  it('one attempt: the answer has no attempts list; a failure that is not retried has its one attempt', async () => {
    const fine = await serve(() => ({ json: completionBody('ok') }));
    expect(await clocked(fine).model.complete(ask())).not.toHaveProperty('attempts');
    const rejected = await serve(() => ({ status: 422, json: errorBody('nope', 'invalid_request_error') }));
    const error = await failure(clocked(rejected).model.complete(ask()));
    expect(error.attemptLog).toEqual([
      { startedAt: 1_000_000, latencyMs: 0, status: 422, error: error.message, waitMs: null },
    ]);
    // a 200 whose body is not a completion: the server did answer, with a 200
    const html = await serve(() => ({ raw: '<html>hi</html>', contentType: 'text/html' }));
    const bad = await failure(clocked(html).model.complete(ask()));
    expect(bad.attemptLog?.map((a) => [a.status, a.error])).toEqual([[200, bad.message]]);
  });

  it('a dropped connection is an attempt with no status', async () => {
    const server = await serve(() => ({ json: completionBody('x') }));
    await server.close();
    const error = await failure(clocked(server, { maxRetries: 1 }).model.complete(ask()));
    expect(error.kind).toBe('unreachable');
    expect(error.attemptLog?.map((a) => [a.status, a.waitMs])).toEqual([
      [null, 500],
      [null, null],
    ]);
  });
});

describe("OpenAIModel: the server's limit of requests in flight", () => {
  it("a call waiting for a slot: the wait is not its attempt's time, and it starts once a slot is free", async () => {
    const server = await serve((_, i) =>
      i === 0 ? { status: 500, json: errorBody('boom', 'server_error') } : { json: completionBody('ok') },
    );
    const limiter = new CallGate(1);
    const clock = { t: 0 };
    const model = new OpenAIModel({
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      limiter,
      now: () => clock.t,
      sleep: async () => undefined,
      random: () => 0,
    });
    const held = await limiter.acquire();
    const call = model.complete(ask());
    // the call queued at once, and nothing is sent while the only slot is taken
    expect(limiter.waitingCalls).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(server.requests).toHaveLength(0);
    clock.t = 5_000;
    held();
    const response = await call;
    expect(response.attempts?.map((a) => [a.startedAt, a.latencyMs])).toEqual([
      [5_000, 0],
      [5_000, 0],
    ]);
    expect(limiter.callsInFlight).toBe(0);
  });

  it('an abort while waiting for a slot rejects at once with its reason, and nothing is sent', async () => {
    const server = await serve(() => ({ json: completionBody('ok') }));
    const limiter = new CallGate(1);
    const model = new OpenAIModel({ baseURL: server.baseURL, model: 'gpt-4o-mini', limiter });
    const held = await limiter.acquire();
    const controller = new AbortController();
    const call = model.complete({ ...ask(), signal: controller.signal });
    expect(limiter.waitingCalls).toBe(1);
    const reason = new Error('stopped by a person');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(limiter.waitingCalls).toBe(0);
    held();
    expect(server.requests).toHaveLength(0);
  });

  it('a call backing off before a retry holds no slot', async () => {
    const server = await serve((_, i) =>
      i === 0 ? { status: 503, json: errorBody('busy', 'server_error') } : { json: completionBody('ok') },
    );
    const limiter = new CallGate(1);
    const inFlightWhileWaiting: number[] = [];
    const model = new OpenAIModel({
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      limiter,
      sleep: async () => {
        inFlightWhileWaiting.push(limiter.callsInFlight);
      },
    });
    expect((await model.complete(ask())).text).toBe('ok');
    expect(inFlightWhileWaiting).toEqual([0]);
  });
});
