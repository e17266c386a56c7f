'use client';
/**
 * The runs list's filters: a search box (goal, output, import tag; searched on the server), status as a segmented
 * control, origin (all, started here, or one import), task and label (LabelFilter.tsx) as selects. Controlled: the URL holds the filters (RunsTable reads and writes them), so this only
 * reports a change; the search box reports after a short pause in typing, not on every key: only a keystroke
 * restarts the pause (components/shared/debounce.ts), never the table updating under it, and the text typed is kept
 * while the URL catches up (search-text.ts).
 * Not responsible for the URL or the query.
 */
import { useState } from 'react';
import { useDebouncer } from '@/components/shared/debounce';
import type { StoredRunStatus } from '@/lib/contract/run-status';
import { shortImportTag } from '@/lib/contract/import-tag';
import { TASK_INFO, isTaskId } from '@/lib/contract/tasks';
import { MAX_SEARCH_LENGTH, STATUS_FILTERS, type RunFilters, type RunOrigin } from '@/lib/forms/index';
import { LabelFilter } from './LabelFilter';
import { followUrl, markSent, queryToSend, startSearchText, typeText } from './search-text';
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
  labels = [],
  disabled = false,
}: {
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
  /** The import tags in use (run.tags), most recent first. */
  tags?: { tag: string; runs: number }[];
  /** The operator's labels (label.choices' names). */
  labels?: readonly string[];
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
      <LabelFilter
        label={filters.label}
        choices={labels}
        disabled={disabled}
        onChange={(label) => onChange({ ...filters, label })}
      />
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
  const [box, setBox] = useState(() => startSearchText(filters.q));
  // the URL changed under the box (Clear filters, back, a search of its own arriving): adjust while rendering
  const shown = followUrl(box, filters.q);
  if (shown !== box) setBox(shown);
  const debouncer = useDebouncer(SEARCH_DEBOUNCE_MS, () => {
    const q = queryToSend(shown);
    if (q === null) return;
    setBox((current) => markSent(current, q));
    onChange({ ...filters, q });
  });
  return (
    <label className={s.search}>
      <span className="visually-hidden">Search runs</span>
      <input
        className="input"
        type="search"
        value={shown.text}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder="Search goal, output, import tag"
        disabled={disabled}
        spellCheck={false}
        onChange={(e) => {
          const text = e.target.value;
          setBox((current) => typeText(current, text));
          debouncer.schedule();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') debouncer.flush();
        }}
        data-testid="runs-search"
      />
    </label>
  );
}
