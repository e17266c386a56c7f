'use client';
/**
 * The runs list's filters: a search box (goal, output, import tag; searched on the server), status as a segmented
 * control, task as a select. Controlled: the URL holds the filters (RunsTable reads and writes them), so this only
 * reports a change; the search box reports after a short pause in typing, not on every key.
 * Not responsible for the URL or the query.
 */
import { useEffect, useState } from 'react';
import { TASKS, type TaskId } from '@/lib/tasks/index';
import type { StoredRunStatus } from '@/lib/server/repositories/runs';
import { MAX_SEARCH_LENGTH, STATUS_FILTERS, type RunFilters } from './list-model';
import s from './RunsTable.module.css';

const STATUS_OPTIONS: { value: StoredRunStatus | null; label: string }[] = [
  { value: null, label: 'All' },
  ...STATUS_FILTERS.map((status) => ({ value: status, label: status.charAt(0).toUpperCase() + status.slice(1) })),
];

export function RunsFilters({
  filters,
  onChange,
  disabled = false,
}: {
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
  disabled?: boolean;
}) {
  return (
    <div className={s.filters}>
      <RunSearch filters={filters} onChange={onChange} disabled={disabled} />
      <div className={s.segmented} role="group" aria-label="Filter by status">
        {STATUS_OPTIONS.map((option) => {
          const active = filters.status === option.value;
          return (
            <button
              key={option.value ?? 'all'}
              type="button"
              className={s.segment}
              aria-pressed={active}
              disabled={disabled}
              onClick={() => onChange({ ...filters, status: option.value })}
              data-testid={`status-filter-${option.value ?? 'all'}`}
            >
              {option.value && <span className={`${s.dot} st-${option.value}`} aria-hidden />}
              {option.label}
            </button>
          );
        })}
      </div>
      <label className={s.taskFilter}>
        <span>Task</span>
        <select
          className="input"
          value={filters.taskId ?? ''}
          disabled={disabled}
          onChange={(e) => onChange({ ...filters, taskId: (e.target.value || null) as TaskId | null })}
          data-testid="task-filter"
        >
          <option value="">All tasks</option>
          {TASKS.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

const SEARCH_DEBOUNCE_MS = 250;

function RunSearch({
  filters,
  onChange,
  disabled,
}: {
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
  disabled: boolean;
}) {
  const [text, setText] = useState(filters.q);
  // The URL may change under the box (Clear filters, back/forward): show what it says. Not when the change is the
  // one this box sent, or keys typed while the URL was updating would be lost.
  const [shown, setShown] = useState(filters.q);
  const [sent, setSent] = useState<string | null>(null);
  if (shown !== filters.q) {
    setShown(filters.q);
    if (filters.q !== sent) setText(filters.q);
  }
  const send = (q: string) => {
    setSent(q);
    onChange({ ...filters, q });
  };
  useEffect(() => {
    const q = text.trim();
    if (q === filters.q) return;
    const timer = setTimeout(() => {
      setSent(q);
      onChange({ ...filters, q });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filters, onChange]);
  return (
    <label className={s.search}>
      <span className={s.visuallyHidden}>Search runs</span>
      <input
        className="input"
        type="search"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder="Search goal, output, import tag"
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text.trim() !== filters.q) send(text.trim());
        }}
        data-testid="runs-search"
      />
    </label>
  );
}
