import { describe, expect, it } from 'vitest';
import { createExperimentInput } from '@/lib/contract/experiments';
import {
  configChanges,
  configurationDraft,
  configurationFieldErrors,
  experimentRequest,
  initialConfigurations,
  problemPlace,
  type ExperimentDraft,
} from './experiment-form';
import { DEFAULT_TOT_CONFIG } from '@/lib/engine/index';

const draft = (patch: Partial<ExperimentDraft> = {}): ExperimentDraft => ({
  name: '',
  taskId: 'game24',
  datasetId: 'ds1',
  configurations: initialConfigurations(),
  repetitions: '1',
  costCapUsd: '',
  ...patch,
});

describe('experimentRequest', () => {
  it('sends each configuration’s changes from the defaults, on the simulated model, as create takes them', () => {
    const { input, problems } = experimentRequest(draft({ costCapUsd: '2.5', repetitions: '3' }));
    expect(problems).toEqual([]);
    expect(input).toMatchObject({ taskId: 'game24', datasetId: 'ds1', repetitions: 3, costCapUsd: 2.5 });
    expect(input?.configurations[0]).toEqual({
      label: 'beam 1',
      config: { beamWidth: 1 },
      model: { provider: 'simulated', seed: 3, latencyMs: 150 },
    });
    expect(input?.configurations[1]?.config).toEqual({});
    expect(createExperimentInput.safeParse(input).success).toBe(true);
  });

  it('names every problem by the path the server uses, and sends nothing then', () => {
    const bad = configurationDraft(3, 'beam 1', { beamWidth: '0', latencyMs: 'x' });
    const { input, problems } = experimentRequest(
      draft({ datasetId: null, repetitions: '0', costCapUsd: '-1', configurations: [...initialConfigurations(), bad] }),
    );
    expect(input).toBeNull();
    const fields = problems.map((p) => p.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'datasetId',
        'repetitions',
        'costCapUsd',
        'configurations.2.label',
        'configurations.2.config.beamWidth',
        'configurations.2.model.latencyMs',
      ]),
    );
    expect(configurationFieldErrors(problems, 2)).toMatchObject({
      label: expect.stringContaining('two configurations'),
      beamWidth: expect.any(String),
      latencyMs: expect.any(String),
    });
    expect(configurationFieldErrors(problems, 0)).toEqual({});
  });

  it('keeps only what differs from the defaults', () => {
    expect(configChanges({ ...DEFAULT_TOT_CONFIG })).toEqual({});
    expect(configChanges({ ...DEFAULT_TOT_CONFIG, explorationStrategy: 'dfs' })).toEqual({
      explorationStrategy: 'dfs',
    });
  });
});

describe('problemPlace', () => {
  it('says a path in the form’s words', () => {
    expect(problemPlace('configurations.1.config.beamWidth', ['a', 'beam 5'])).toBe(
      'Configuration 2 (beam 5) · Beam width',
    );
    expect(problemPlace('configurations.0.label', ['a'])).toBe('Configuration 1 (a) · label');
    expect(problemPlace('items.2', [])).toBe('Items · item 3');
    expect(problemPlace('repetitions', [])).toBe('Repetitions');
    expect(problemPlace('something.else', [])).toBe('something.else');
  });
});
