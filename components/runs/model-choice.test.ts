import { describe, expect, it } from 'vitest';
import { modelSpecSchema } from '@/lib/server/model-factory';
import { defaultModelChoice, modelChoiceError, modelSpec } from './model-choice';

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
