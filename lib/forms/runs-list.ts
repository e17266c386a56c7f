/**
 * The runs list's model, free of React: the filters and sort as they live in the URL, the server query they make,
 * the summary line of a filter, and how a run's summary reads in the table (start time, duration, solved or not, its
 * discussion's counts).
 * Where it helps: a filtered list is a shareable link, and every cell's text is tested without a DOM.
 * Not responsible for fetching (RunsTable.tsx) or the server's list query (lib/server/repositories/runs.ts).
 */
import { MAX_LABEL_CHARS } from '@/lib/contract/discussion';
import { formatCost } from '@/lib/contract/format';
import {
  DEFAULT_RUN_SORT,
  MAX_TAG_FILTER_LENGTH,
  RUN_SORT_KEYS,
  type RunDiscussionCounts,
  type RunSort,
  type RunSortKey,
} from '@/lib/contract/run-list';
import type { StoredRunStatus } from '@/lib/contract/run-status';
import { isTaskId, taskInfo, type TaskId } from '@/lib/contract/tasks';
import type { RouterOutputs } from '@/lib/trpc/index';

/** A run as the list receives it (run.list), and a filter's totals (run.summary). */
export type ListedRun = RouterOutputs['run']['list']['items'][number];
export type RunsSummary = RouterOutputs['run']['summary'];

/** The statuses a person filters by, in the order shown (a test checks they are exactly the stored ones). */
export const STATUS_FILTERS = [
  'running',
  'paused',
  'queued',
  'interrupted',
  'finished',
  'failed',
] as const satisfies readonly StoredRunStatus[];

/** Runs that still change: the list polls while one is shown. */
export const ACTIVE_STATUSES: ReadonlySet<StoredRunStatus> = new Set(['queued', 'running', 'paused']);

/** Whose runs: all, the ones started here (no import tag), or one import's (its exact tag). */
export type RunOrigin = { kind: 'all' } | { kind: 'mine' } | { kind: 'cells' } | { kind: 'tag'; tag: string };

export interface RunFilters {
  status: StoredRunStatus | null;
  taskId: TaskId | null;
  /** Words to find in a run's goal, output or import tag ('' for none); the server searches (full text). */
  q: string;
  origin: RunOrigin;
  /** Only runs with a node carrying this label (one of label.choices, or any name a shared link brings). */
  label: string | null;
  /** Not a filter (hasFilters ignores it), but kept in the URL beside them so a sorted list is a link too. */
  sort: RunSort;
}

export const NO_FILTERS: RunFilters = {
  status: null,
  taskId: null,
  q: '',
  origin: { kind: 'all' },
  label: null,
  sort: DEFAULT_RUN_SORT,
};

/** The longest search the server accepts (lib/server/trpc/schemas.ts listRunsInput.q). */
export const MAX_SEARCH_LENGTH = 200;

/** Filters from the URL (?status=&task=&q=&origin=mine|cells&tag=&label=&sort=&dir=); an unknown value is ignored. */
export function parseFilters(params: { get(name: string): string | null }): RunFilters {
  const status = params.get('status');
  const task = params.get('task');
  const tag = params.get('tag')?.slice(0, MAX_TAG_FILTER_LENGTH);
  const label = params.get('label')?.trim().slice(0, MAX_LABEL_CHARS);
  const by = params.get('sort');
  const dir = params.get('dir');
  const sortBy = (RUN_SORT_KEYS as readonly string[]).includes(by ?? '') ? (by as RunSortKey) : DEFAULT_RUN_SORT.by;
  return {
    status: (STATUS_FILTERS as readonly string[]).includes(status ?? '') ? (status as StoredRunStatus) : null,
    taskId: task !== null && isTaskId(task) ? task : null,
    q: (params.get('q') ?? '').trim().slice(0, MAX_SEARCH_LENGTH),
    origin:
      params.get('origin') === 'mine'
        ? { kind: 'mine' }
        : params.get('origin') === 'cells'
          ? { kind: 'cells' }
          : tag
            ? { kind: 'tag', tag }
            : { kind: 'all' },
    label: label || null,
    sort: { by: sortBy, dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_RUN_SORT.dir },
  };
}

