/**
 * A whole search over HTTP: the engine drives OpenAIModel against a local server that answers the Game of 24's
 * propose and value prompts with the task's own offline simulation (deterministically), so every model call of the
 * search crosses a real socket. The events must carry prompt, response, tokens, latency and cost; the key must stay
 * out of everything; the recorded run must replay offline into the same event log. A server that rate-limits or
 * keeps failing: every attempt is in the call's event and counted in stats, and one refused node fails, not the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import { fold, type LanguageModel, priceCall, type ToTResult } from '../engine/index';
import { MAX_CONSECUTIVE_MODEL_FAILURES, ThoughtTreeExecutor } from '../engine/server';
import { game24Task } from '../tasks/index';
import { ModelError } from './model-error';
import { OpenAIModel } from './openai';
import { game24Handler } from '../tasks/testing/game24-openai';
import { RecordingModel, ReplayModel, recordingFromEvents } from './recording';
import { countTokens } from './simulated';
import { type FakeOpenAIServer, type Handler, errorBody, startFakeOpenAI } from './testing';

const KEY = 'sk-test-SECRET-1234';
const GOAL = '4 9 10 13';
const CONFIG = { maxTotalNodes: 30, branchFactor: 4, beamWidth: 2 };

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI(handler);
  servers.push(server);
  return server;
}

async function explore(
  model: LanguageModel,
  goal = GOAL,
  config: Partial<ToTConfig> = CONFIG,
): Promise<{ events: ExplorationEvent[]; result: ToTResult }> {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor(config).explore({ name: 'arborist', model }, goal, {
    task: game24Task,
    runId: 'run-1',
    onEvent: (e) => events.push(e),
  });
  return { events, result };
}

function modelCalls(events: ExplorationEvent[]) {
  return events.flatMap((e) => (e.type === 'model.called' ? [e.payload] : []));
}

/** The log without what differs between two runs of the same calls: timestamps and latencies. */
function comparable(events: ExplorationEvent[]): unknown[] {
  return events.map((e) => ({
    ...e,
    ts: 0,
    payload: e.type === 'model.called' ? { ...e.payload, latencyMs: 0, startedAt: 0 } : e.payload,
  }));
}

const openai = (server: FakeOpenAIServer, model = 'gpt-4o-mini') =>
  new OpenAIModel({ apiKey: KEY, baseURL: server.baseURL, model, sleep: async () => undefined });

