import { describe, expect, it } from 'vitest';
import { DEFAULT_TOT_CONFIG, MCTS_DEFAULTS, resolveConfig } from '@/lib/engine/index';
import { modelSpecSchema } from '@/lib/contract/model-spec';
import { DEFAULT_MAX_CONCURRENT_CALLS, toTConfigFields } from '@/lib/contract/vocabulary';
import {
  ADVANCED_FIELDS,
  CHOICE_FIELDS,
  FIELD_ORDER,
  NUMBER_FIELDS,
  STRATEGIES,
  advancedSummary,
  choiceHint,
  fieldHint,
  groupShown,
  costCapError,
  defaultSettings,
  firstErrorField,
  formMessages,
  humanizeFieldNames,
  initialValues,
  parseForm,
  rangeText,
  sameValues,
  serverErrors,
  settingsAreDefault,
  submission,
  withTask,
  type FormValues,
} from './run-form';
import { defaultModelChoice } from './model-choice';

const withValues = (patch: Partial<FormValues>): FormValues => ({ ...initialValues('game24'), ...patch });

describe('the form fields', () => {
  it('cover every config field once, the MCTS ones included, plus the model settings', () => {
    const names = [...NUMBER_FIELDS.map((f) => f.name), ...CHOICE_FIELDS.map((f) => f.name), 'explorationStrategy'];
    expect(names.sort()).toEqual([...Object.keys(toTConfigFields.shape), 'seed', 'latencyMs'].sort());
    expect(new Set(FIELD_ORDER).size).toBe(FIELD_ORDER.length);
  });

  it('read their bounds from the schema', () => {
    const byName = Object.fromEntries(NUMBER_FIELDS.map((f) => [f.name, f]));
    expect(rangeText(byName.maxDepth!)).toBe('1–50');
    expect(rangeText(byName.confidenceThreshold!)).toBe('0–1');
    expect(byName.timeout).toMatchObject({ nullable: true, min: 0, max: null });
    expect(rangeText(byName.latencyMs!)).toBe('0–10000');
  });

  it('keep the less common ones under Advanced', () => {
    expect([...ADVANCED_FIELDS].sort()).toEqual(
      ['confidenceWeight', 'maxIterationsPerBranch', 'noveltyWeight', 'progressWeight'].sort(),
    );
  });
});

describe('defaults', () => {
  it('fill every field from DEFAULT_TOT_CONFIG, the task example and the model defaults', () => {
    const values = initialValues('game24');
    expect(values).toMatchObject({ taskId: 'game24', goal: '4 9 10 13', maxDepth: '5', beamWidth: '2' });
    expect(values).toMatchObject({ explorationStrategy: 'beam', timeout: '', seed: '3', latencyMs: '150' });
    expect(initialValues('open-goal').goal).toMatch(/Postgres/);
  });

  it('parse back to DEFAULT_TOT_CONFIG exactly, the default calls in flight included', () => {
    const { input, errors } = parseForm(initialValues('game24'));
    expect(errors).toEqual({});
    expect(DEFAULT_TOT_CONFIG.maxConcurrentCalls).toBe(DEFAULT_MAX_CONCURRENT_CALLS);
    expect(input).toEqual({
      taskId: 'game24',
      goal: '4 9 10 13',
      config: DEFAULT_TOT_CONFIG,
      model: { provider: 'simulated', seed: 3, latencyMs: 150 },
    });
  });

  it('tell when the settings are all at their defaults', () => {
    expect(settingsAreDefault(withValues({ goal: '1 1 1 1' }))).toBe(true);
    expect(settingsAreDefault(withValues({ maxDepth: '7' }))).toBe(false);
    expect(settingsAreDefault({ ...withValues({ seed: '9' }), ...defaultSettings() })).toBe(true);
    expect(sameValues(withValues({}), withValues({}))).toBe(true);
    expect(sameValues(withValues({}), withValues({ seed: '4' }))).toBe(false);
  });
});

