'use client';
/**
 * The runs list's label filter: any label, or one of the operator's labels (label.choices), to list only the runs
 * with a node carrying it. A label a shared link names that is not in this server's set is still shown as chosen.
 * Not responsible for the URL (RunsTable) or the query.
 */
import s from './RunsTable.module.css';

export function LabelFilter({
  label,
  choices,
  onChange,
  disabled,
}: {
  label: string | null;
  /** The operator's labels, in their order. */
  choices: readonly string[];
  onChange: (label: string | null) => void;
  disabled: boolean;
}) {
  const shown = label !== null && !choices.includes(label) ? [...choices, label] : choices;
  return (
    <label className={s.taskFilter} title="Only the runs with a node carrying this label">
      <span>Label</span>
      <select
        className={`input ${s.labelSelect}`}
        value={label ?? ''}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value || null)}
        data-testid="label-filter"
      >
        <option value="">Any</option>
        {shown.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
