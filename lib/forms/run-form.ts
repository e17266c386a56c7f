/**
 * The run form's model, free of React: its fields (labels, hints, groups, bounds read from the engine's zod schema),
 * the values as typed (strings), parsing them into run.create's input with the same schema the server uses, and
 * turning a server error (BAD_REQUEST with `field`, or zod's fieldErrors) into messages per field.
 * Where it helps: the form renders from NUMBER_FIELDS and CHOICE_FIELDS and shows `errors[name]` beside each field;
 * tests need no DOM. A group may belong to one strategy (the MCTS settings): its fields are shown, read and sent only
 * for that strategy, so a beam run sends no mcts field.
 * Not responsible for rendering, focus or when a message is shown (components/runs/form/NewRunForm.tsx).
 */
import { z } from 'zod';
import { simulatedSettingsSchema } from '@/lib/contract/model-spec';
import { GOAL_MAX_LENGTH, TASK_INFO, taskInfo, type TaskId } from '@/lib/contract/tasks';
import { type ExplorationStrategy, type ToTConfig, toTConfigFields, toTConfigSchema } from '@/lib/contract/vocabulary';
import { DEFAULT_TOT_CONFIG, MCTS_DEFAULTS } from '@/lib/engine/index';
import { modelChoiceError, modelSpec, type ModelChoice, type ModelSpecInput } from './model-choice';

export type ConfigKey = keyof ToTConfig;
/** The config fields whose value is a number (typed into a number input); the others are choices. */
export type NumericConfigKey = {
  [K in ConfigKey]-?: NonNullable<ToTConfig[K]> extends number ? K : never;
}[ConfigKey];
/** The config fields chosen from a list: the strategy, and MCTS's backup and best-path rules. */
export type ChoiceConfigKey = Exclude<ConfigKey, NumericConfigKey>;

/** What the form holds: every value as the person typed it (inputs give strings). */
export type FormValues = {
  taskId: string;
  goal: string;
  seed: string;
  latencyMs: string;
} & Record<ConfigKey, string>;

export type FieldName = keyof FormValues;
export type FieldErrors = Partial<Record<FieldName, string>>;

export type GroupId = 'search' | 'mcts' | 'scoring' | 'limits' | 'model';

export interface GroupSpec {
  id: GroupId;
  title: string;
  /** The one strategy that reads this group's fields (shown, checked and sent only then); null: every strategy. */
  onlyFor: ExplorationStrategy | null;
}

export const GROUPS: readonly GroupSpec[] = [
  { id: 'search', title: 'Search shape', onlyFor: null },
  { id: 'mcts', title: 'Monte Carlo tree search', onlyFor: 'mcts' },
  { id: 'scoring', title: 'Scoring', onlyFor: null },
  { id: 'limits', title: 'Limits', onlyFor: null },
  { id: 'model', title: 'Model', onlyFor: null },
];

export const STRATEGIES: readonly { value: ExplorationStrategy; label: string; hint: string }[] = [
  { value: 'beam', label: 'beam', hint: 'level by level' },
  { value: 'best-first', label: 'best-first', hint: 'highest score next' },
  { value: 'dfs', label: 'dfs', hint: 'deepest first' },
  { value: 'mcts', label: 'mcts', hint: 'UCT selection, values backed up' },
];

/** Whether a group (or a field, by its group) applies to the strategy as typed. */
export function groupShown(group: GroupId, strategy: string): boolean {
  const onlyFor = GROUPS.find((g) => g.id === group)?.onlyFor ?? null;
  return onlyFor === null || onlyFor === strategy;
}

/** The simulated model's settings the form starts from; their bounds are the API's own (lib/contract/model-spec.ts). */
export const DEFAULT_MODEL = { seed: 3, latencyMs: 150 } as const;
const modelFields = simulatedSettingsSchema;

export interface NumberFieldSpec {
  name: NumericConfigKey | 'seed' | 'latencyMs';
  label: string;
  hint: string;
  group: GroupId;
  /** Shown only when "Advanced" is open (or when it holds an error). */
  advanced: boolean;
  step: number;
  min: number | null;
  max: number | null;
  /** Empty means null (no limit) instead of "required". */
  nullable: boolean;
  /** Strategies that never read it (beam width under mcts): its hint says so for them (fieldHint). */
  unusedBy: readonly ExplorationStrategy[];
}