describe('a whole search through OpenAIModel over HTTP', () => {
  it('records prompt, response, tokens, latency and cost of every call, and never the key', async () => {
    const server = await serve(game24Handler());
    const model = new RecordingModel(openai(server));
    const { events, result } = await explore(model);

    const calls = modelCalls(events);
    expect(calls.length).toBeGreaterThan(5);
    expect(server.requests).toHaveLength(calls.length);
    expect(calls.map((c) => c.purpose)).toEqual(expect.arrayContaining(['generate', 'evaluate']));
    const sent = server.requests.map((r) => JSON.stringify(r.body?.messages)).sort();
    expect(calls.map((c) => JSON.stringify(c.messages)).sort()).toEqual(sent);
    for (const call of calls) {
      expect(call.modelId).toBe('gpt-4o-mini');
      expect(call.error).toBeNull();
      expect(call.response).toEqual(expect.any(String));
      const prompt = call.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
      expect(call.usage).toEqual({ inputTokens: prompt, outputTokens: countTokens(call.response ?? '') });
      expect(call.cost).toBeCloseTo(priceCall('gpt-4o-mini', call.usage) ?? NaN, 12);
      expect(call.cost).toBeGreaterThan(0);
      expect(call.latencyMs).toBeGreaterThanOrEqual(0);
    }
    expect(events.at(-1)?.type).toBe('run.finished');
    expect(result.stats.modelCalls).toBe(calls.length);
    expect(result.stats.unpricedCalls).toBe(0);
    expect(result.stats.cost).toBeCloseTo(
      calls.reduce((sum, c) => sum + (c.cost ?? 0), 0),
      12,
    );
    expect(result.stats.tokenUsage.inputTokens).toBe(calls.reduce((sum, c) => sum + c.usage.inputTokens, 0));
    // every request carried the key, and nothing the run produced does
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const everything = JSON.stringify({ events, result, recording: model.recording(), model });
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('SECRET');
  });

  it('a model with no known price counts tokens and gives a null cost ("no price")', async () => {
    const server = await serve(game24Handler());
    const { events, result } = await explore(openai(server, 'my-local-llama'));
    const calls = modelCalls(events);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.cost).toBeNull();
      expect(call.usage.inputTokens).toBeGreaterThan(0);
    }
    expect(result.stats.unpricedCalls).toBe(calls.length);
    expect(result.stats.cost).toBe(0);
    expect(result.stats.tokenUsage.totalTokens).toBeGreaterThan(0);
  });

  it('records a run, then replays it offline (server stopped) into the same event log', async () => {
    const server = await serve(game24Handler());
    const recorder = new RecordingModel(openai(server));
    const original = await explore(recorder);
    await server.close();

    const fromModel = recorder.recording();
    const fromEvents = recordingFromEvents(original.events, 'gpt-4o-mini');
    // the same calls; the model's in the order they were made, the log's in the search's order (a beam level's
    // calls run together, issue 30), and a replay answers by fingerprint, so the order between requests is free
    const prints = (r: typeof fromModel) => r.calls.map((c) => c.fingerprint).sort();
    expect(prints(fromEvents)).toEqual(prints(fromModel));
    expect(fromEvents.calls.length).toBe(modelCalls(original.events).length);
    // the model id defaults to the one run.started names
    expect(recordingFromEvents(original.events)).toEqual(fromEvents);
    expect(JSON.stringify(fromEvents)).not.toContain(KEY);

    for (const recording of [fromModel, fromEvents]) {
      const replay = new ReplayModel(JSON.parse(JSON.stringify(recording)));
      const again = await explore(replay);
      expect(comparable(again.events)).toEqual(comparable(original.events));
      expect(again.result.output).toBe(original.result.output);
      expect(replay.remaining()).toBe(0);
    }
  });

  it('a replay asked something that was never recorded reports it in the event, and the run ends', async () => {
    const server = await serve(game24Handler());
    const recorder = new RecordingModel(openai(server));
    await explore(recorder);
    const replay = new ReplayModel(recorder.recording());
    const { events, result } = await explore(replay, '1 2 3 4');
    const failed = modelCalls(events).filter((c) => c.error !== null);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.error).toMatch(/^replay: this generate call was never recorded \(fingerprint [0-9a-f]{16}…\)/);
    expect(failed[0]?.response).toBeNull();
    expect(result.success).toBe(false);
    const direct = await replay
      .complete({ purpose: 'evaluate', messages: [{ role: 'user', content: 'never asked' }] })
      .catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(ModelError);
    expect((direct as ModelError).kind).toBe('not-recorded');
    expect((direct as ModelError).purpose).toBe('evaluate');
  });

  it('a backend that goes down mid-run: failed calls record its message, and the run ends on the failure streak', async () => {
    const answer = game24Handler();
    // the root's expansion and its 8 evaluations succeed, then every call fails
    const server = await serve((request, index) =>
      index < 9 ? answer(request, index) : { status: 500, json: errorBody('The server had an error', 'server_error') },
    );
    const model = new OpenAIModel({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      maxRetries: 1,
      sleep: async () => undefined,
    });
    // every candidate is kept, so there is always a sibling to backtrack to
    const wide = { maxTotalNodes: 30, branchFactor: 8, beamWidth: 8, confidenceThreshold: 0 };
    const { events, result } = await explore(model, GOAL, wide);
    const failed = modelCalls(events).filter((c) => c.error !== null);
    expect(failed.length).toBeGreaterThanOrEqual(MAX_CONSECUTIVE_MODEL_FAILURES);
    for (const call of failed) {
      expect(call.error).toContain('had a server error (HTTP 500), on all 2 attempts');
      expect(call.response).toBeNull();
      expect(call.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
    }
    expect(result.finishReason).toBe('error');
    const finished = events.at(-1);
    expect(finished?.type === 'run.finished' && finished.payload.detail).toMatch(
      /the model failed \d+ times in a row: .*had a server error/,
    );
  });
});