describe('parseForm', () => {
  it('uses the engine schema, cross-field rules included', () => {
    const { input, errors } = parseForm(withValues({ beamWidth: '9' }));
    expect(input).toBeNull();
    expect(errors).toEqual({ beamWidth: 'Beam width cannot exceed branch factor' });
    expect(parseForm(withValues({ confidenceWeight: '0', progressWeight: '0', noveltyWeight: '0' })).errors).toEqual({
      confidenceWeight: 'The score weights cannot all be zero',
    });
  });

  it('says what is wrong with a number in words', () => {
    const { errors } = parseForm(
      withValues({ maxDepth: '0', branchFactor: '21', confidenceThreshold: '1.5', maxTotalNodes: '2.5', seed: '' }),
    );
    expect(errors).toEqual({
      maxDepth: 'Must be at least 1',
      branchFactor: 'Must be at most 20',
      confidenceThreshold: 'Must be at most 1',
      maxTotalNodes: 'Must be a whole number',
      seed: 'Required',
    });
    expect(parseForm(withValues({ latencyMs: 'abc' })).errors).toEqual({ latencyMs: 'Must be a number' });
    expect(parseForm(withValues({ explorationStrategy: 'random' })).errors.explorationStrategy).toBe(
      'Choose one of beam, best-first, dfs, mcts',
    );
  });

  it('reads an empty timeout or 0 as none (as the engine does) and a number as milliseconds', () => {
    expect(parseForm(withValues({ timeout: '  ' })).input?.config.timeout).toBeNull();
    expect(parseForm(withValues({ timeout: '0' })).errors).toEqual({});
    expect(parseForm(withValues({ timeout: '0' })).input?.config.timeout).toBeNull();
    expect(parseForm(withValues({ timeout: '30000' })).input?.config.timeout).toBe(30_000);
    expect(parseForm(withValues({ timeout: '-1' })).errors.timeout).toBe('Must be at least 0');
    expect(NUMBER_FIELDS.find((f) => f.name === 'timeout')?.hint).toBe('empty or 0 means no limit');
  });

  it('reads an empty cost cap as none, a positive number as dollars, and refuses 0 or less', () => {
    expect(parseForm(withValues({ maxCostUsd: '' })).input?.config.maxCostUsd).toBeNull();
    expect(parseForm(withValues({ maxCostUsd: '2.5' })).input?.config.maxCostUsd).toBe(2.5);
    expect(parseForm(withValues({ maxCostUsd: '0' })).errors.maxCostUsd).toBe('Must be more than 0');
    expect(parseForm(withValues({ maxCostUsd: 'lots' })).errors.maxCostUsd).toBe('Must be a number');
    expect(NUMBER_FIELDS.find((f) => f.name === 'maxCostUsd')).toMatchObject({ group: 'limits', nullable: true });
    // the fork dialog's field, alone, in the same words
    expect(costCapError(' ')).toBeNull();
    expect(costCapError('1.5')).toBeNull();
    expect(costCapError('0')).toBe('Must be more than 0');
    expect(costCapError('x')).toBe('Must be a number');
  });

  it('takes the calls in flight as a whole number of 1 to 64, checked by the config schema', () => {
    const field = NUMBER_FIELDS.find((f) => f.name === 'maxConcurrentCalls');
    expect(field).toMatchObject({ label: 'Calls in flight', group: 'limits', advanced: false, nullable: false });
    expect(field?.hint).toBe('model calls of this run at once; the log is the same at any value');
    expect(rangeText(field!)).toBe('1–64');
    expect(initialValues('game24').maxConcurrentCalls).toBe(String(DEFAULT_MAX_CONCURRENT_CALLS));
    expect(parseForm(withValues({ maxConcurrentCalls: '16' })).input?.config.maxConcurrentCalls).toBe(16);
    expect(parseForm(withValues({ maxConcurrentCalls: '1' })).errors).toEqual({});
    expect(parseForm(withValues({ maxConcurrentCalls: '0' })).errors.maxConcurrentCalls).toBe('Must be at least 1');
    expect(parseForm(withValues({ maxConcurrentCalls: '65' })).errors.maxConcurrentCalls).toBe('Must be at most 64');
    expect(parseForm(withValues({ maxConcurrentCalls: '2.5' })).errors.maxConcurrentCalls).toBe(
      'Must be a whole number',
    );
    expect(parseForm(withValues({ maxConcurrentCalls: '' })).errors.maxConcurrentCalls).toBe('Required');
    // the server's word on it lands beside the field
    expect(serverErrors({ message: 'too big', data: { field: 'config.maxConcurrentCalls' } }).fields).toEqual({
      maxConcurrentCalls: 'Too big',
    });
  });

  it("checks the goal with the task's own rule and trims it", () => {
    expect(parseForm(withValues({ goal: '1 2 3' })).errors.goal).toMatch(/^A Game of 24 puzzle is four whole numbers/);
    expect(parseForm(withValues({ goal: '  ' })).errors.goal).toBe('Enter a puzzle');
    expect(parseForm({ ...initialValues('open-goal'), goal: '' }).errors.goal).toBe('Enter a goal');
    expect(parseForm(withValues({ goal: ' 13 4 9 10 ' })).input?.goal).toBe('13 4 9 10');
    expect(parseForm(withValues({ taskId: 'chess' })).errors.taskId).toBe('Choose a task');
  });

  it('finds the first error in screen order', () => {
    const { errors } = parseForm(withValues({ latencyMs: '-1', goal: '', beamWidth: '0' }));
    expect(firstErrorField(errors)).toBe('goal');
    expect(firstErrorField({})).toBeNull();
  });

  it("agrees with the server's model bounds", () => {
    for (const [seed, latencyMs] of [
      [0, 0],
      [2 ** 31 - 1, 10_000],
      [-1, 0],
      [2 ** 31, 0],
      [3, 10_001],
      [3, 1.5],
    ] as const) {
      const server = modelSpecSchema.safeParse({ provider: 'simulated', seed, latencyMs }).success;
      const form = parseForm(withValues({ seed: String(seed), latencyMs: String(latencyMs) })).input !== null;
      expect(form, `seed ${seed}, latency ${latencyMs}`).toBe(server);
    }
  });
});