interface SpecInput {
  name: NumberFieldSpec['name'];
  label: string;
  hint: string;
  group: GroupId;
  advanced?: boolean;
  step?: number;
  unusedBy?: readonly ExplorationStrategy[];
}

/** Bounds read from the schema itself, so a hint can never disagree with validation. */
function bounds(name: NumberFieldSpec['name']): { min: number | null; max: number | null; nullable: boolean } {
  let field: z.ZodType =
    name === 'seed' || name === 'latencyMs' ? modelFields.shape[name] : toTConfigFields.shape[name];
  // a field that may be null (no limit) may also be absent (maxCostUsd, optional for configs stored before it)
  let nullable = false;
  while (field instanceof z.ZodNullable || field instanceof z.ZodOptional) {
    nullable ||= field instanceof z.ZodNullable;
    field = field.unwrap() as z.ZodType;
  }
  const number = field as z.ZodNumber;
  const finite = (v: number | null) => (v !== null && Number.isFinite(v) && Math.abs(v) < 1e9 ? v : null);
  // minValue does not say whether the bound is exclusive (positive() is "> 0"): ask the schema itself.
  const edge = (v: number | null, step: 1 | -1) =>
    v === null || number.safeParse(v).success ? v : number.isInt ? v + step : v;
  return { min: edge(finite(number.minValue), 1), max: edge(finite(number.maxValue), -1), nullable };
}

function spec(input: SpecInput): NumberFieldSpec {
  return { advanced: false, step: 1, unusedBy: [], ...input, ...bounds(input.name) };
}

/** Every numeric field, in display order within its group. */
export const NUMBER_FIELDS: readonly NumberFieldSpec[] = [
  spec({ name: 'maxDepth', label: 'Max depth', hint: 'levels below the goal', group: 'search' }),
  spec({ name: 'branchFactor', label: 'Branch factor', hint: 'candidates per expansion', group: 'search' }),
  spec({
    name: 'beamWidth',
    label: 'Beam width',
    hint: 'best candidates queued',
    group: 'search',
    unusedBy: ['mcts'],
  }),
  spec({
    name: 'mctsIterations',
    label: 'Iterations',
    hint: 'select, grow, evaluate, back up; the node cap still applies',
    group: 'mcts',
  }),
  spec({
    name: 'mctsExploration',
    label: 'Exploration c',
    hint: 'UCT = Q + c·√(ln N(parent) / N); 0 only exploits',
    group: 'mcts',
    step: 0.1,
  }),
  spec({
    name: 'mctsRolloutDepth',
    label: 'Rollout depth',
    hint: 'greedy steps before a value is taken (0: the score); at most max depth',
    group: 'mcts',
  }),
  spec({
    name: 'confidenceThreshold',
    label: 'Score threshold',
    hint: 'drop candidates below it',
    group: 'scoring',
    step: 0.05,
  }),
  spec({
    name: 'terminationConfidence',
    label: 'Stop at confidence',
    hint: 'stops once a node is this sure',
    group: 'scoring',
    step: 0.05,
  }),
  spec({
    name: 'confidenceWeight',
    label: 'Confidence weight',
    hint: 'weight in the composite',
    group: 'scoring',
    advanced: true,
    step: 0.05,
  }),
  spec({
    name: 'progressWeight',
    label: 'Progress weight',
    hint: 'weight in the composite',
    group: 'scoring',
    advanced: true,
    step: 0.05,
  }),
  spec({
    name: 'noveltyWeight',
    label: 'Novelty weight',
    hint: 'weight in the composite',
    group: 'scoring',
    advanced: true,
    step: 0.05,
  }),
  spec({ name: 'maxTotalNodes', label: 'Node cap', hint: 'nodes executed at most', group: 'limits' }),
  spec({ name: 'timeout', label: 'Timeout (ms)', hint: 'empty or 0 means no limit', group: 'limits', step: 1000 }),
  spec({
    name: 'maxCostUsd',
    label: 'Cost cap ($)',
    hint: 'stops before a call would pass it; empty: none',
    group: 'limits',
    step: 0.1,
  }),
  spec({
    name: 'maxConcurrentCalls',
    label: 'Calls in flight',
    hint: 'model calls of this run at once; the log is the same at any value',
    group: 'limits',
  }),
  spec({
    name: 'maxIterationsPerBranch',
    label: 'Turns per branch',
    hint: 'model turns per sub-goal',
    group: 'limits',
    advanced: true,
  }),
  spec({ name: 'seed', label: 'Seed', hint: 'same seed, same tree', group: 'model' }),
  spec({ name: 'latencyMs', label: 'Latency (ms)', hint: 'per model call', group: 'model', step: 50 }),
];

