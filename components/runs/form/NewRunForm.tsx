'use client';
/**
 * The form that starts a run: task and goal (a code change's goal is picked: CodeGoalPicker.tsx), every config field with its default (grouped as search shape, scoring
 * and limits, the less common ones under "Advanced"; Monte Carlo tree search's own group only while mcts is the
 * strategy), the simulated model's seed and latency, and optional
 * breakpoints the run starts with (NewRunBreakpoints.tsx). Messages sit
 * beside their fields: the client checks with the same schema as the server (lib/forms/run-form.ts) for instant feedback,
 * and a server's BAD_REQUEST is shown beside the field it names. On success it opens the new run.
 * Not responsible for validation rules (lib/forms/run-form.ts, lib/contract/vocabulary.ts) or the runs list.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { TASK_INFO, taskInfo } from '@/lib/contract/tasks';
import { useTRPC } from '@/lib/trpc/index';
import {
  ADVANCED_FIELDS,
  CHOICE_FIELDS,
  GROUPS,
  NUMBER_FIELDS,
  STRATEGIES,
  advancedSummary,
  choiceHint,
  defaultSettings,
  fieldHint,
  firstErrorField,
  formMessages,
  groupShown,
  initialValues,
  parseForm,
  rangeText,
  serverErrors,
  settingsAreDefault,
  submission,
  withTask,
  type ChoiceFieldSpec,
  type FieldErrors,
  type FieldName,
  type FormValues,
  type NumberFieldSpec,
} from '@/lib/forms/index';
import { defaultModelChoice, modelChoiceError, type ModelChoice } from '@/lib/forms/index';
import type { Breakpoint } from '@/lib/contract/breakpoints';
import { CodeGoalPicker } from './CodeGoalPicker';
import { NewRunBreakpoints } from './NewRunBreakpoints';
import { ModelPicker } from '../../shared/ModelPicker';
import s from './NewRunForm.module.css';

/** Moves focus to a field once React has rendered it (an advanced field may only now be shown). */
function focusField(name: FieldName | null) {
  if (!name) return;
  requestAnimationFrame(() => document.getElementById(name)?.focus());
}

function FieldMessage({ name, error, hint }: { name: FieldName; error: string | undefined; hint: string }) {
  return error ? (
    <span id={`${name}-message`} className={`field-error ${s.message}`} data-testid={`error-${name}`} role="alert">
      {error}
    </span>
  ) : (
    <span id={`${name}-message`} className={`field-hint ${s.message}`}>
      {hint}
    </span>
  );
}

/** One setting as a row: label, range and hint on the left, the input on the right, its error below both. */
function SettingRow({
  name,
  label,
  range,
  hint,
  error,
  children,
}: {
  name: FieldName;
  label: string;
  range?: string | null;
  hint: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={s.setting} data-invalid={Boolean(error)}>
      <div className={s.settingText}>
        <span className={s.settingLabel}>
          <label htmlFor={name}>{label}</label>
          {range && <span className={s.range}>{range}</span>}
        </span>
        <span id={`${name}-hint`} className={s.hint}>
          {hint}
        </span>
      </div>
      {children}
      {error && (
        <span
          id={`${name}-message`}
          className={`field-error ${s.settingError}`}
          data-testid={`error-${name}`}
          role="alert"
        >
          {error}
        </span>
      )}
    </div>
  );
}

const describedBy = (name: FieldName, error: string | undefined) =>
  error ? `${name}-message ${name}-hint` : `${name}-hint`;

function NumberInput({
  field,
  hint,
  value,
  error,
  onChange,
}: {
  field: NumberFieldSpec;
  /** The field's hint for the strategy chosen (fieldHint). */
  hint: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <SettingRow name={field.name} label={field.label} range={rangeText(field)} hint={hint} error={error}>
      <input
        id={field.name}
        name={field.name}
        className={`input ${s.control}`}
        type="number"
        inputMode={field.step < 1 ? 'decimal' : 'numeric'}
        step={field.step}
        min={field.min ?? undefined}
        max={field.max ?? undefined}
        placeholder={field.nullable ? 'none' : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy(field.name, error)}
        data-testid={`field-${field.name}`}
      />
    </SettingRow>
  );
}