describe('serverErrors', () => {
  it("places the run manager's named field beside it, keeping only that field's part of the message", () => {
    expect(
      serverErrors({
        message: 'Invalid exploration config: beamWidth: beamWidth cannot exceed branchFactor; maxDepth: Too big',
        data: { field: 'config.beamWidth', zodError: null },
      }),
    ).toEqual({ fields: { beamWidth: 'Beam width cannot exceed branch factor' }, general: null });
    expect(serverErrors({ message: 'the goal is empty', data: { field: 'goal' } })).toEqual({
      fields: { goal: 'The goal is empty' },
      general: null,
    });
  });

  it("places zod's fieldErrors, and keeps what names no field as a general message", () => {
    expect(
      serverErrors({
        message: 'bad input',
        data: { field: null, zodError: { formErrors: [], fieldErrors: { goal: ['Too long'], model: ['Bad seed'] } } },
      }),
    ).toEqual({ fields: { goal: 'Too long' }, general: 'model: Bad seed' });
  });

  it('keeps any other error general', () => {
    expect(serverErrors({ message: 'Internal server error', data: { field: null, zodError: null } })).toEqual({
      fields: {},
      general: 'Internal server error',
    });
    expect(serverErrors(null)).toEqual({ fields: {}, general: null });
  });
});

describe('humanizeFieldNames', () => {
  it('replaces known field names with their labels, leaving other words alone', () => {
    expect(humanizeFieldNames('maxTotalNodes must exceed someThing')).toBe('Node cap must exceed someThing');
  });
});

describe('submission', () => {
  it("sends run.create's input with the simulated model keeping the form's seed and latency", () => {
    const plan = submission(parseForm(withValues({ seed: '7', latencyMs: '0' })), defaultModelChoice());
    expect(plan).toMatchObject({
      ok: true,
      input: { taskId: 'game24', goal: '4 9 10 13', model: { provider: 'simulated', seed: 7, latencyMs: 0 } },
    });
  });

  it('sends a chosen server model in place of the simulated one', () => {
    const choice = { ...defaultModelChoice(), provider: 'openai' as const, model: ' llama3.1 ', temperature: '0.2' };
    const plan = submission(parseForm(withValues({})), choice);
    expect(plan.ok && plan.input.model).toEqual({
      provider: 'openai',
      baseUrlPreset: 'openai',
      model: 'llama3.1',
      temperature: 0.2,
    });
  });

  it('sends nothing while a field is wrong, pointing at the first one on screen', () => {
    expect(submission(parseForm(withValues({ goal: '1 2', beamWidth: '0' })), defaultModelChoice())).toEqual({
      ok: false,
      focus: 'goal',
    });
  });

  it('sends nothing while the model choice is incomplete (the picker says why)', () => {
    const choice = { ...defaultModelChoice(), provider: 'replay' as const };
    expect(submission(parseForm(withValues({})), choice)).toEqual({ ok: false, focus: null });
  });
});

