/**
 * The model factory: ModelSpec validation (no key can ride in a spec), what the run form may see, where the key is
 * sent (only to OPENAI_BASE_URL's origin), OpenAI runs recorded, a replay of a run built from its events, and the
 * model server's limit of requests in flight shared by every run of the process.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import type { LanguageModel } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import {
  createRng,
  hashString,
  ModelError,
  recordingFromEvents,
  RecordingModel,
  ReplayModel,
} from '../../models/index';
import { game24Simulation, game24Task } from '../../tasks/index';
import { type FakeOpenAIServer, completionBody, startFakeOpenAI } from '../../models/testing';
import { readEnv } from '../core/env';
import { modelSpecSchema } from '../../contract/model-spec';
import { type ModelEnv, createModel, listBackends, modelLabel, specModelId } from './model-factory';

const KEY = 'sk-test-SECRET-1234';

const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function game24Server(): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAI((received) => {
    const messages = received.body?.messages ?? [];
    const request = { purpose: 'generate' as const, messages: messages as never };
    const text = game24Simulation.respond(request, createRng(hashString(JSON.stringify(messages), 3)));
    return { json: completionBody(text) };
  });
  servers.push(server);
  return server;
}

const envFor = (baseURL: string, key: string | null = KEY): ModelEnv =>
  readEnv({ OPENAI_BASE_URL: baseURL, ...(key ? { OPENAI_API_KEY: key } : {}) });

describe('modelSpecSchema', () => {
  it('takes an OpenAI spec with the server preset by default, and strips anything like a key', () => {
    const spec = modelSpecSchema.parse({ provider: 'openai', model: 'gpt-4o-mini', apiKey: KEY });
    expect(spec).toEqual({ provider: 'openai', baseUrlPreset: 'openai', model: 'gpt-4o-mini' });
    expect(JSON.stringify(spec)).not.toContain(KEY);
    const full = modelSpecSchema.parse({
      provider: 'openai',
      baseUrlPreset: 'custom',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1:8b',
      temperature: 0.4,
      reasoningEffort: 'high',
      jsonMode: true,
      timeoutMs: 30_000,
    });
    expect(full).toMatchObject({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b', jsonMode: true });
  });

  it('refuses inconsistent or unsafe OpenAI specs, naming the field', () => {
    const issues = (input: unknown) =>
      modelSpecSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];
    expect(issues({ provider: 'openai', baseUrlPreset: 'custom', model: 'm' })).toEqual([
      'baseURL: a custom server needs its base URL',
    ]);
    expect(issues({ provider: 'openai', baseURL: 'http://x.test/v1', model: 'm' })).toEqual([
      'baseURL: a base URL is given only with the custom preset',
    ]);
    expect(
      issues({ provider: 'openai', baseUrlPreset: 'custom', baseURL: 'http://user:pw@x.test/v1', model: 'm' }),
    ).toEqual(['baseURL: a base URL carries no credentials or query (the key comes from the server)']);
    expect(issues({ provider: 'openai', baseUrlPreset: 'custom', baseURL: 'file:///etc/passwd', model: 'm' })).toEqual([
      'baseURL: must be an http(s) URL',
    ]);
    expect(issues({ provider: 'openai', model: ' ' })[0]).toMatch(/^model: /);
    expect(issues({ provider: 'openai', model: 'm', temperature: 3 })[0]).toMatch(/^temperature: /);
    expect(issues({ provider: 'openai', model: 'm', reasoningEffort: 'max' })[0]).toMatch(/^reasoningEffort: /);
  });

  it('takes a replay spec naming the recorded run; it has no seed', () => {
    expect(modelSpecSchema.parse({ provider: 'replay', recordingRunId: 'run-1' })).toEqual({
      provider: 'replay',
      recordingRunId: 'run-1',
    });
    expect(modelSpecSchema.safeParse({ provider: 'replay', recordingRunId: '' }).success).toBe(false);
    expect(modelSpecSchema.safeParse({ provider: 'replay', recordingRunId: 'r', seed: 1 }).success).toBe(false);
  });
});

describe('listBackends', () => {
  it('says whether OpenAI is configured, its default base URL and model, never the key', () => {
    expect(listBackends(readEnv({}))).toEqual({
      simulated: true,
      openai: { configured: false, defaultBaseURL: 'https://api.openai.com/v1', defaultModel: 'gpt-4o-mini' },
      servers: [],
    });
    const configured = listBackends(readEnv({ OPENAI_API_KEY: KEY, ARBORIST_DEFAULT_MODEL: 'gpt-4.1-mini' }));
    expect(configured.openai).toEqual({
      configured: true,
      defaultBaseURL: 'https://api.openai.com/v1',
      defaultModel: 'gpt-4.1-mini',
    });
    expect(JSON.stringify(configured)).not.toContain(KEY);
  });
});

describe('createModel', () => {
  it('an OpenAI spec: the server preset gets the key, and the model is recorded', async () => {
    const server = await game24Server();
    const model = createModel(
      { provider: 'openai', baseUrlPreset: 'openai', model: 'gpt-4o-mini' },
      {
        env: envFor(server.baseURL),
      },
    );
    expect(model).toBeInstanceOf(RecordingModel);
    expect(model.id).toBe('gpt-4o-mini');
    await model.complete({ purpose: 'generate', messages: [{ role: 'user', content: 'Game of 24 — propose' }] });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((model as RecordingModel).recording().calls).toHaveLength(1);
    expect(JSON.stringify(model)).not.toContain(KEY);
  });

  it("a custom base URL never gets the key, even on OPENAI_BASE_URL's origin: only the openai preset does", async () => {
    const keyed = await game24Server();
    const other = await game24Server();
    const env = envFor(keyed.baseURL);
    const ask = (m: LanguageModel) =>
      m.complete({ purpose: 'generate', messages: [{ role: 'user', content: 'Game of 24 — propose' }] });
    await ask(
      createModel({ provider: 'openai', baseUrlPreset: 'custom', baseURL: other.baseURL, model: 'm' }, { env }),
    );
    await ask(
      createModel({ provider: 'openai', baseUrlPreset: 'custom', baseURL: keyed.baseURL, model: 'm' }, { env }),
    );
    await ask(createModel({ provider: 'openai', baseUrlPreset: 'openai', model: 'm' }, { env }));
    expect(other.requests[0]?.headers.authorization).toBe('Bearer no-key');
    expect(keyed.requests.map((r) => r.headers.authorization)).toEqual(['Bearer no-key', `Bearer ${KEY}`]);
  });

  it("OPENAI_API_KEY goes only on the openai preset; a listed server gets only its own apiKeyEnv's key", async () => {
    const keyed = await game24Server();
    const withKey = await game24Server();
    const keyless = await game24Server();
    const env = readEnv({
      OPENAI_BASE_URL: keyed.baseURL,
      OPENAI_API_KEY: KEY,
      VLLM_KEY: 'vllm-SECRET-5678',
      ARBORIST_MODEL_SERVERS: JSON.stringify([
        { id: 'gpu', label: 'GPU box', baseURL: withKey.baseURL, apiKeyEnv: 'VLLM_KEY' },
        { id: 'cpu', label: 'CPU box', baseURL: keyless.baseURL },
        // listed at OPENAI_BASE_URL's own origin, with no key of its own: it gets none
        { id: 'same', label: 'Same origin', baseURL: keyed.baseURL },
      ]),
    });
    const ask = (m: LanguageModel) =>
      m.complete({ purpose: 'generate', messages: [{ role: 'user', content: 'Game of 24 — propose' }] });
    const listed = (serverId: string) =>
      createModel({ provider: 'openai', baseUrlPreset: 'server', serverId, model: 'm' }, { env });
    await ask(listed('gpu'));
    await ask(listed('cpu'));
    await ask(listed('same'));
    await ask(createModel({ provider: 'openai', baseUrlPreset: 'openai', model: 'm' }, { env }));
    expect(withKey.requests.map((r) => r.headers.authorization)).toEqual(['Bearer vllm-SECRET-5678']);
    expect(keyless.requests.map((r) => r.headers.authorization)).toEqual(['Bearer no-key']);
    expect(keyed.requests.map((r) => r.headers.authorization)).toEqual(['Bearer no-key', `Bearer ${KEY}`]);

    const backends = listBackends(env);
    expect(backends.servers).toEqual([
      { id: 'gpu', label: 'GPU box', baseURL: withKey.baseURL, models: [] },
      { id: 'cpu', label: 'CPU box', baseURL: keyless.baseURL, models: [] },
      { id: 'same', label: 'Same origin', baseURL: keyed.baseURL, models: [] },
    ]);
    expect(JSON.stringify(backends)).not.toMatch(/SECRET|VLLM_KEY/);
    expect(() => listed('gone')).toThrow(/"gone" is not listed in ARBORIST_MODEL_SERVERS/);
    expect(modelLabel({ provider: 'openai', baseUrlPreset: 'server', serverId: 'gpu', model: 'm' })).toBe('m @ gpu');
  });

  it('OpenAI itself without a key is a configuration error that says what to set', () => {
    const attempt = () =>
      createModel({ provider: 'openai', baseUrlPreset: 'openai', model: 'gpt-4o' }, { env: readEnv({}) });
    expect(attempt).toThrow(ModelError);
    expect(attempt).toThrow(/OPENAI_API_KEY is not set on the server/);
  });

  it('a local server as OPENAI_BASE_URL needs no key', async () => {
    const server = await game24Server();
    const model = createModel(
      { provider: 'openai', baseUrlPreset: 'openai', model: 'llama' },
      { env: envFor(server.baseURL, null) },
    );
    await model.complete({ purpose: 'generate', messages: [{ role: 'user', content: 'Game of 24 — propose' }] });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key');
  });

  it('a replay without its recording says so; with it, it is named after the recorded model', () => {
    const spec = modelSpecSchema.parse({ provider: 'replay', recordingRunId: 'source-run' });
    expect(() => createModel(spec)).toThrow(/no recording of run source-run was loaded/);
    const recording = recordingFromEvents([], 'gpt-4o');
    const model = createModel(spec, { recordings: new Map([['source-run', recording]]) });
    expect(model).toBeInstanceOf(ReplayModel);
    expect(model.id).toBe('gpt-4o');
    expect(specModelId(spec, recording)).toBe('gpt-4o');
    expect(modelLabel(spec, recording)).toBe('gpt-4o (replay)');
    expect(modelLabel(spec)).toBe('replay of run source-r');
  });

  it('labels and model ids of every provider', () => {
    const openai = modelSpecSchema.parse({ provider: 'openai', model: 'gpt-4o-mini' });
    const custom = modelSpecSchema.parse({
      provider: 'openai',
      baseUrlPreset: 'custom',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1:8b',
    });
    const simulated = modelSpecSchema.parse({ provider: 'simulated' });
    expect([openai, custom, simulated].map((s) => [specModelId(s), modelLabel(s)])).toEqual([
      ['gpt-4o-mini', 'gpt-4o-mini'],
      ['llama3.1:8b', 'llama3.1:8b @ 127.0.0.1:11434'],
      ['simulated', 'simulated'],
    ]);
  });

  it("a run replayed from another run's events makes the same events (the server's replay path)", async () => {
    const server = await game24Server();
    const run = async (model: LanguageModel) => {
      const events: ExplorationEvent[] = [];
      await new ThoughtTreeExecutor({ maxTotalNodes: 20 }).explore({ name: 'arborist', model }, '1 1 4 6', {
        task: game24Task,
        runId: 'r',
        onEvent: (e) => events.push(e),
      });
      return events.map((e) => ({
        ...e,
        ts: 0,
        payload: e.type === 'model.called' ? { ...e.payload, latencyMs: 0, startedAt: 0 } : e.payload,
      }));
    };
    const source = await run(
      createModel(modelSpecSchema.parse({ provider: 'openai', model: 'gpt-4o-mini' }), { env: envFor(server.baseURL) }),
    );
    await server.close();
    // what the run manager does for a replay run: the source run's events become its recording
    const recording = recordingFromEvents(source as ExplorationEvent[], 'gpt-4o-mini');
    const spec = modelSpecSchema.parse({ provider: 'replay', recordingRunId: 'source' });
    const replayed = await run(createModel(spec, { recordings: new Map([['source', recording]]) }));
    expect(replayed).toEqual(source);
    expect(JSON.stringify({ source, recording })).not.toContain(KEY);
  });
});

describe("createModel: the model server's limit of requests in flight (ARBORIST_MODEL_SERVER_MAX_CALLS)", () => {
  /** A Game of 24 server that takes a little while per answer and counts the requests it is answering at once. */
  async function countingServer(): Promise<{ server: FakeOpenAIServer; most: () => number }> {
    let now = 0;
    let most = 0;
    const server = await startFakeOpenAI(async (received) => {
      now += 1;
      most = Math.max(most, now);
      await new Promise((r) => setTimeout(r, 15));
      now -= 1;
      const messages = received.body?.messages ?? [];
      const request = { purpose: 'generate' as const, messages: messages as never };
      const text = game24Simulation.respond(request, createRng(hashString(JSON.stringify(messages), 3)));
      return { json: completionBody(text) };
    });
    servers.push(server);
    return { server, most: () => most };
  }

  /** Two runs at once on one server, each allowed 8 calls in flight of its own (an expansion's 8 evaluations). */
  async function twoRunsAtOnce(env: ModelEnv) {
    const spec = modelSpecSchema.parse({ provider: 'openai', model: 'gpt-4o-mini' });
    const config = { maxTotalNodes: 20, branchFactor: 8, beamWidth: 2, maxConcurrentCalls: 8 };
    return Promise.all(
      ['1 1 4 6', '4 9 10 13'].map(async (goal, i) => {
        const events: ExplorationEvent[] = [];
        const result = await new ThoughtTreeExecutor(config).explore(
          { name: 'arborist', model: createModel(spec, { env }) },
          goal,
          { task: game24Task, runId: `run-${i}`, onEvent: (e) => events.push(e) },
        );
        return { events, result };
      }),
    );
  }

  it('two runs on one server never have more requests in flight there than the limit, and both finish', async () => {
    const { server, most } = await countingServer();
    const runs = await twoRunsAtOnce(
      readEnv({ OPENAI_BASE_URL: server.baseURL, ARBORIST_MODEL_SERVER_MAX_CALLS: '3' }),
    );
    expect(most()).toBe(3);
    const calls = runs.flatMap((r) => r.events.filter((e) => e.type === 'model.called'));
    expect(calls.length).toBeGreaterThan(16);
    expect(server.requests).toHaveLength(calls.length);
    for (const { events, result } of runs) {
      expect(events.at(-1)?.type).toBe('run.finished');
      expect(result.finishReason).not.toBe('error');
      expect(events.every((e) => e.type !== 'model.called' || e.payload.error === null)).toBe(true);
    }

    // the same two runs under the default limit (16): the server sees more than 3 at once, so the limit is what held
    const control = await countingServer();
    await twoRunsAtOnce(readEnv({ OPENAI_BASE_URL: control.server.baseURL }));
    expect(control.most()).toBeGreaterThan(3);
  });
});
