/**
 * The new-experiment form's model, free of React: its configurations as typed (a label, the run form's settings
 * each: lib/forms/run-form.ts's fields, parsed by the same parseSettings, and the run form's model choice:
 * model-choice.ts, checked in the same words), repetitions and a cost cap, turned into
 * experiment.create's input with every problem named by the path the server would name it by
 * (`configurations.1.config.beamWidth`), and a server's path read back in the form's words.
 * Not responsible for the items (a dataset is made or chosen first: components/experiments/form/ItemsPicker.tsx), for
 * the estimate or what the server refuses (experiment.estimate), nor for rendering.
 */
import type { CreateExperimentInput, ExperimentConfiguration } from '@/lib/contract/experiments';
import { EXPERIMENT_MAX_CONFIGURATIONS, EXPERIMENT_MAX_REPETITIONS } from '@/lib/contract/experiments';
import type { ToTConfig } from '@/lib/contract/vocabulary';
import { DEFAULT_TOT_CONFIG } from '@/lib/engine/index';
import { defaultModelChoice, modelChoiceError, modelSpec, type ModelChoice, type ModelProvider } from './model-choice';
import {
  FIELD_LABELS,
  defaultConfigValue,
  defaultSettings,
  parseSettings,
  type FieldErrors,
  type SettingValues,
} from './run-form';

/** One configuration as typed: `key` keeps React's rows stable when one is removed. */
export interface ConfigurationDraft {
  key: number;
  label: string;
  settings: SettingValues;
  /** Which model its runs use, as the run form's picker holds it. */
  model: ModelChoice;
}

/** The model's own settings fields a configuration shows for a provider (the others are not sent). */
export function modelSettingFields(provider: ModelProvider): readonly ('seed' | 'latencyMs')[] {
  // the simulator takes both; a real model only the seed, sent as its own (each repetition adds one to it)
  if (provider === 'simulated') return ['seed', 'latencyMs'];
  if (provider === 'openai') return ['seed'];
  return [];
}

/** A configuration's problems and message beside each field: the settings', its label's and its model's. */
export type ConfigurationErrors = FieldErrors & { label?: string; model?: string };

export interface ExperimentDraft {
  name: string;
  taskId: string;
  /** The dataset the items come from (made from a shipped set or a file, or one already stored); null: none yet. */
  datasetId: string | null;
  configurations: readonly ConfigurationDraft[];
  repetitions: string;
  /** Dollars, empty for none. */
  costCapUsd: string;
}

export interface Problem {
  /** The input's path, as the server names it (`configurations.0.config.beamWidth`, `repetitions`). */
  field: string;
  message: string;
}

/** A configuration at the run form's defaults (the simulated model unless `model` is given), with what it changes. */
export function configurationDraft(
  key: number,
  label: string,
  patch: Partial<SettingValues> = {},
  model: ModelChoice = defaultModelChoice(),
): ConfigurationDraft {
  return { key, label, settings: { ...defaultSettings(), ...patch }, model };
}

/** The drafts a new form starts with: a narrow and a wide beam, so the comparison is there from the start. */
export function initialConfigurations(): ConfigurationDraft[] {
  return [
    configurationDraft(1, 'beam 1', { beamWidth: '1' }),
    configurationDraft(2, `beam ${DEFAULT_TOT_CONFIG.beamWidth}`),
  ];
}

/**
 * The config fields that differ from the defaults the form starts from (DEFAULT_TOT_CONFIG, MCTS_DEFAULTS for an MCTS
 * field): what a configuration changes (the server fills in the rest with the same defaults). A strategy's own
 * fields are in the config only for that strategy (parseSettings), so a beam configuration never carries an mcts one.
 */
export function configChanges(config: ToTConfig): Partial<ToTConfig> {
  const changes: Partial<Record<keyof ToTConfig, unknown>> = {};
  for (const key of Object.keys(config) as (keyof ToTConfig)[]) {
    if (config[key] !== defaultConfigValue(key)) changes[key] = config[key];
  }
  return changes as Partial<ToTConfig>;
}

