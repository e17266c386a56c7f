'use client';
/**
 * One setting of an experiment's configuration card: a number (the run form's NUMBER_FIELDS: label, range, its hint
 * as the label's title, its message below) or a choice (CHOICE_FIELDS: the schema's values, the chosen one's hint).
 * A field the configuration's strategy does not read (beam width under mcts) says so in place of its range.
 * Not responsible for which fields a card shows (ConfigurationCard.tsx) nor for parsing (lib/forms/experiment-form.ts).
 */
import {
  choiceHint,
  fieldHint,
  fieldUnused,
  rangeText,
  type ChoiceFieldSpec,
  type NumberFieldSpec,
} from '@/lib/forms/index';
import s from './NewExperimentForm.module.css';

function FieldError({ error }: { error: string | undefined }) {
  return error ? (
    <span className={`field-error ${s.settingError}`} role="alert">
      {error}
    </span>
  ) : null;
}

export function NumberField({
  id,
  field,
  strategy,
  value,
  error,
  onChange,
}: {
  id: string;
  field: NumberFieldSpec;
  /** The configuration's strategy as typed (a field it does not read says so). */
  strategy: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const range = fieldUnused(field, strategy) ? fieldHint(field, strategy) : rangeText(field);
  return (
    <div className={s.setting} data-invalid={Boolean(error)}>
      <label htmlFor={id} className={s.settingLabel} title={fieldHint(field, strategy)}>
        {field.label}
        {range && <span className={s.rangeText}>{range}</span>}
      </label>
      <input
        id={id}
        className={`input ${s.control}`}
        type="number"
        step={field.step}
        min={field.min ?? undefined}
        max={field.max ?? undefined}
        placeholder={field.nullable ? 'none' : undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        data-testid={`${id}`}
      />
      <FieldError error={error} />
    </div>
  );
}

export function ChoiceField({
  id,
  field,
  value,
  error,
  onChange,
}: {
  id: string;
  field: ChoiceFieldSpec;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <div className={s.setting} data-invalid={Boolean(error)}>
      <label htmlFor={id} className={s.settingLabel} title={field.hint}>
        {field.label}
      </label>
      <select
        id={id}
        className={`input ${s.control}`}
        value={value}
        title={choiceHint(field, value)}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={Boolean(error)}
        data-testid={`${id}`}
      >
        {field.options.map((o) => (
          <option key={o.value} value={o.value} title={o.hint}>
            {o.value}
          </option>
        ))}
      </select>
      <FieldError error={error} />
    </div>
  );
}