/** Whether the strategy as typed never reads the field (beam width under mcts); it is still checked and sent. */
export function fieldUnused(field: NumberFieldSpec, strategy: string): boolean {
  return field.unusedBy.some((s) => s === strategy);
}

/** The hint of a field for the strategy as typed: its own, or that the strategy does not use it. */
export function fieldHint(field: NumberFieldSpec, strategy: string): string {
  return fieldUnused(field, strategy) ? `not used by ${strategy}` : field.hint;
}

export interface ChoiceFieldSpec {
  name: Exclude<ChoiceConfigKey, 'explorationStrategy'>;
  label: string;
  hint: string;
  group: GroupId;
  /** The schema's values, in its order, each with a hint. */
  options: readonly { value: string; hint: string }[];
}

/** A choice's options are the schema's enum; `hints` must name every one of them (the type says so). */
function choice<K extends ChoiceFieldSpec['name']>(
  input: Omit<ChoiceFieldSpec, 'name' | 'options'> & { name: K; hints: Record<NonNullable<ToTConfig[K]>, string> },
): ChoiceFieldSpec {
  const { hints, ...rest } = input;
  const values = (toTConfigFields.shape[input.name].unwrap() as z.ZodEnum).options as NonNullable<ToTConfig[K]>[];
  return { ...rest, options: values.map((value) => ({ value, hint: hints[value] })) };
}

/** Every choice but the strategy (the search group's own select, STRATEGIES), in display order after the numbers. */
export const CHOICE_FIELDS: readonly ChoiceFieldSpec[] = [
  choice({
    name: 'mctsBackup',
    label: 'Backup',
    hint: "how a node's Q combines the values backed up through it",
    group: 'mcts',
    hints: { mean: 'Q is their mean', max: 'Q is the best of them' },
  }),
  choice({
    name: 'mctsBestBy',
    label: 'Best path by',
    hint: 'what the answer path follows when no answer was verified',
    group: 'mcts',
    hints: { visits: 'the most visited child', q: 'the child with the highest Q' },
  }),
];

/** The hint of a choice as chosen: what the chosen option does, else the field's own. */
export function choiceHint(field: ChoiceFieldSpec, value: string): string {
  return field.options.find((o) => o.value === value)?.hint ?? field.hint;
}

/** Labels of every field, for messages that name another field (and for the strategy select). */
export const FIELD_LABELS: Record<FieldName, string> = {
  taskId: 'Task',
  goal: 'Goal',
  explorationStrategy: 'Strategy',
  ...(Object.fromEntries(NUMBER_FIELDS.map((f) => [f.name, f.label])) as Record<NumberFieldSpec['name'], string>),
  ...(Object.fromEntries(CHOICE_FIELDS.map((f) => [f.name, f.label])) as Record<ChoiceFieldSpec['name'], string>),
};

export const ADVANCED_FIELDS: readonly FieldName[] = NUMBER_FIELDS.filter((f) => f.advanced).map((f) => f.name);

/** The order fields are checked in, so "the first error" is the first one on screen. */
export const FIELD_ORDER: readonly FieldName[] = [
  'taskId',
  'goal',
  'explorationStrategy',
  ...GROUPS.flatMap((g) => [
    ...NUMBER_FIELDS.filter((f) => f.group === g.id).map((f) => f.name),
    ...CHOICE_FIELDS.filter((f) => f.group === g.id).map((f) => f.name),
  ]),
];

/** Every config field the schema knows, the MCTS ones included. */
const CONFIG_KEYS = Object.keys(toTConfigFields.shape) as ConfigKey[];

/**
 * What the form starts a config field at: DEFAULT_TOT_CONFIG's value, or for an MCTS field MCTS_DEFAULTS' (the
 * engine's own, so an untouched MCTS form sends what a config without them would run with).
 */
export function defaultConfigValue<K extends ConfigKey>(key: K): ToTConfig[K] | undefined {
  const mcts: Partial<ToTConfig> = MCTS_DEFAULTS;
  return key in mcts ? mcts[key] : DEFAULT_TOT_CONFIG[key];
}

