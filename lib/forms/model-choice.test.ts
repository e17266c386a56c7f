import { describe, expect, it } from 'vitest';
import { modelSpecSchema } from '@/lib/contract/model-spec';
import {
  BASE_URL_PRESETS,
  defaultModelChoice,
  modelChoiceError,
  modelSpec,
  forkModelNote,
  parentModel,
  serverSelectValue,
  withServer,
} from './model-choice';

describe('the run form’s model choice', () => {
  it('makes specs the server accepts, for every provider', () => {
    const sim = modelSpec(defaultModelChoice(), { seed: 3, latencyMs: 150 });
    expect(modelSpecSchema.parse(sim)).toMatchObject({ provider: 'simulated', seed: 3 });
    const local = {
      ...defaultModelChoice(),
      provider: 'openai' as const,
      baseUrlPreset: 'custom' as const,
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3.1',
      temperature: '0.7',
      jsonMode: true,
    };
    expect(modelChoiceError(local)).toBeNull();
    expect(modelSpecSchema.parse(modelSpec(local, { seed: 1, latencyMs: 0 }))).toMatchObject({
      provider: 'openai',
      baseURL: 'http://localhost:11434/v1',
      model: 'llama3.1',
      temperature: 0.7,
      jsonMode: true,
    });
    const replay = { ...defaultModelChoice(), provider: 'replay' as const, recordingRunId: 'abc' };
    expect(modelSpecSchema.parse(modelSpec(replay, { seed: 1, latencyMs: 0 }))).toEqual({
      provider: 'replay',
      recordingRunId: 'abc',
    });
  });

  it('says what is missing before sending', () => {
    expect(modelChoiceError({ ...defaultModelChoice(), provider: 'openai', model: ' ' })).toMatch(/name the model/);
    expect(
      modelChoiceError({ ...defaultModelChoice(), provider: 'openai', baseUrlPreset: 'custom', baseURL: 'localhost' }),
    ).toMatch(/base URL/);
    expect(modelChoiceError({ ...defaultModelChoice(), provider: 'openai', temperature: '3' })).toMatch(/temperature/);
    expect(modelChoiceError({ ...defaultModelChoice(), provider: 'replay' })).toMatch(/pick the run/);
  });
});

describe('the server select shows what is chosen (issue 10, item 16)', () => {
  const openai = { ...defaultModelChoice(), provider: 'openai' as const };
  it('shows "Custom URL" when a custom URL is chosen, empty or typed, and a preset only when it is that URL', () => {
    expect(serverSelectValue({ ...openai, baseUrlPreset: 'custom', baseURL: '' })).toBe('custom');
    expect(serverSelectValue({ ...openai, baseUrlPreset: 'custom', baseURL: 'http://gpu-box:9000/v1' })).toBe('custom');
    expect(serverSelectValue({ ...openai, baseUrlPreset: 'custom', baseURL: 'http://localhost:11434/v1' })).toBe(
      'http://localhost:11434/v1',
    );
    expect(serverSelectValue({ ...openai, baseUrlPreset: 'openai' })).toBe('openai');
  });
  it('every value it gives is one of the select options', () => {
    const options = ['openai', ...BASE_URL_PRESETS.map((p) => p.url), 'custom'];
    for (const baseURL of ['', 'http://x/v1', ...BASE_URL_PRESETS.map((p) => p.url)]) {
      expect(options).toContain(serverSelectValue({ ...openai, baseUrlPreset: 'custom', baseURL }));
    }
  });
});

describe("the operator's listed servers (issue 12)", () => {
  const servers = [
    {
      id: 'vllm',
      label: 'vLLM on gpu-box',
      baseURL: 'http://10.0.0.5:8000/v1',
      models: ['qwen2.5-7b', 'llama-3.1-8b'],
    },
    { id: 'any', label: 'Any model', baseURL: 'http://10.0.0.6:8000/v1', models: [] },
  ];
  const openai = { ...defaultModelChoice('gpt-4o-mini'), provider: 'openai' as const };

  it('picking one selects it by id, with its first model when the current name is not one it offers', () => {
    const vllm = withServer(openai, 'server:vllm', servers);
    expect(vllm).toMatchObject({ baseUrlPreset: 'server', serverId: 'vllm', model: 'qwen2.5-7b', baseURL: '' });
    expect(serverSelectValue(vllm)).toBe('server:vllm');
    expect(withServer({ ...openai, model: 'llama-3.1-8b' }, 'server:vllm', servers).model).toBe('llama-3.1-8b');
    expect(withServer(openai, 'server:any', servers).model).toBe('gpt-4o-mini');
    expect(withServer(vllm, 'openai', servers)).toMatchObject({ baseUrlPreset: 'openai', serverId: '' });
    expect(withServer(vllm, 'custom', servers)).toMatchObject({ baseUrlPreset: 'custom', serverId: '', baseURL: '' });
  });

  it('makes a spec naming the server by id (never its URL), which the server accepts', () => {
    const spec = modelSpec(withServer(openai, 'server:vllm', servers), { seed: 1, latencyMs: 0 });
    expect(modelSpecSchema.parse(spec)).toEqual({
      provider: 'openai',
      baseUrlPreset: 'server',
      serverId: 'vllm',
      model: 'qwen2.5-7b',
    });
    expect(modelChoiceError({ ...openai, baseUrlPreset: 'server', serverId: '' })).toMatch(/listed servers/);
  });
});

describe("a fork's model (issue 10, item 12)", () => {
  it("reads the parent's simulated spec as its seed and latency, to keep unless changed", () => {
    expect(parentModel({ provider: 'simulated', seed: 9, latencyMs: 40 }, 'simulated')).toEqual({
      kind: 'simulated',
      seed: 9,
      latencyMs: 40,
    });
  });
  it('keeps any other model as it is, named by its label; an unreadable spec is not taken for the simulator', () => {
    const spec = { provider: 'openai', baseUrlPreset: 'custom', baseURL: 'http://127.0.0.1:9/v1', model: 'm' };
    expect(parentModel(spec, 'm @ 127.0.0.1:9')).toEqual({ kind: 'other', label: 'm @ 127.0.0.1:9' });
    expect(parentModel({ provider: 'replay', recordingRunId: 'r' }, 'replay of r')).toEqual({
      kind: 'other',
      label: 'replay of r',
    });
    expect(parentModel(null, 'gpt-4 (imported)')).toEqual({ kind: 'other', label: 'gpt-4 (imported)' });
  });
});

describe("the fork dialog's model note", () => {
  const sim = { kind: 'simulated', seed: 3, latencyMs: 150 } as const;
  const other = { kind: 'other', label: 'gpt @ lab' } as const;
  const choice = { listed: null, simulated: true, seed: '3', latency: '150' };
  it('says whether the simulator is the parent’s, changed from it, or not the parent’s model', () => {
    expect(forkModelNote(sim, choice)).toBe('simulated (offline), seed 3, 150 ms · the parent’s');
    expect(forkModelNote(sim, { ...choice, seed: '4' })).toBe(
      'simulated (offline), seed 4, 150 ms · changed from the parent’s',
    );
    expect(forkModelNote(other, choice)).toBe('simulated (offline), seed 3, 150 ms · not the parent’s model');
  });
  it("names a listed server's model, or the parent's own", () => {
    const listed = { label: 'Lab', model: 'qwen' };
    expect(forkModelNote(other, { ...choice, simulated: false, listed })).toBe('qwen @ Lab · not the parent’s model');
    expect(forkModelNote(other, { ...choice, simulated: false })).toBe('gpt @ lab · the parent’s');
  });
});
