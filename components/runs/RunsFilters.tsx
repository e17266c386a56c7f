'use client';
/**
 * The runs list's filters: status as a segmented control, task as a select. Controlled: the URL holds the filters
 * (RunsTable reads and writes them), so this only reports a change.
 * Not responsible for the URL or the query.
 */
import { TASKS, type TaskId } from '@/lib/tasks/index';
import type { StoredRunStatus } from '@/lib/server/repositories/runs';
import { STATUS_FILTERS, type RunFilters } from './list-model';
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
