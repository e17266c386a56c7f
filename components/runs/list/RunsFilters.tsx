'use client';
/**
 * The runs list's filters: a search box (goal, output, import tag; searched on the server), status as a segmented
 * control, origin (all, started here, or one import) and task as selects. Controlled: the URL holds the filters (RunsTable reads and writes them), so this only
 * reports a change; the search box reports after a short pause in typing, not on every key.
 * Not responsible for the URL or the query.
 */
import { useEffect, useState } from 'react';
import type { StoredRunStatus } from '@/lib/contract/run-status';
import { shortImportTag } from '@/lib/contract/import-tag';
import { TASK_INFO, isTaskId } from '@/lib/contract/tasks';
import { MAX_SEARCH_LENGTH, STATUS_FILTERS, type RunFilters, type RunOrigin } from '@/lib/forms/index';
import s from './RunsTable.module.css';

const STATUS_OPTIONS: { value: StoredRunStatus | null; label: string }[] = [
  { value: null, label: 'All' },
  ...STATUS_FILTERS.map((status) => ({ value: status, label: status.charAt(0).toUpperCase() + status.slice(1) })),
];

/** The origin select's value for each choice: 'all', 'mine', 'cells', or 'tag:' and the tag. */
function originValue(origin: RunOrigin): string {
  return origin.kind === 'tag' ? `tag:${origin.tag}` : origin.kind;
}

function parseOrigin(value: string): RunOrigin {
  if (value === 'mine') return { kind: 'mine' };
  if (value === 'cells') return { kind: 'cells' };
  if (value.startsWith('tag:')) return { kind: 'tag', tag: value.slice(4) };
  return { kind: 'all' };
}

export function RunsFilters({
  filters,
  onChange,
  tags = [],
  disabled = false,
}: {
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
  /** The import tags in use (run.tags), most recent first. */
  tags?: { tag: string; runs: number }[];
  disabled?: boolean;
}) {
  const origin = filters.origin;
  // a tag from a shared link that has no runs here any more is still shown as chosen
  const shownTags =
    origin.kind === 'tag' && !tags.some((t) => t.tag === origin.tag) ? [...tags, { tag: origin.tag, runs: 0 }] : tags;
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
        <span>Origin</span>
        <select
          className={`input ${s.origin}`}
          value={originValue(filters.origin)}
          disabled={disabled}
          onChange={(e) => onChange({ ...filters, origin: parseOrigin(e.target.value) })}
          data-testid="origin-filter"
        >
          <option value="all">All runs</option>
          <option value="mine">Started here (not imported, not in an experiment)</option>
          <option value="cells">Experiments’ cells</option>
          {shownTags.length > 0 && (
            <optgroup label="Imports">
              {shownTags.map((t) => (
                <option key={t.tag} value={`tag:${t.tag}`} title={t.tag}>
                  {shortImportTag(t.tag)} ({t.runs})
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <label className={s.taskFilter}>
        <span>Task</span>
        <select
          className="input"
          value={filters.taskId ?? ''}
          disabled={disabled}
          onChange={(e) => onChange({ ...filters, taskId: isTaskId(e.target.value) ? e.target.value : null })}
          data-testid="task-filter"
        >
          <option value="">All tasks</option>
          {TASK_INFO.map((t) => (
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
      <span className="visually-hidden">Search runs</span>
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