/** A typed number: '' is none, anything Number() cannot read is NaN. */
function readNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/** experiment.create's input from the draft, or the problems the browser can see itself (the server checks again). */
export function experimentRequest(draft: ExperimentDraft): {
  input: CreateExperimentInput | null;
  problems: Problem[];
} {
  const problems: Problem[] = [];
  if (!draft.datasetId) problems.push({ field: 'datasetId', message: 'choose the items first' });
  if (draft.configurations.length === 0) problems.push({ field: 'configurations', message: 'add a configuration' });
  if (draft.configurations.length > EXPERIMENT_MAX_CONFIGURATIONS)
    problems.push({ field: 'configurations', message: `at most ${EXPERIMENT_MAX_CONFIGURATIONS} configurations` });
  const labels = new Set<string>();
  const configurations: ExperimentConfiguration[] = [];
  draft.configurations.forEach((c, i) => {
    const label = c.label.trim();
    if (!label) problems.push({ field: `configurations.${i}.label`, message: 'a configuration needs a label' });
    else if (labels.has(label))
      problems.push({ field: `configurations.${i}.label`, message: `two configurations are labelled "${label}"` });
    labels.add(label);
    // a model setting the chosen model does not take is not shown, so it is read at its default, never a problem
    const shown = modelSettingFields(c.model.provider);
    const unused = (['seed', 'latencyMs'] as const).filter((name) => !shown.includes(name));
    const parsed = parseSettings({
      ...c.settings,
      ...Object.fromEntries(unused.map((name) => [name, defaultSettings()[name]])),
    });
    for (const [name, message] of Object.entries(parsed.errors)) {
      const path = name === 'seed' || name === 'latencyMs' ? `model.${name}` : `config.${name}`;
      problems.push({ field: `configurations.${i}.${path}`, message });
    }
    const modelError = modelChoiceError(c.model);
    if (modelError) problems.push({ field: `configurations.${i}.model`, message: modelError });
    if (parsed.config && parsed.model && !modelError)
      configurations.push({
        label,
        config: configChanges(parsed.config),
        model: configurationModel(c.model, parsed.model),
      });
  });
  const repetitions = readNumber(draft.repetitions);
  if (
    repetitions === null ||
    !Number.isInteger(repetitions) ||
    repetitions < 1 ||
    repetitions > EXPERIMENT_MAX_REPETITIONS
  )
    problems.push({ field: 'repetitions', message: `a whole number from 1 to ${EXPERIMENT_MAX_REPETITIONS}` });
  const cap = readNumber(draft.costCapUsd);
  if (cap !== null && !(cap > 0)) problems.push({ field: 'costCapUsd', message: 'more than $0, or empty for none' });
  if (problems.length > 0 || !draft.datasetId) return { input: null, problems };
  const name = draft.name.trim();
  return {
    input: {
      ...(name && { name }),
      taskId: draft.taskId,
      datasetId: draft.datasetId,
      configurations,
      repetitions: repetitions ?? 1,
      ...(cap !== null && { costCapUsd: cap }),
    },
    problems,
  };
}

/**
 * A configuration's `model`: run.create's spec for the choice (model-choice.ts's modelSpec), with the configuration's
 * seed on a real model too, as the seed its repetitions count from (the server adds the repetition to it).
 */
export function configurationModel(
  choice: ModelChoice,
  simulated: { seed: number; latencyMs: number },
): NonNullable<ExperimentConfiguration['model']> {
  const spec = modelSpec(choice, simulated);
  return spec.provider === 'openai' ? { ...spec, seed: simulated.seed } : spec;
}

const PART_NAMES: Record<string, string> = {
  datasetId: 'Items',
  items: 'Items',
  taskId: 'Task',
  name: 'Name',
  repetitions: 'Repetitions',
  costCapUsd: 'Cost cap',
  configurations: 'Configurations',
  label: 'label',
  model: 'Model',
  serverId: 'Server',
  baseURL: 'Base URL',
  temperature: 'Temperature',
  reasoningEffort: 'Reasoning effort',
};

/**
 * A problem's path in the form's words: `configurations.1.config.beamWidth` -> "Configuration 2 (beam 5) · Beam width",
 * `items.2` -> "Items · item 3".
 */
export function problemPlace(field: string, labels: readonly string[]): string {
  const [head, second, third, fourth] = field.split('.');
  if (head === 'configurations' && second !== undefined && /^\d+$/.test(second)) {
    const index = Number(second);
    const label = labels[index]?.trim();
    const name = `Configuration ${index + 1}${label ? ` (${label})` : ''}`;
    const part = fourth ?? third;
    if (!part) return name;
    const known = (FIELD_LABELS as Record<string, string>)[part] ?? PART_NAMES[part] ?? part;
    return `${name} · ${known}`;
  }
  if (head === 'items' && second !== undefined && /^\d+$/.test(second)) return `Items · item ${Number(second) + 1}`;
  return PART_NAMES[head ?? ''] ?? field;
}

/**
 * The field a problem's path names inside configuration `index`, for the message beside it: a setting, the label,
 * or the model picker (`model`, or any part of it but the seed and latency, which have fields of their own).
 */
export function configurationFieldErrors(problems: readonly Problem[], index: number): ConfigurationErrors {
  const errors: ConfigurationErrors = {};
  const prefix = `configurations.${index}.`;
  for (const p of problems) {
    if (!p.field.startsWith(prefix)) continue;
    const parts = p.field.slice(prefix.length).split('.');
    const modelPart = parts[0] === 'model' && !(parts[1] && parts[1] in FIELD_LABELS);
    const name = parts[0] === 'label' ? 'label' : modelPart ? 'model' : parts[1];
    if (name && (name === 'label' || name === 'model' || name in FIELD_LABELS)) {
      const key = name as keyof typeof errors;
      errors[key] ??= p.message;
    }
  }
  return errors;
}