describe('formMessages', () => {
  const base = { goalTouched: false, submitted: false, sent: null, error: null };

  it("holds back the goal's message until the goal was left or the form sent, but not a setting's", () => {
    const values = withValues({ goal: '1 2', beamWidth: '0' });
    const parsed = parseForm(values);
    const quiet = formMessages({ ...base, values, parsed });
    expect(quiet.fields.goal).toBeUndefined();
    expect(quiet.fields.beamWidth).toBe('Must be at least 1');
    expect(formMessages({ ...base, values, parsed, goalTouched: true }).fields.goal).toMatch(/Game of 24 puzzle/);
    expect(formMessages({ ...base, values, parsed, submitted: true }).fields.goal).toMatch(/Game of 24 puzzle/);
  });

  it("shows the server's messages only while the form still holds what was sent", () => {
    const values = withValues({});
    const error = { message: 'the goal is empty', data: { field: 'goal' } };
    const sent = formMessages({ ...base, values, parsed: parseForm(values), sent: values, error });
    expect(sent.fields.goal).toBe('The goal is empty');
    const edited = withValues({ goal: '1 1 1 1' });
    const after = formMessages({ ...base, values: edited, parsed: parseForm(edited), sent: values, error });
    expect(after.fields.goal).toBeUndefined();
  });

  it("puts the server's word on the model beside the model picker", () => {
    const values = withValues({});
    const error = { message: 'model.baseURL: not a server this host allows', data: { field: 'model.baseURL' } };
    const messages = formMessages({ ...base, values, parsed: parseForm(values), sent: values, error });
    expect(messages.model).toBe('model.baseURL: not a server this host allows');
  });
});

describe('choosing a task and the advanced summary', () => {
  it("puts the new task's example in the goal and keeps the settings", () => {
    const next = withTask(withValues({ beamWidth: '2' }), 'open-goal');
    expect(next).toMatchObject({ taskId: 'open-goal', beamWidth: '2' });
    expect(next.goal).toMatch(/Postgres/);
  });

  it('says what the hidden fields hold, with ? for an empty one', () => {
    const values = { ...withValues({}), noveltyWeight: '' };
    expect(advancedSummary(values)).toMatch(/^weights [\d.]+ \/ [\d.]+ \/ \? · \d+ turns per branch$/);
  });
});