/** A config field chosen from the schema's values (MCTS's backup and best-path rules); its hint says what the chosen one does. */
function ChoiceInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ChoiceFieldSpec;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <SettingRow name={field.name} label={field.label} hint={choiceHint(field, value)} error={error}>
      <select
        id={field.name}
        className={`input ${s.control}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={describedBy(field.name, error)}
        data-testid={`field-${field.name}`}
      >
        {field.options.map((o) => (
          <option key={o.value} value={o.value} title={o.hint}>
            {o.value}
          </option>
        ))}
      </select>
    </SettingRow>
  );
}

export function NewRunForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<FormValues>(() => initialValues());
  const [goalTouched, setGoalTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  /** What was sent: a server's messages describe these values, and stop showing once the person edits. */
  const [sentValues, setSentValues] = useState<FormValues | null>(null);

  const create = useMutation(
    trpc.run.create.mutationOptions({
      onSuccess: ({ id }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.run.list.pathKey() });
        router.push(`/runs/${id}`);
      },
      onError: (error) => {
        const { fields } = serverErrors(error);
        focusField(firstErrorField(fields));
      },
    }),
  );

  const [breakpoints, setBreakpoints] = useState<readonly Breakpoint[]>([]);
  const [modelChoice, setModelChoice] = useState<ModelChoice>(() => defaultModelChoice());
  const parsed = useMemo(() => parseForm(values), [values]);
  const modelError = modelChoiceError(modelChoice);
  const messages = formMessages({ values, parsed, goalTouched, submitted, sent: sentValues, error: create.error });
  const errors = messages.fields;

  const showAdvanced = advancedOpen || ADVANCED_FIELDS.some((name) => errors[name]);
  const busy = create.isPending || create.isSuccess;

  const set = (name: FieldName, value: string) => setValues((v) => ({ ...v, [name]: value }));

  function chooseTask(taskId: string) {
    setValues((v) => withTask(v, taskId));
    setGoalTouched(false);
  }

  function resetSettings() {
    setValues((v) => ({ ...v, ...defaultSettings() }));
    create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setSubmitted(true);
    const plan = submission(parsed, modelChoice);
    if (!plan.ok) {
      focusField(plan.focus);
      return;
    }
    setSentValues(values);
    create.mutate(breakpoints.length > 0 ? { ...plan.input, breakpoints: [...breakpoints] } : plan.input);
  }

  return (
    <form
      id="new-run"
      className={s.form}
      onSubmit={submit}
      aria-label="Start a run"
      noValidate
      data-testid="new-run-form"
    >
      <GoalRow
        values={values}
        errors={errors}
        onTask={chooseTask}
        onGoal={(goal, typed) => {
          set('goal', goal);
          if (typed !== null) setGoalTouched(typed);
        }}
      />

      <div className={s.groups}>
        {GROUPS.filter((group) => groupShown(group.id, values.explorationStrategy)).map((group) => (
          <SettingGroup
            key={group.id}
            group={group}
            values={values}
            errors={errors}
            showAdvanced={showAdvanced}
            onValue={set}
            model={
              group.id === 'model' && {
                choice: modelChoice,
                onChange: setModelChoice,
                error: submitted ? (modelError ?? messages.model) : messages.model,
              }
            }
          />
        ))}
      </div>

      <NewRunBreakpoints list={breakpoints} onChange={setBreakpoints} />

      <div className={s.foot}>
        <button
          type="button"
          className={s.disclosure}
          aria-expanded={showAdvanced}
          onClick={() => setAdvancedOpen(!showAdvanced)}
          data-testid="advanced-toggle"
        >
          <span className={s.chevron} aria-hidden>
            ▸
          </span>
          {showAdvanced ? 'Hide advanced settings' : 'Advanced settings'}
          {!showAdvanced && <span className={s.summary}>{advancedSummary(values)}</span>}
        </button>
        <div className={s.actions}>
          {messages.general && (
            <span className="field-error" role="alert" data-testid="form-error">
              Could not start the run: {messages.general}
            </span>
          )}
          <button
            type="button"
            className="btn"
            onClick={resetSettings}
            disabled={settingsAreDefault(values)}
            data-testid="reset-defaults"
          >
            Reset to defaults
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="start-run">
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The task, and its goal: typed, or picked for a code change (CodeGoalPicker.tsx). */
function GoalRow({
  values,
  errors,
  onTask,
  onGoal,
}: {
  values: FormValues;
  errors: FieldErrors;
  onTask: (taskId: string) => void;
  /** typed: whether the person typed it (messages wait until then); null: not known yet (still typing). */
  onGoal: (goal: string, typed: boolean | null) => void;
}) {
  const task = taskInfo(values.taskId);
  return (
    <div className={s.goalRow}>
      <div className="field">
        <label htmlFor="taskId">Task</label>
        <select
          id="taskId"
          value={values.taskId}
          onChange={(e) => onTask(e.target.value)}
          aria-invalid={Boolean(errors.taskId)}
          aria-describedby="taskId-message"
          data-testid="field-taskId"
        >
          {TASK_INFO.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
        <FieldMessage
          name="taskId"
          error={errors.taskId}
          hint={task?.checksAnswers ? 'answers are checked' : 'answers are not checked'}
        />
      </div>
      {values.taskId === 'code' ? (
        <div className="field">
          <label htmlFor="goal">{task?.goalLabel ?? 'Project'}</label>
          <CodeGoalPicker
            goal={values.goal}
            onGoal={(goal, typed) => onGoal(goal, typed)}
            error={errors.goal}
            message={
              <FieldMessage
                name="goal"
                error={errors.goal}
                hint="Each step proposes a hypothesis with a diff; the TypeScript compiler and the project's tests check it in a sandbox."
              />
            }
          />
        </div>
      ) : (
        <div className="field">
          <label htmlFor="goal">{task?.goalLabel ?? 'Goal'}</label>
          <input
            id="goal"
            name="goal"
            value={values.goal}
            onChange={(e) => onGoal(e.target.value, null)}
            onBlur={() => onGoal(values.goal, true)}
            placeholder={task?.exampleGoal}
            autoComplete="off"
            spellCheck={task?.goalIsProse ?? true}
            aria-invalid={Boolean(errors.goal)}
            aria-describedby="goal-message"
            data-testid="field-goal"
          />
          <FieldMessage name="goal" error={errors.goal} hint={task?.describeGoal ?? ''} />
        </div>
      )}
    </div>
  );
}

/** One group of settings (search shape, scoring, limits, the model), its advanced fields when they are shown. */
function SettingGroup({
  group,
  values,
  errors,
  showAdvanced,
  onValue,
  model,
}: {
  group: (typeof GROUPS)[number];
  values: FormValues;
  errors: FieldErrors;
  showAdvanced: boolean;
  onValue: (name: FieldName, value: string) => void;
  /** The model group's picker; false for the other groups. */
  model: false | { choice: ModelChoice; onChange: (choice: ModelChoice) => void; error: string | null };
}) {
  const fields = NUMBER_FIELDS.filter((f) => f.group === group.id);
  const main = fields.filter((f) => !f.advanced);
  const advanced = fields.filter((f) => f.advanced);
  const choices = CHOICE_FIELDS.filter((f) => f.group === group.id);
  const strategy = values.explorationStrategy;
  const strategyHint = STRATEGIES.find((st) => st.value === values.explorationStrategy)?.hint ?? '';
  return (
    <fieldset
      className={s.group}
      data-testid={`group-${group.id}`}
      data-wide={model && model.choice.provider !== 'simulated' ? true : undefined}
    >
      <legend className={s.legend}>{group.title}</legend>
      <div className={s.fields}>
        {group.id === 'search' && (
          <SettingRow
            name="explorationStrategy"
            label="Strategy"
            hint={strategyHint}
            error={errors.explorationStrategy}
          >
            <select
              id="explorationStrategy"
              className={`input ${s.control}`}
              value={values.explorationStrategy}
              onChange={(e) => onValue('explorationStrategy', e.target.value)}
              aria-invalid={Boolean(errors.explorationStrategy)}
              aria-describedby={describedBy('explorationStrategy', errors.explorationStrategy)}
              data-testid="field-explorationStrategy"
            >
              {STRATEGIES.map((st) => (
                <option key={st.value} value={st.value}>
                  {st.label}
                </option>
              ))}
            </select>
          </SettingRow>
        )}
        {model && <RunModelPicker choice={model.choice} onChange={model.onChange} error={model.error} />}
        {main
          .filter(() => !model || model.choice.provider === 'simulated')
          .map((f) => (
            <NumberInput
              key={f.name}
              field={f}
              hint={fieldHint(f, strategy)}
              value={values[f.name]}
              error={errors[f.name]}
              onChange={(v) => onValue(f.name, v)}
            />
          ))}
        {choices.map((f) => (
          <ChoiceInput
            key={f.name}
            field={f}
            value={values[f.name]}
            error={errors[f.name]}
            onChange={(v) => onValue(f.name, v)}
          />
        ))}
      </div>
      {showAdvanced && advanced.length > 0 && (
        <div className={s.advancedFields} data-testid={`advanced-${group.id}`}>
          <span className={s.advancedLabel}>Advanced</span>
          <div className={s.fields}>
            {advanced.map((f) => (
              <NumberInput
                key={f.name}
                field={f}
                hint={fieldHint(f, strategy)}
                value={values[f.name]}
                error={errors[f.name]}
                onChange={(v) => onValue(f.name, v)}
              />
            ))}
          </div>
        </div>
      )}
    </fieldset>
  );
}

/** The shared model picker with what a run may use: the server's backends, or a replay of a finished run's calls. */
function RunModelPicker({
  choice,
  onChange,
  error,
}: {
  choice: ModelChoice;
  onChange: (choice: ModelChoice) => void;
  error: string | null;
}) {
  const trpc = useTRPC();
  const backends = useQuery(trpc.backend.list.queryOptions());
  const recorded = useQuery({
    ...trpc.run.list.queryOptions({ limit: 100, status: 'finished' }),
    enabled: choice.provider === 'replay',
  });
  return (
    <ModelPicker
      choice={choice}
      onChange={onChange}
      error={error}
      backends={backends.data}
      replay={{ runs: recorded.data?.items ?? [] }}
    />
  );
}
