'use client';
// The panel's "Add breakpoint" form: a kind (the contract's BREAKPOINT_KINDS, in its words) and the one thing it
// needs (a score, a depth, a cost, a number of tokens, a text with where to look and how to match, a node, an MCTS
// iteration, Q or number of visits: offered on every run, they never hit on one that is not MCTS). Checked
// as the person types by the contract's own schema (lib/store conditionFromDraft), each message beside its field: a
// catastrophic regular expression is refused here as the server would refuse it. A group, not a <form>: the new-run
// form holds it too (forms do not nest), so Enter in one of its fields adds, as a form's would.
// Not responsible for the list it adds to (BreakpointsPanel.tsx) nor for the rules (lib/contract/breakpoints.ts).
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  BREAKPOINT_KINDS,
  type BreakpointCondition,
  type BreakpointKind,
  type TextField,
} from '@/lib/contract/breakpoints';
import { type BreakpointDraft, conditionFromDraft, type DraftField, EMPTY_DRAFT, KIND_FIELDS } from '@/lib/store/index';
import styles from './Breakpoints.module.css';

const TEXT_FIELDS: { value: TextField; label: string }[] = [
  { value: 'thought', label: 'a thought' },
  { value: 'result', label: 'a result' },
  { value: 'response', label: 'a model response' },
];

const NUMBER_INPUTS: Partial<Record<DraftField, { label: string; step: string; min?: number; hint: string }>> = {
  value: { label: 'Score', step: '0.05', hint: 'a candidate’s composite score (0 to 1)' },
  depth: { label: 'Depth', step: '1', min: 1, hint: 'the root is depth 0' },
  usd: { label: 'Cost ($)', step: '0.01', min: 0, hint: 'the model call that takes the run past it' },
  tokens: { label: 'Tokens', step: '1000', min: 0, hint: 'input and output, all calls' },
  iteration: {
    label: 'Iteration',
    step: '1',
    min: 1,
    hint: 'the MCTS iteration to stop at as it begins (the first is 1)',
  },
  q: { label: 'Q', step: '0.05', hint: 'a node’s mean (or max) value backed up, 0 to 1; stops as it passes this' },
  visits: { label: 'Visits', step: '1', min: 1, hint: 'a node’s MCTS visits (N); stops as they pass this' },
};

export function AddBreakpointForm({
  onAdd,
  disabled,
  defaultNodeId,
}: {
  onAdd: (condition: BreakpointCondition) => void;
  /** Why nothing can be added now (the list is full), or null. */
  disabled: string | null;
  /** The node "node about to run" starts from (the selected one). */
  defaultNodeId: string | null;
}) {
  const id = useId();
  const [draft, setDraft] = useState<BreakpointDraft>(EMPTY_DRAFT);
  // messages show for a field once it was edited, and for all of them once the person tried to add
  const [touched, setTouched] = useState<ReadonlySet<DraftField>>(new Set());
  const [tried, setTried] = useState(false);
  const result = conditionFromDraft(draft);
  const errors = result.ok ? {} : result.errors;
  const shown = (field: DraftField) => (tried || touched.has(field) ? errors[field] : undefined);
  const fields = KIND_FIELDS[draft.kind];

  const set = <K extends DraftField>(field: K, value: BreakpointDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => new Set(t).add(field));
  };
  const chooseKind = (kind: BreakpointKind) => {
    setDraft((d) => ({ ...d, kind, nodeId: kind === 'node-runs' && !d.nodeId ? (defaultNodeId ?? '') : d.nodeId }));
    setTried(false);
  };

  function submit() {
    setTried(true);
    if (!result.ok || disabled) return;
    onAdd(result.condition);
    // the same kind stays chosen (several of a kind are common); its text starts empty again
    setDraft((d) => ({ ...d, pattern: '' }));
    setTouched(new Set());
    setTried(false);
  }

  const fieldId = (field: DraftField) => `${id}-${field}`;
  return (
    <div
      className={styles.add}
      role="group"
      aria-label="Add breakpoint"
      data-testid="breakpoint-add"
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== 'Enter' || (event.target as HTMLElement).tagName !== 'INPUT') return;
        event.preventDefault();
        submit();
      }}
    >
      <div className={styles.addRow}>
        <label className={styles.addLabel} htmlFor={`${id}-kind`}>
          Stop when
        </label>
        <select
          id={`${id}-kind`}
          className={`input ${styles.kind}`}
          value={draft.kind}
          onChange={(e) => chooseKind(e.target.value as BreakpointKind)}
          data-testid="breakpoint-kind"
        >
          {BREAKPOINT_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      {fields.map((field) => (
        <ConditionField
          key={field}
          field={field}
          draft={draft}
          onSet={set}
          inputId={fieldId(field)}
          error={shown(field)}
        />
      ))}
      <div className={styles.addFoot}>
        {disabled && <span className="field-hint">{disabled}</span>}
        <button
          type="button"
          className="btn btn-sm"
          onClick={submit}
          disabled={disabled !== null}
          data-testid="breakpoint-add-submit"
        >
          Add breakpoint
        </button>
      </div>
    </div>
  );
}