describe('the MCTS settings', () => {
  const mcts = (patch: Partial<FormValues> = {}) => withValues({ explorationStrategy: 'mcts', ...patch });
  const byName = Object.fromEntries(NUMBER_FIELDS.map((f) => [f.name, f]));

  it('are offered as a strategy, in a group of their own shown only for mcts, with the schema bounds', () => {
    expect(STRATEGIES.find((st) => st.value === 'mcts')).toEqual({
      value: 'mcts',
      label: 'mcts',
      hint: 'UCT selection, values backed up',
    });
    expect(groupShown('mcts', 'mcts')).toBe(true);
    expect(groupShown('mcts', 'beam')).toBe(false);
    expect(groupShown('search', 'mcts')).toBe(true);
    expect(byName.mctsIterations).toMatchObject({ label: 'Iterations', group: 'mcts', step: 1, nullable: false });
    expect(byName.mctsExploration).toMatchObject({ label: 'Exploration c', group: 'mcts', step: 0.1 });
    expect(byName.mctsRolloutDepth).toMatchObject({ label: 'Rollout depth', group: 'mcts' });
    expect(rangeText(byName.mctsIterations!)).toBe('1–100000');
    expect(rangeText(byName.mctsExploration!)).toBe('0–100');
    expect(rangeText(byName.mctsRolloutDepth!)).toBe('0–50');
    expect(CHOICE_FIELDS.map((f) => [f.name, f.options.map((o) => o.value)])).toEqual([
      ['mctsBackup', ['mean', 'max']],
      ['mctsBestBy', ['visits', 'q']],
    ]);
    expect(choiceHint(CHOICE_FIELDS[0]!, 'max')).toBe('Q is the best of them');
  });

  it('say that beam width is not used by mcts, and keep its hint for the others', () => {
    expect(fieldHint(byName.beamWidth!, 'mcts')).toBe('not used by mcts');
    expect(fieldHint(byName.beamWidth!, 'beam')).toBe('best candidates queued');
  });

  it('start at the engine’s MCTS defaults, and an untouched mcts form sends exactly them', () => {
    expect(initialValues('game24')).toMatchObject({
      mctsIterations: String(MCTS_DEFAULTS.mctsIterations),
      mctsExploration: String(MCTS_DEFAULTS.mctsExploration),
      mctsRolloutDepth: String(MCTS_DEFAULTS.mctsRolloutDepth),
      mctsBackup: MCTS_DEFAULTS.mctsBackup,
      mctsBestBy: MCTS_DEFAULTS.mctsBestBy,
    });
    const { input, errors } = parseForm(mcts());
    expect(errors).toEqual({});
    expect(input?.config).toEqual(resolveConfig({ explorationStrategy: 'mcts' }));
  });

  it('parse into run.create’s config as numbers and the chosen rules', () => {
    const { input, errors } = parseForm(
      mcts({
        mctsIterations: '120',
        mctsExploration: '0.7',
        mctsRolloutDepth: '3',
        mctsBackup: 'max',
        mctsBestBy: 'q',
      }),
    );
    expect(errors).toEqual({});
    expect(input?.config).toMatchObject({
      explorationStrategy: 'mcts',
      mctsIterations: 120,
      mctsExploration: 0.7,
      mctsRolloutDepth: 3,
      mctsBackup: 'max',
      mctsBestBy: 'q',
    });
    expect(parseForm(mcts({ mctsExploration: '0' })).input?.config.mctsExploration).toBe(0);
  });

  it('refuse a bad value with the schema’s message beside its field', () => {
    expect(parseForm(mcts({ mctsExploration: '-1' })).errors).toEqual({
      mctsExploration: 'The exploration constant cannot be negative',
    });
    expect(parseForm(mcts({ mctsIterations: '0' })).errors).toEqual({
      mctsIterations: 'An iteration budget must be at least 1',
    });
    expect(parseForm(mcts({ maxDepth: '4', mctsRolloutDepth: '5' })).errors).toEqual({
      mctsRolloutDepth: 'A rollout cannot go deeper than max depth',
    });
    expect(parseForm(mcts({ mctsRolloutDepth: '4' })).errors).toEqual({});
    expect(parseForm(mcts({ mctsExploration: 'Infinity' })).errors).toEqual({ mctsExploration: 'Must be a number' });
    expect(parseForm(mcts({ mctsExploration: 'lots' })).errors).toEqual({ mctsExploration: 'Must be a number' });
    expect(parseForm(mcts({ mctsIterations: '' })).errors).toEqual({ mctsIterations: 'Required' });
    expect(parseForm(mcts({ mctsBackup: 'median' })).errors).toEqual({ mctsBackup: 'Choose one of mean, max' });
    expect(parseForm(mcts({ mctsExploration: '-1' })).input).toBeNull();
    // and the server's word on one lands beside it too
    const error = {
      message: 'Invalid exploration config: mctsExploration: the exploration constant cannot be negative',
      data: { field: 'config.mctsExploration' },
    };
    expect(serverErrors(error).fields).toEqual({ mctsExploration: 'The exploration constant cannot be negative' });
  });

  it('are neither checked nor sent for any other strategy', () => {
    const typed = { mctsExploration: '-1', mctsIterations: '0', mctsBackup: 'median' };
    for (const explorationStrategy of ['beam', 'best-first', 'dfs']) {
      const { input, errors } = parseForm(withValues({ explorationStrategy, ...typed }));
      expect(errors, explorationStrategy).toEqual({});
      const sent = Object.keys(input?.config ?? {}).filter((key) => key.startsWith('mcts'));
      expect(sent, explorationStrategy).toEqual([]);
    }
    const plan = submission(parseForm(withValues({ explorationStrategy: 'beam' })), defaultModelChoice());
    expect(plan.ok && Object.keys(plan.input.config).some((key) => key.startsWith('mcts'))).toBe(false);
  });
});
