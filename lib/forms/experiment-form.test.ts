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
import { parseSettings } from './run-form';
import { DEFAULT_TOT_CONFIG, resolveConfig } from '@/lib/engine/index';
import { DEFAULT_MAX_CONCURRENT_CALLS } from '@/lib/contract/vocabulary';
import { defaultModelChoice, modelChoiceError, type ModelChoice } from './model-choice';

const openai = (patch: Partial<ModelChoice> = {}): ModelChoice => ({
  ...defaultModelChoice(),
  provider: 'openai',
  ...patch,
});

const draft = (patch: Partial<ExperimentDraft> = {}): ExperimentDraft => ({
  name: '',
  taskId: 'game24',
  datasetId: 'ds1',
  configurations: initialConfigurations(),
  repetitions: '1',
  costCapUsd: '',
  ...patch,
});

/** The whole config the run form's parser makes of a draft's settings. */
const parseSettingsOf = (d: ReturnType<typeof configurationDraft>) => parseSettings(d.settings).config;

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

  it('sends a real model’s spec from the picker’s choice, with the configuration’s seed for its repetitions', () => {
    const model = openai({ baseUrlPreset: 'server', serverId: 'lab', model: 'llama3.1', temperature: '0.4' });
    // a latency the real model does not take is not shown, so a bad one left from the simulator is no problem
    const real = configurationDraft(3, 'llama', { seed: '7', latencyMs: 'x' }, model);
    const { input, problems } = experimentRequest(draft({ configurations: [initialConfigurations()[0]!, real] }));
    expect(problems).toEqual([]);
    expect(input?.configurations[0]?.model).toEqual({ provider: 'simulated', seed: 3, latencyMs: 150 });
    expect(input?.configurations[1]?.model).toEqual({
      provider: 'openai',
      baseUrlPreset: 'server',
      serverId: 'lab',
      model: 'llama3.1',
      temperature: 0.4,
      seed: 7,
    });
    expect(createExperimentInput.safeParse(input).success).toBe(true);
  });

  it('refuses a model choice in the run form’s words, beside that configuration’s picker', () => {
    const custom = openai({ baseUrlPreset: 'custom', baseURL: '' });
    const { input, problems } = experimentRequest(
      draft({ configurations: [initialConfigurations()[0]!, configurationDraft(2, 'local', {}, custom)] }),
    );
    expect(input).toBeNull();
    expect(problems).toEqual([{ field: 'configurations.1.model', message: modelChoiceError(custom) }]);
    expect(configurationFieldErrors(problems, 1)).toEqual({ model: modelChoiceError(custom) });
    // the server's words on a part of the model go beside the picker too; its seed beside the seed
    expect(
      configurationFieldErrors(
        [
          { field: 'configurations.0.model.baseURL', message: 'must be an http(s) URL' },
          { field: 'configurations.0.model.seed', message: 'too big' },
        ],
        0,
      ),
    ).toEqual({ model: 'must be an http(s) URL', seed: 'too big' });
  });

  it('keeps only what differs from the defaults', () => {
    expect(configChanges({ ...DEFAULT_TOT_CONFIG })).toEqual({});
    expect(configChanges({ ...DEFAULT_TOT_CONFIG, explorationStrategy: 'dfs' })).toEqual({
      explorationStrategy: 'dfs',
    });
    // the calls in flight at their own default are no change; any other figure is
    expect(configChanges({ ...DEFAULT_TOT_CONFIG, maxConcurrentCalls: DEFAULT_MAX_CONCURRENT_CALLS })).toEqual({});
    expect(configChanges({ ...DEFAULT_TOT_CONFIG, maxConcurrentCalls: 2 })).toEqual({ maxConcurrentCalls: 2 });
  });
});

describe('an MCTS configuration', () => {
  const mcts = (patch: Record<string, string> = {}) =>
    configurationDraft(3, 'mcts', { explorationStrategy: 'mcts', ...patch });
  const withThird = (third: ReturnType<typeof configurationDraft>) =>
    draft({ configurations: [...initialConfigurations(), third] });

  it('sends the strategy and the MCTS settings it changes, as create takes them', () => {
    const { input, problems } = experimentRequest(
      withThird(mcts({ mctsIterations: '80', mctsExploration: '0.5', mctsBackup: 'max' })),
    );
    expect(problems).toEqual([]);
    expect(input?.configurations[2]?.config).toEqual({
      explorationStrategy: 'mcts',
      mctsIterations: 80,
      mctsExploration: 0.5,
      mctsBackup: 'max',
    });
    expect(createExperimentInput.safeParse(input).success).toBe(true);
    // at the engine's MCTS defaults it changes only the strategy, and runs exactly as the engine fills it
    const plain = experimentRequest(withThird(mcts())).input?.configurations[2]?.config;
    expect(plain).toEqual({ explorationStrategy: 'mcts' });
    expect(resolveConfig(plain)).toEqual(parseSettingsOf(mcts()));
  });

  it('names a bad MCTS setting by the server’s path, with the schema’s message beside it', () => {
    const cases = [
      [{ mctsExploration: '-1' }, 'mctsExploration', 'The exploration constant cannot be negative'],
      [{ mctsIterations: '0' }, 'mctsIterations', 'An iteration budget must be at least 1'],
      [{ maxDepth: '3', mctsRolloutDepth: '4' }, 'mctsRolloutDepth', 'A rollout cannot go deeper than max depth'],
    ] as const;
    for (const [patch, field, message] of cases) {
      const { input, problems } = experimentRequest(withThird(mcts(patch)));
      expect(input, field).toBeNull();
      expect(problems).toEqual([{ field: `configurations.2.config.${field}`, message }]);
      expect(configurationFieldErrors(problems, 2)).toEqual({ [field]: message });
    }
    expect(problemPlace('configurations.2.config.mctsExploration', ['a', 'b', 'mcts'])).toBe(
      'Configuration 3 (mcts) · Exploration c',
    );
  });

  it('is sent with no MCTS field once its strategy is another, whatever the hidden fields hold', () => {
    const beam = configurationDraft(3, 'beam', { mctsExploration: '-1', mctsIterations: '0' });
    const { input, problems } = experimentRequest(withThird(beam));
    expect(problems).toEqual([]);
    expect(input?.configurations[2]?.config).toEqual({});
  });
});

describe('problemPlace', () => {
  it('says a path in the form’s words', () => {
    expect(problemPlace('configurations.1.config.beamWidth', ['a', 'beam 5'])).toBe(
      'Configuration 2 (beam 5) · Beam width',
    );
    expect(problemPlace('configurations.0.label', ['a'])).toBe('Configuration 1 (a) · label');
    expect(problemPlace('configurations.0.model', ['a'])).toBe('Configuration 1 (a) · Model');
    expect(problemPlace('configurations.0.model.baseURL', ['a'])).toBe('Configuration 1 (a) · Base URL');
    expect(problemPlace('configurations.0.model.seed', ['a'])).toBe('Configuration 1 (a) · Seed');
    expect(problemPlace('items.2', [])).toBe('Items · item 3');
    expect(problemPlace('repetitions', [])).toBe('Repetitions');
    expect(problemPlace('something.else', [])).toBe('something.else');
  });
});