describe('a whole search against a server that refuses: every attempt in the trace, one node failed, not the run', () => {
  it('a 429 with Retry-After, then 200: the call records both attempts, the wait honoured, and stats count the retry', async () => {
    const answer = game24Handler();
    const server = await serve((request, index) =>
      index === 0
        ? {
            status: 429,
            headers: { 'retry-after': '1' },
            json: errorBody('Rate limit reached MARKER-OF-THE-SERVER', 'requests'),
          }
        : answer(request, index),
    );
    // a clock that the wait to retry moves (no real waiting): the attempts' times are the model's clock
    const offset = { ms: 0 };
    const sleeps: number[] = [];
    const model = new OpenAIModel({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      now: () => Date.now() + offset.ms,
      sleep: async (ms) => {
        sleeps.push(ms);
        offset.ms += ms;
      },
    });
    const { events, result } = await explore(model);

    const calls = modelCalls(events);
    const retried = calls.filter((c) => c.attempts !== undefined);
    expect(retried).toHaveLength(1);
    const call = retried[0];
    expect(call?.purpose).toBe('generate');
    expect(call?.error).toBeNull();
    expect(call?.response).toEqual(expect.any(String));
    const [first, second] = call?.attempts ?? [];
    expect(first).toMatchObject({ status: 429, waitMs: 1000 });
    expect(first?.error).toMatch(/is rate-limiting requests \(HTTP 429\)/);
    expect(second).toMatchObject({ status: 200, error: null, waitMs: null });
    // the second attempt began only after the first ended and the server's second had passed
    expect(second?.startedAt).toBeGreaterThanOrEqual((first?.startedAt ?? 0) + (first?.latencyMs ?? 0) + 1000);
    expect(sleeps).toEqual([1000]);
    // the server's 429 and its answer: one request more than the calls
    expect(server.requests).toHaveLength(calls.length + 1);
    expect(fold(events).stats.retries).toBe(1);
    expect(result.stats.retries).toBe(1);
    expect(events.at(-1)?.type).toBe('run.finished');
    expect(JSON.stringify(events)).not.toContain('MARKER');
  });

  it("a server that keeps answering 503 for one node's call fails that node, and the search goes on to its end", async () => {
    const answer = game24Handler();
    // the first propose prompt past the root's is refused on every attempt; everything else is answered
    let doomed: string | null = null;
    const server = await serve((request, index) => {
      const messages = JSON.stringify(request.body?.messages ?? []);
      const proposesPastRoot = /Game of 24 — propose/.test(messages) && !messages.includes('(none yet)');
      if (doomed === null && proposesPastRoot) doomed = messages;
      if (messages === doomed) {
        return { status: 503, raw: 'upstream overloaded MARKER-OF-THE-SERVER', contentType: 'text/plain' };
      }
      return answer(request, index);
    });
    const model = new OpenAIModel({
      apiKey: KEY,
      baseURL: server.baseURL,
      model: 'gpt-4o-mini',
      maxRetries: 2,
      sleep: async () => undefined,
    });
    const { events, result } = await explore(model);

    const refused = modelCalls(events).filter((c) => c.error !== null);
    expect(refused).toHaveLength(1);
    const call = refused[0];
    expect(call?.error).toContain('had a server error (HTTP 503), on all 3 attempts: try again later');
    expect(call?.attempts?.map((a) => a.status)).toEqual([503, 503, 503]);
    expect(call?.attempts?.at(-1)?.waitMs).toBeNull();
    expect(server.requests.filter((r) => JSON.stringify(r.body?.messages) === doomed)).toHaveLength(3);
    const failed = events.flatMap((e) => (e.type === 'node.failed' ? [e.payload] : []));
    expect(failed).toContainEqual({
      nodeId: call?.nodeId,
      reason: expect.stringContaining('model error while generating: ') as unknown,
    });
    expect(failed.find((f) => f.nodeId === call?.nodeId)?.reason).toContain('(HTTP 503), on all 3 attempts');
    // the search went on after that node, and ended for a reason of its own, not the model's
    const refusedAt = events.findIndex((e) => e.type === 'model.called' && e.payload.error !== null);
    expect(events.slice(refusedAt + 1).some((e) => e.type === 'model.called' && e.payload.error === null)).toBe(true);
    expect(events.at(-1)?.type).toBe('run.finished');
    expect(result.finishReason).not.toBe('error');
    expect(fold(events).stats.retries).toBe(2);
    // our words only: the status and a fixed phrase, never the body (see openai.ts's header)
    expect(JSON.stringify(events)).not.toContain('MARKER');
  });
});
