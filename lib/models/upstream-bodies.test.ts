/**
 * A server's reply that is not a chat completion never reaches a run's events: whole searches through OpenAIModel
 * against a real local server that answers with an HTML page, a 404 page, JSON error bodies, a 200 body that is not a
 * completion, plain text and malformed JSON, each carrying a unique marker. The events (and the result, which the
 * run row is made from) must say the status and a fixed phrase, and hold the marker nowhere. A valid completion's
 * content is the model's answer, and is stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { ThoughtTreeExecutor } from '../engine/server';
import { game24Task } from '../tasks/index';
import { game24Handler } from '../tasks/testing/game24-openai';
import { OpenAIModel } from './openai';
import { RecordingModel } from './recording';
import { type FakeOpenAIServer, type Handler, type Reply, errorBody, startFakeOpenAI } from './testing';

const MARKER = 'UPSTREAM-MARKER-7f3a9c';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function searchAgainst(handler: Handler, baseURL?: (server: FakeOpenAIServer) => string) {
  const server = await startFakeOpenAI(handler);
  servers.push(server);
  const model = new RecordingModel(
    new OpenAIModel({
      baseURL: baseURL ? baseURL(server) : server.baseURL,
      model: 'gpt-4o-mini',
      maxRetries: 1,
      sleep: async () => undefined,
    }),
  );
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor({ maxTotalNodes: 6, branchFactor: 2, beamWidth: 1 }).explore(
    { name: 'arborist', model },
    '4 9 10 13',
    { task: game24Task, runId: 'run-1', onEvent: (e) => events.push(e) },
  );
  const errors = events.flatMap((e) => (e.type === 'model.called' && e.payload.error ? [e.payload.error] : []));
  return { events, result, errors, server };
}

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${MARKER}</body></html>`;

const REPLIES: [string, Reply, RegExp][] = [
  ['an HTML page with 200', { raw: page('Welcome'), contentType: 'text/html' }, /a text body instead of JSON/],
  ['a 404 page', { status: 404, raw: page('Not Found'), contentType: 'text/html' }, /was not found \(HTTP 404\)/],
  [
    'a JSON error body (400)',
    { status: 400, json: errorBody(`bad thing: ${MARKER}`, 'invalid_request_error', 'bad_param') },
    /rejected the request \(HTTP 400\)/,
  ],
  ['a JSON error body (500)', { status: 500, json: { detail: MARKER } }, /had a server error \(HTTP 500\)/],
  ['an HTML error page (502)', { status: 502, raw: page('Bad Gateway'), contentType: 'text/html' }, /HTTP 502/],
  ['a 401 with a body', { status: 401, json: errorBody(MARKER, 'auth') }, /HTTP 401/],
  ['a 200 JSON body that is no completion', { json: { result: MARKER, ok: true } }, /not a chat completion/],
  ['a 200 plain-text body', { raw: `hello ${MARKER}`, contentType: 'text/plain' }, /a text body instead of JSON/],
  ['a 200 body of malformed JSON', { raw: `{"choices": [{"${MARKER}` }, /malformed JSON/],
  [
    'a 200 completion with no text and a made-up finish_reason',
    { json: { choices: [{ message: { role: 'assistant', content: '' }, finish_reason: MARKER }] } },
    /returned no text \(finish_reason: other\)/,
  ],
];

describe("an upstream server's body is never stored", () => {
  it.each(REPLIES)('%s: the events say the status and a fixed phrase, never the body', async (_, reply, said) => {
    const { events, result, errors } = await searchAgainst(() => reply);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(said);
    expect(JSON.stringify(events)).not.toContain(MARKER);
    expect(JSON.stringify({ ...result, tree: null })).not.toContain(MARKER);
  });

  it('a redirect is not followed: the call is refused and the other server is never asked', async () => {
    const target = await startFakeOpenAI(game24Handler());
    servers.push(target);
    const { errors, events } = await searchAgainst(() => ({
      status: 302,
      headers: { location: `${target.baseURL}/chat/completions` },
      raw: page('Moved'),
      contentType: 'text/html',
    }));
    expect(errors[0]).toMatch(/HTTP 302/);
    expect(target.requests).toHaveLength(0);
    expect(JSON.stringify(events)).not.toContain(MARKER);
  });

  it("a valid completion's content is stored, while the failing calls beside it store none of their body", async () => {
    const answer = game24Handler();
    const { events, errors } = await searchAgainst((request, index) =>
      // the propose calls answer; every evaluation gets an error page
      /propose|possible next steps/i.test(JSON.stringify(request.body?.messages)) || index === 0
        ? answer(request, index)
        : { status: 503, raw: page('Service Unavailable'), contentType: 'text/html' },
    );
    const answered = events.flatMap((e) => (e.type === 'model.called' && e.payload.response ? [e] : []));
    expect(answered.length).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain(MARKER);
  });
});