function isConfigKey(name: string): name is ConfigKey {
  return (CONFIG_KEYS as string[]).includes(name);
}

function isFieldName(name: string): name is FieldName {
  return name in FIELD_LABELS;
}

/** "0.1 to 1" style range text for a hint, or null when unbounded. */
export function rangeText(field: NumberFieldSpec): string | null {
  if (field.min !== null && field.max !== null) return `${field.min}–${field.max}`;
  if (field.min !== null) return `≥ ${field.min}`;
  if (field.max !== null) return `≤ ${field.max}`;
  return null;
}

/** The settings part of the form (config and model) at their defaults. */
export function defaultSettings(): Omit<FormValues, 'taskId' | 'goal'> {
  const config = Object.fromEntries(
    CONFIG_KEYS.map((key) => {
      const value = defaultConfigValue(key);
      return [key, value === null || value === undefined ? '' : String(value)];
    }),
  ) as Record<ConfigKey, string>;
  return { ...config, seed: String(DEFAULT_MODEL.seed), latencyMs: String(DEFAULT_MODEL.latencyMs) };
}

export function initialValues(taskId: TaskId = TASK_INFO[0]?.id ?? 'game24'): FormValues {
  return { taskId, goal: taskInfo(taskId)?.exampleGoal ?? '', ...defaultSettings() };
}

/** Whether every setting is at its default (the task and goal are not settings). */
export function settingsAreDefault(values: FormValues): boolean {
  const defaults = defaultSettings();
  return (Object.keys(defaults) as (keyof typeof defaults)[]).every((k) => values[k].trim() === defaults[k]);
}

/** The form's values differ (used to tell whether a server's answer still describes what is on screen). */
export function sameValues(a: FormValues, b: FormValues): boolean {
  return (Object.keys(a) as FieldName[]).every((k) => a[k] === b[k]);
}

const sentence = (text: string) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

/** "beamWidth cannot exceed branchFactor" -> "Beam width cannot exceed branch factor". */
export function humanizeFieldNames(message: string): string {
  const replaced = message.replace(/\b[a-z]+(?:[A-Z][a-z]*)+\b/g, (word) =>
    isFieldName(word) ? FIELD_LABELS[word].toLowerCase() : word,
  );
  return sentence(replaced);
}

/** The message the schema itself gives an issue ("the exploration constant cannot be negative"), or null for zod's own. */
function schemaMessage(issue: z.core.$ZodIssue): string | null {
  const own = z.config().localeError?.(issue as Parameters<NonNullable<z.core.$ZodConfig['localeError']>>[0]);
  return issue.message !== (typeof own === 'string' ? own : own?.message) ? humanizeFieldNames(issue.message) : null;
}

/** A zod issue in the words of a form: the schema's own message where it gives one, else a bound in plain words. */
export function issueMessage(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return (
        schemaMessage(issue) ??
        (issue.inclusive === false ? `Must be more than ${issue.minimum}` : `Must be at least ${issue.minimum}`)
      );
    case 'too_big':
      return (
        schemaMessage(issue) ??
        (issue.inclusive === false ? `Must be less than ${issue.maximum}` : `Must be at most ${issue.maximum}`)
      );
    case 'invalid_type':
      return issue.expected === 'int' ? 'Must be a whole number' : 'Must be a number';
    case 'invalid_value':
      return `Choose one of ${issue.values.map(String).join(', ')}`;
    default:
      return humanizeFieldNames(issue.message);
  }
}

/** A typed string as a number: '' is missing, anything Number() cannot read is NaN. */
function readNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

export interface RunCreateInput {
  taskId: string;
  goal: string;
  config: ToTConfig;
  model: { provider: 'simulated'; seed: number; latencyMs: number };
}

export interface ParsedForm {
  /** run.create's input, or null when any field is wrong. */
  input: RunCreateInput | null;
  errors: FieldErrors;
}

