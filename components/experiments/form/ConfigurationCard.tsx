'use client';
/**
 * One configuration of a new experiment: its label, the search strategy, its model (the run form's picker,
 * components/shared/ModelPicker.tsx: the simulator, or an OpenAI-compatible server the backends list offers), the run
 * form's main settings (beam width, branch factor, depth...) with the model's seed (and the simulator's latency), the
 * settings only one strategy reads (Monte Carlo tree search's, while mcts is chosen: a group with `onlyFor`), the
 * rest under "More settings". Every field is the run form's own (lib/forms NUMBER_FIELDS, CHOICE_FIELDS, STRATEGIES),
 * drawn by SettingFields.tsx, its message beside it.
 * Not responsible for parsing (lib/forms/experiment-form.ts) nor for fetching the backends (the form asks once).
 */
import { useState } from 'react';
import {
  CHOICE_FIELDS,
  GROUPS,
  NUMBER_FIELDS,
  STRATEGIES,
  groupShown,
  modelSettingFields,
  type ConfigurationDraft,
  type ConfigurationErrors,
  type NumberFieldSpec,
  type SettingValues,
} from '@/lib/forms/index';
import { ModelPicker, type ModelBackends } from '../../shared/ModelPicker';
import { ChoiceField, NumberField } from './SettingFields';
import s from './NewExperimentForm.module.css';

/** The fields shown at once; the others wait under "More settings". */
const MAIN: readonly NumberFieldSpec['name'][] = ['beamWidth', 'branchFactor', 'maxDepth', 'seed', 'latencyMs'];
const MAIN_FIELDS = MAIN.map((name) => NUMBER_FIELDS.find((f) => f.name === name)).filter(
  (f): f is NumberFieldSpec => f !== undefined,
);
/** A real model's seed means its server's seed, not the simulator's tree. */
const REAL_SEED_HINT = 'sent to the server as its seed (best-effort); each repetition adds one';
/** Groups one strategy reads: shown at once while it is chosen (they are what such a configuration is about). */
const STRATEGY_GROUPS = new Set(GROUPS.filter((g) => g.onlyFor !== null).map((g) => g.id));
const STRATEGY_NUMBERS = NUMBER_FIELDS.filter((f) => STRATEGY_GROUPS.has(f.group));
const STRATEGY_CHOICES = CHOICE_FIELDS.filter((f) => STRATEGY_GROUPS.has(f.group));
const MORE_FIELDS = NUMBER_FIELDS.filter((f) => !MAIN.includes(f.name) && !STRATEGY_GROUPS.has(f.group));

export function ConfigurationCard({
  index,
  draft,
  errors,
  backends,
  onChange,
  onRemove,
}: {
  index: number;
  draft: ConfigurationDraft;
  errors: ConfigurationErrors;
  /** backend.list's answer, undefined while it loads. */
  backends: ModelBackends | undefined;
  onChange: (next: ConfigurationDraft) => void;
  /** null: the last configuration cannot be removed. */
  onRemove: (() => void) | null;
}) {
  const [more, setMore] = useState(false);
  const prefix = `config-${index}`;
  const set = (name: keyof SettingValues, value: string) =>
    onChange({ ...draft, settings: { ...draft.settings, [name]: value } });
  const showMore = more || MORE_FIELDS.some((f) => errors[f.name]);
  const modelFields: readonly string[] = modelSettingFields(draft.model.provider);
  const mainFields = MAIN_FIELDS.filter((f) => f.group !== 'model' || modelFields.includes(f.name)).map((f) =>
    f.name === 'seed' && draft.model.provider !== 'simulated' ? { ...f, hint: REAL_SEED_HINT } : f,
  );
  const strategy = draft.settings.explorationStrategy;
  const strategyNumbers = STRATEGY_NUMBERS.filter((f) => groupShown(f.group, strategy));
  const strategyChoices = STRATEGY_CHOICES.filter((f) => groupShown(f.group, strategy));
  return (
    <fieldset className={s.configuration} data-testid={`configuration-${index}`}>
      <legend className={s.legend}>Configuration {index + 1}</legend>
      <div className={s.configHead}>
        <div className="field">
          <label htmlFor={`${prefix}-label`}>Label</label>
          <input
            id={`${prefix}-label`}
            value={draft.label}
            onChange={(e) => onChange({ ...draft, label: e.target.value })}
            aria-invalid={Boolean(errors.label)}
            data-testid={`${prefix}-label`}
          />
          {errors.label && <span className="field-error">{errors.label}</span>}
        </div>
        <div className="field">
          <label htmlFor={`${prefix}-strategy`}>Strategy</label>
          <select
            id={`${prefix}-strategy`}
            value={draft.settings.explorationStrategy}
            onChange={(e) => set('explorationStrategy', e.target.value)}
            data-testid={`${prefix}-strategy`}
          >
            {STRATEGIES.map((st) => (
              <option key={st.value} value={st.value} title={st.hint}>
                {st.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ModelPicker
        prefix={prefix}
        choice={draft.model}
        onChange={(model) => onChange({ ...draft, model })}
        error={errors.model ?? null}
        backends={backends}
        replay={false}
      />
      <div className={s.settings}>
        {mainFields.map((f) => (
          <NumberField
            key={f.name}
            id={`${prefix}-${f.name}`}
            field={f}
            strategy={strategy}
            value={draft.settings[f.name]}
            error={errors[f.name]}
            onChange={(v) => set(f.name, v)}
          />
        ))}
      </div>
      {(strategyNumbers.length > 0 || strategyChoices.length > 0) && (
        <div className={s.settings} data-testid={`${prefix}-strategy-settings`}>
          {strategyNumbers.map((f) => (
            <NumberField
              key={f.name}
              id={`${prefix}-${f.name}`}
              field={f}
              strategy={strategy}
              value={draft.settings[f.name]}
              error={errors[f.name]}
              onChange={(v) => set(f.name, v)}
            />
          ))}
          {strategyChoices.map((f) => (
            <ChoiceField
              key={f.name}
              id={`${prefix}-${f.name}`}
              field={f}
              value={draft.settings[f.name]}
              error={errors[f.name]}
              onChange={(v) => set(f.name, v)}
            />
          ))}
        </div>
      )}
      {showMore && (
        <div className={s.settings} data-testid={`${prefix}-more`}>
          {MORE_FIELDS.map((f) => (
            <NumberField
              key={f.name}
              id={`${prefix}-${f.name}`}
              field={f}
              strategy={strategy}
              value={draft.settings[f.name]}
              error={errors[f.name]}
              onChange={(v) => set(f.name, v)}
            />
          ))}
        </div>
      )}
      <div className={s.configFoot}>
        <button type="button" className={s.linkButton} aria-expanded={showMore} onClick={() => setMore(!showMore)}>
          {showMore ? 'Fewer settings' : 'More settings'}
        </button>
        {onRemove && (
          <button
            type="button"
            className={`${s.linkButton} ${s.remove}`}
            onClick={onRemove}
            data-testid={`${prefix}-remove`}
          >
            Remove
          </button>
        )}
      </div>
    </fieldset>
  );
}
