/**
 * Test support: a real HTTP server on 127.0.0.1 (port 0) that speaks OpenAI's chat completions wire format, so
 * tests drive OpenAIModel and the SDK over real sockets instead of mocking them. A handler decides each reply:
 * a completion, an error body, a delay, a malformed body, or no answer at all.
 * Not a simulation of a model: a test's handler says what to answer (see openai.test.ts).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (null when it is not JSON). */
  body: ChatBody | null;
}

export interface ChatBody {
  model: string;
  messages: { role: string; content: string }[];
  [key: string]: unknown;
}

export interface Reply {
  status?: number;
  /** A JSON body. */
  json?: unknown;
  /** A raw body (wins over json). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Wait before sending anything (ms). */
  delayMs?: number;
  /** Send the headers and the first bytes, then wait this long before the rest (ms). */
  bodyDelayMs?: number;
  /** Never answer (the client must give up or abort). */
  hang?: boolean;
}

export type Handler = (request: ReceivedRequest, index: number) => Reply | Promise<Reply>;

export interface FakeOpenAIServer {
  /** The base URL, ending in /v1. */
  baseURL: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Requests whose connection closed before the reply was finished. */
  closedEarly: number;
  /** Resolves when the next connection closes before its reply was finished. */
  nextEarlyClose(): Promise<void>;
  close(): Promise<void>;
}

/** A chat completion as OpenAI sends it; `usage: null` leaves usage out. */
export function completionBody(
  text: string | null,
  options: {
    model?: string;
    usage?: { prompt_tokens: number; completion_tokens: number } | null;
    finishReason?: string;
  } = {},
): unknown {
  const usage =
    options.usage === null
      ? undefined
      : (options.usage ?? { prompt_tokens: 10, completion_tokens: text ? Math.ceil(text.length / 4) : 0 });
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: options.model ?? 'test-model',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null },
        finish_reason: options.finishReason ?? 'stop',
        logprobs: null,
      },
    ],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

/** An error body in OpenAI's format. */
export function errorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

export async function startFakeOpenAI(handler: Handler): Promise<FakeOpenAIServer> {
  const requests: ReceivedRequest[] = [];
  let earlyWaiters: (() => void)[] = [];
  const state = { closedEarly: 0 };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: ChatBody | null = null;
      try {
        body = JSON.parse(text) as ChatBody;
      } catch {
        body = null;
      }
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      const index = requests.length;
      requests.push(received);
      res.on('close', () => {
        if (res.writableFinished) return;
        state.closedEarly += 1;
        const waiters = earlyWaiters;
        earlyWaiters = [];
        for (const w of waiters) w();
      });
      if (received.method !== 'POST' || received.path !== '/v1/chat/completions') {
        send(res, {
          status: 404,
          json: errorBody(`Invalid URL (${received.method} ${received.path})`, 'invalid_request_error'),
        });
        return;
      }
      void Promise.resolve(handler(received, index)).then((reply) => respond(res, reply));
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get closedEarly() {
      return state.closedEarly;
    },
    nextEarlyClose: () => new Promise<void>((resolve) => earlyWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: ServerResponse, reply: Reply): Promise<void> {
  if (reply.hang) return;
  if (reply.delayMs) await wait(reply.delayMs, res);
  if (res.destroyed) return;
  send(res, reply);
}

function send(res: ServerResponse, reply: Reply): void {
  const body = reply.raw ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  res.writeHead(reply.status ?? 200, {
    'content-type': reply.contentType ?? 'application/json',
    ...(reply.headers ?? {}),
  });
  if (reply.bodyDelayMs && body.length > 1) {
    res.write(body.slice(0, 1));
    void wait(reply.bodyDelayMs, res).then(() => {
      if (!res.destroyed) res.end(body.slice(1));
    });
    return;
  }
  res.end(body);
}

/** Waits, or stops waiting when the client goes away. */
function wait(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