/** Validates the whole form the way the server will: the task's goal check, the engine's config schema, the model's bounds. */
export function parseForm(values: FormValues): ParsedForm {
  const errors: FieldErrors = {};
  const set = (name: FieldName, message: string) => {
    errors[name] ??= message;
  };

  const entry = taskInfo(values.taskId);
  const goal = values.goal.trim();
  if (!entry) set('taskId', 'Choose a task');
  if (goal.length > GOAL_MAX_LENGTH) set('goal', `At most ${GOAL_MAX_LENGTH} characters`);
  else if (!goal) set('goal', `Enter a ${(entry?.goalLabel ?? 'goal').toLowerCase()}`);
  else {
    const problem = entry?.validateGoal(goal);
    if (problem) set('goal', sentence(problem));
  }

  const settings = parseSettings(values);
  for (const [name, message] of Object.entries(settings.errors) as [FieldName, string][]) set(name, message);

  if (Object.keys(errors).length > 0 || !settings.config || !settings.model || !entry) return { input: null, errors };
  return {
    input: { taskId: entry.id, goal, config: settings.config, model: { provider: 'simulated', ...settings.model } },
    errors,
  };
}

/** The settings part of the form (every config field, the simulated model's seed and latency). */
export type SettingValues = Omit<FormValues, 'taskId' | 'goal'>;

export interface ParsedSettings {
  /** The config and the simulated model's settings, or null when a field is wrong. */
  config: ToTConfig | null;
  model: { seed: number; latencyMs: number } | null;
  errors: FieldErrors;
}

/**
 * The settings alone, checked the way the server will (the engine's config schema, the model's bounds): the run
 * form's half beside its goal, and each of an experiment's configurations (lib/forms/experiment-form.ts).
 */
export function parseSettings(values: SettingValues): ParsedSettings {
  const errors: FieldErrors = {};
  const set = (name: FieldName, message: string) => {
    errors[name] ??= message;
  };
  // a field of another strategy's group (the MCTS settings of a beam run) is neither checked nor sent
  const strategy = values.explorationStrategy;
  const numbers: Partial<Record<NumberFieldSpec['name'], number | null>> = {};
  for (const field of NUMBER_FIELDS.filter((f) => groupShown(f.group, strategy))) {
    const value = readNumber(values[field.name]);
    if (value === null && !field.nullable) set(field.name, 'Required');
    else if (value !== null && Number.isNaN(value)) set(field.name, 'Must be a number');
    numbers[field.name] = value;
  }
  const choices = CHOICE_FIELDS.filter((f) => groupShown(f.group, strategy)).map((f) => [f.name, values[f.name]]);

  const configCandidate = {
    ...Object.fromEntries(CONFIG_KEYS.filter((k) => k in numbers).map((k) => [k, numbers[k as NumericConfigKey]])),
    ...Object.fromEntries(choices),
    explorationStrategy: strategy,
  };
  const config = toTConfigSchema.safeParse(configCandidate);
  if (!config.success) {
    for (const issue of config.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (isConfigKey(name)) set(name, issueMessage(issue));
    }
  }
  const model = modelFields.safeParse({ seed: numbers.seed, latencyMs: numbers.latencyMs });
  if (!model.success) {
    for (const issue of model.error.issues) {
      const name = String(issue.path[0] ?? '');
      if (name === 'seed' || name === 'latencyMs') set(name, issueMessage(issue));
    }
  }

  if (Object.keys(errors).length > 0 || !config.success || !model.success) return { config: null, model: null, errors };
  return { config: config.data, model: model.data, errors };
}

/**
 * A cost cap typed on its own (the fork dialog's field), checked by the config's own schema in the run form's
 * words: null when it is fine, empty (no cap) included.
 */
export function costCapError(text: string): string | null {
  const value = readNumber(text);
  if (value === null) return null;
  if (Number.isNaN(value)) return 'Must be a number';
  const parsed = toTConfigFields.shape.maxCostUsd.safeParse(value);
  const issue = parsed.success ? null : parsed.error.issues[0];
  return issue ? issueMessage(issue) : null;
}

/** The first field (in screen order) that has a message. */
export function firstErrorField(errors: FieldErrors): FieldName | null {
  return FIELD_ORDER.find((name) => errors[name]) ?? null;
}

/** What a tRPC client error carries that the form reads (see lib/server/trpc/trpc.ts's errorFormatter). */
export interface ServerErrorLike {
  message: string;
  data?: {
    field?: string | null;
    zodError?: { formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> } | null;
  } | null;
}

export interface ServerErrors {
  fields: FieldErrors;
  /** What belongs to no single field (shown at the foot of the form). */
  general: string | null;
}