/** The query string for filters and sort ('' when none and the default order), other parameters kept. */
export function filtersQuery(filters: RunFilters, current = ''): string {
  const params = new URLSearchParams(current);
  for (const name of ['status', 'task', 'q', 'origin', 'tag', 'label', 'sort', 'dir']) params.delete(name);
  if (filters.status) params.set('status', filters.status);
  if (filters.taskId) params.set('task', filters.taskId);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.origin.kind === 'mine' || filters.origin.kind === 'cells') params.set('origin', filters.origin.kind);
  if (filters.origin.kind === 'tag') params.set('tag', filters.origin.tag);
  if (filters.label) params.set('label', filters.label);
  if (filters.sort.by !== DEFAULT_RUN_SORT.by || filters.sort.dir !== DEFAULT_RUN_SORT.dir) {
    params.set('sort', filters.sort.by);
    params.set('dir', filters.sort.dir);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function hasFilters(filters: RunFilters): boolean {
  return (
    filters.status !== null ||
    filters.taskId !== null ||
    filters.q.trim() !== '' ||
    filters.origin.kind !== 'all' ||
    filters.label !== null
  );
}

/** The server's filter (run.list and run.summary take the same): one mapping, so the summary is of the list shown. */
export function listQuery(filters: RunFilters): {
  status?: StoredRunStatus;
  taskId?: string;
  q?: string;
  tag?: string;
  mine?: boolean;
  cells?: boolean;
  label?: string;
} {
  return {
    ...(filters.status && { status: filters.status }),
    ...(filters.taskId && { taskId: filters.taskId }),
    ...(filters.q && { q: filters.q }),
    ...(filters.origin.kind === 'tag' && { tag: filters.origin.tag }),
    ...(filters.origin.kind === 'mine' && { mine: true }),
    ...(filters.origin.kind === 'cells' && { cells: true }),
    ...(filters.label && { label: filters.label }),
  };
}

/** A click on a sortable header: the same column flips its direction, another starts highest (newest) first. */
export function nextSort(current: RunSort, by: RunSortKey): RunSort {
  if (current.by === by) return { by, dir: current.dir === 'desc' ? 'asc' : 'desc' };
  return { by, dir: 'desc' };
}

/** The summary line of a filter: its run count, solved of checked (null when no run was checkable), its cost. */
export function summaryParts(summary: RunsSummary): { runs: string; solved: string | null; cost: string } {
  const priced = summary.unpricedRuns === 0;
  return {
    runs: `${summary.runs} ${summary.runs === 1 ? 'run' : 'runs'}`,
    solved: summary.checked > 0 ? `solved ${summary.solved} / ${summary.checked}` : null,
    cost: priced
      ? formatCost(summary.cost)
      : summary.cost === 0
        ? 'unpriced'
        : `${formatCost(summary.cost)} + ${summary.unpricedRuns} run${summary.unpricedRuns === 1 ? '' : 's'} with unpriced calls`,
  };
}

/** A row's discussion badge: its counts in words ("2 comments · 1 label"); null when it has none (no badge then). */
export function discussionText(counts: RunDiscussionCounts): string | null {
  const parts = [
    counts.comments > 0 && `${counts.comments} ${counts.comments === 1 ? 'comment' : 'comments'}`,
    counts.labels > 0 && `${counts.labels} ${counts.labels === 1 ? 'label' : 'labels'}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** "just now", "12 s ago", "5 min ago", "3 h ago", "2 d ago", then the date. */
export function formatRelative(then: Date, now: number): string {
  const seconds = Math.round((now - then.getTime()) / 1_000);
  if (seconds < 5) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} d ago`;
  return then.toLocaleDateString();
}

export interface RunTiming {
  status: StoredRunStatus;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/**
 * How long it ran: to its end, to now while it runs or waits, to its last update when it stopped without ending
 * (interrupted, failed) or is paused (its row was last written when it paused: the clock stops there, as the run
 * page's elapsed does; earlier pauses are still counted, since the row keeps no pause times).
 */
export function runDurationMs(run: RunTiming, now: number): number | null {
  if (!run.startedAt) return null;
  // an imported log without times (a Tree-of-Thoughts log) starts and finishes at one instant: unknown, not 0 ms
  if (run.finishedAt && run.finishedAt.getTime() === run.startedAt.getTime()) return null;
  const ticking = run.status === 'running' || run.status === 'queued';
  const end = run.finishedAt?.getTime() ?? (ticking ? now : run.updatedAt.getTime());
  return Math.max(0, end - run.startedAt.getTime());
}

export type Solved = { kind: 'verified' | 'not-verified' | 'not-checkable' | 'pending'; text: string; title: string };

/** ✓ verified, ✗ not verified, or — when the goal cannot be checked (an open goal) or the run has no answer yet. */
export function solvedState(run: { taskId: string; status: StoredRunStatus; verified: boolean | null }): Solved {
  if (run.verified === true)
    return { kind: 'verified', text: '✓ verified', title: "The task's verifier accepted the answer" };
  if (run.verified === false)
    return { kind: 'not-verified', text: '✗ not verified', title: "The task's verifier rejected the answer" };
  if (!taskInfo(run.taskId)?.checksAnswers)
    return { kind: 'not-checkable', text: '—', title: 'Not checkable: open goals have no verifier' };
  if (ACTIVE_STATUSES.has(run.status) || run.status === 'interrupted')
    return { kind: 'pending', text: '—', title: 'No answer yet' };
  return { kind: 'not-verified', text: '✗ not verified', title: 'The run ended without a checked answer' };
}