/** One field a kind of breakpoint needs, with its message beside it. */
function ConditionField({
  field,
  draft,
  onSet,
  inputId,
  error,
}: {
  field: DraftField;
  draft: BreakpointDraft;
  onSet: <K extends DraftField>(field: K, value: BreakpointDraft[K]) => void;
  inputId: string;
  /** The field's message, once it is to be shown. */
  error: string | undefined;
}) {
  const message: ReactNode = error ? (
    <span id={`${inputId}-error`} className={`field-error ${styles.fieldError}`} role="alert">
      {error}
    </span>
  ) : null;
  const invalid = { 'aria-invalid': Boolean(error), 'aria-describedby': error ? `${inputId}-error` : undefined };
  const number = NUMBER_INPUTS[field];
  if (number) {
    return (
      <div className={styles.addRow}>
        <label className={styles.addLabel} htmlFor={inputId}>
          {number.label}
        </label>
        <div className={styles.addField}>
          <input
            id={inputId}
            className="input"
            type="number"
            inputMode="decimal"
            step={number.step}
            min={number.min}
            value={draft[field] as string}
            onChange={(e) => onSet(field, e.target.value)}
            title={number.hint}
            data-testid={`breakpoint-${field}`}
            {...invalid}
          />
          {message}
        </div>
      </div>
    );
  }
  if (field === 'pattern') {
    return (
      <div className={styles.addRow}>
        <label className={styles.addLabel} htmlFor={inputId}>
          Text
        </label>
        <div className={styles.addField}>
          <input
            id={inputId}
            className="input"
            value={draft.pattern}
            onChange={(e) => onSet('pattern', e.target.value)}
            placeholder={draft.regex ? 'a regular expression' : 'text to look for'}
            spellCheck={false}
            autoComplete="off"
            data-testid="breakpoint-pattern"
            {...invalid}
          />
          {message}
        </div>
      </div>
    );
  }
  if (field === 'field') {
    return (
      <div className={styles.addRow}>
        <label className={styles.addLabel} htmlFor={inputId}>
          In
        </label>
        <select
          id={inputId}
          className="input"
          value={draft.field}
          onChange={(e) => onSet('field', e.target.value as TextField)}
          data-testid="breakpoint-field"
        >
          {TEXT_FIELDS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
    );
  }
  if (field === 'regex' || field === 'caseSensitive') {
    return (
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={draft[field]}
          onChange={(e) => onSet(field, e.target.checked)}
          data-testid={`breakpoint-${field}`}
        />
        {field === 'regex' ? 'Regular expression' : 'Match case'}
      </label>
    );
  }
  return (
    <div className={styles.addRow}>
      <label className={styles.addLabel} htmlFor={inputId}>
        Node
      </label>
      <div className={styles.addField}>
        <input
          id={inputId}
          className="input mono"
          value={draft.nodeId}
          onChange={(e) => onSet('nodeId', e.target.value)}
          placeholder="n12"
          spellCheck={false}
          autoComplete="off"
          data-testid="breakpoint-nodeId"
          {...invalid}
        />
        {message}
      </div>
    </div>
  );
}