/**
 * The run manager names the first bad config field and sends the whole InvalidConfigError text
 * ("Invalid exploration config: beamWidth: beamWidth cannot exceed branchFactor; ..."): keep that field's part.
 */
function configFieldMessage(key: ConfigKey, message: string): string {
  const body = message.replace(/^Invalid exploration config:\s*/, '');
  const part = body.split('; ').find((p) => p.startsWith(`${key}: `));
  return humanizeFieldNames(part ? part.slice(key.length + 2) : body);
}

/** A server error as messages beside fields; anything that names no form field becomes the general message. */
export function serverErrors(error: ServerErrorLike | null | undefined): ServerErrors {
  if (!error) return { fields: {}, general: null };
  const fields: FieldErrors = {};
  const general: string[] = [];
  const place = (path: string, message: string) => {
    const [head, key] = path.split('.');
    if (head === 'config' && key && isConfigKey(key)) fields[key] ??= configFieldMessage(key, message);
    else if (head === 'model' && (key === 'seed' || key === 'latencyMs')) fields[key] ??= sentence(message);
    else if (path === 'goal' || path === 'taskId') fields[path] ??= sentence(message);
    else general.push(path ? `${path}: ${message}` : message);
  };

  const data = error.data;
  if (data?.field) place(data.field, error.message);
  const zod = data?.zodError;
  if (zod) {
    for (const [path, messages] of Object.entries(zod.fieldErrors ?? {})) {
      const first = messages?.[0];
      if (first) place(path, first);
    }
    for (const message of zod.formErrors ?? []) general.push(message);
  }
  if (!data?.field && !zod) general.push(error.message);
  return { fields, general: general.length > 0 ? general.join('; ') : null };
}

/** run.create's input as the form sends it: the parsed form with the chosen model in place of the simulated one. */
export type RunCreateRequest = Omit<RunCreateInput, 'model'> & { model: ModelSpecInput };

export type Submission =
  | { ok: true; input: RunCreateRequest }
  /** Nothing is sent: `focus` is the first wrong field, or null when only the model choice is wrong. */
  | { ok: false; focus: FieldName | null };

/** What "Start run" does with the form as parsed and the model as chosen: send run.create's input, or point at a fix. */
export function submission(parsed: ParsedForm, choice: ModelChoice): Submission {
  if (!parsed.input) return { ok: false, focus: firstErrorField(parsed.errors) };
  if (modelChoiceError(choice)) return { ok: false, focus: null };
  return { ok: true, input: { ...parsed.input, model: modelSpec(choice, parsed.input.model) } };
}

export interface FormMessages {
  /** The message beside each field. */
  fields: FieldErrors;
  /** What belongs to no field, at the foot of the form. */
  general: string | null;
  /** The server's word on the chosen model (model.model, model.baseURL, ...), beside the model picker. */
  model: string | null;
}

/**
 * The messages on screen. The client's show at once (settings start valid, so a message there follows an edit),
 * except the goal's, which waits until the person leaves the field or presses Start. The server's describe what
 * was sent, so they show only while the form still holds exactly that.
 */
export function formMessages(state: {
  values: FormValues;
  parsed: ParsedForm;
  goalTouched: boolean;
  submitted: boolean;
  sent: FormValues | null;
  error: ServerErrorLike | null | undefined;
}): FormMessages {
  const current = state.sent !== null && sameValues(state.values, state.sent) ? state.error : null;
  const server = serverErrors(current);
  const fields: FieldErrors = {};
  for (const [name, message] of Object.entries(state.parsed.errors) as [FieldName, string][]) {
    if (name !== 'goal' || state.goalTouched || state.submitted) fields[name] = message;
  }
  Object.assign(fields, server.fields);
  const model = current && /^model\./.test(current.message) ? current.message : null;
  return { fields, general: server.general, model };
}

/** The values after choosing a task: its example goal replaces the old task's (settings are kept). */
export function withTask(values: FormValues, taskId: string): FormValues {
  return { ...values, taskId, goal: taskInfo(taskId)?.exampleGoal ?? '' };
}

/** The closed "Advanced settings" line: what the hidden fields hold. */
export function advancedSummary(values: FormValues): string {
  return (
    `weights ${values.confidenceWeight || '?'} / ${values.progressWeight || '?'} / ${values.noveltyWeight || '?'}` +
    ` · ${values.maxIterationsPerBranch || '?'} turns per branch`
  );
}
