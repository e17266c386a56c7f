'use client';
/**
 * The runs panel: filters and sort kept in the URL (so a filtered, sorted list can be shared), the table of runs
 * (sorted by the server over the whole filter) with "Load more" pages, the filter's totals (solved, cost), polling while a shown run is active, and designed loading, empty and error
 * states. Uses useSearchParams, so the page wraps it in Suspense with RunsPanelSkeleton as the fallback.
 * A poll that brings the same runs renders nothing (the pages are shared by value, same-value.ts); a changed run
 * renders its own row (RunRow is memoised and handed stable callbacks); the time passing renders only the Started
 * cells (RunStarted.tsx).
 * Not responsible for a row's cells (RunRow.tsx), the filter controls (RunsFilters.tsx) or formatting (lib/forms runs-list.ts).
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, type ReactNode } from 'react';
import { shortImportTag } from '@/lib/contract/import-tag';
import type { RunSort, RunSortKey } from '@/lib/contract/run-list';
import { taskLabel } from '@/lib/contract/tasks';
import { useSession } from '@/components/session/useSession';
import { pagePermissions, runPermissions } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import {
  ACTIVE_STATUSES,
  NO_FILTERS,
  filtersQuery,
  hasFilters,
  listQuery,
  nextSort,
  parseFilters,
  summaryParts,
  type RunFilters,
  type RunsSummary,
} from '@/lib/forms/index';
import { RunRow } from './RunRow';
import { RunsFilters } from './RunsFilters';
import { shareByValue } from './same-value';
import s from './RunsTable.module.css';

const PAGE_SIZE = 20;
const NO_LABELS: readonly string[] = [];
const ACTIVE_POLL_MS = 1_500;
const IDLE_POLL_MS = 15_000;

/** The table's columns; `sort` makes a header a button that sorts the whole list on the server. */
const COLUMNS: { label: string; className?: string; sort?: RunSortKey; title?: string }[] = [
  { label: 'Status', className: s.colStatus },
  { label: 'Task', className: s.colTask, title: 'The task, and the search strategy' },
  { label: 'Goal', className: s.colGoal },
  { label: 'Model', className: s.colModel },
  { label: 'Tag', className: s.colTag, title: 'Where the run came from: the import it belongs to, or started here' },
  { label: 'Nodes', className: `${s.num} ${s.colNodes}`, sort: 'nodes', title: 'Nodes run / created' },
  {
    label: 'Best',
    className: `${s.num} ${s.colBest}`,
    sort: 'best',
    title: "The best node's own score, 0 to 1 (the number on its card), not a sum along its path",
  },
  { label: 'Solved', className: s.colSolved },
  { label: 'Cost', className: `${s.num} ${s.colCost}`, sort: 'cost' },
  { label: 'Started', className: s.colStarted, sort: 'created', title: 'When it started · how long it ran' },
];

function TableHead({ sort, onSort }: { sort?: RunSort; onSort?: (sort: RunSort) => void }) {
  return (
    <thead>
      <tr>
        {COLUMNS.map((c) => {
          const sorted = sort && c.sort === sort.by ? sort.dir : null;
          return (
            <th
              key={c.label}
              scope="col"
              className={c.className}
              title={c.title}
              aria-sort={sorted === null ? undefined : sorted === 'asc' ? 'ascending' : 'descending'}
            >
              {c.sort && sort && onSort ? (
                <button
                  type="button"
                  className={s.sortButton}
                  onClick={() => onSort(nextSort(sort, c.sort as RunSortKey))}
                  data-testid={`sort-${c.sort}`}
                >
                  {c.label}
                  <span className={s.sortMark} aria-hidden>
                    {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : ''}
                  </span>
                </button>
              ) : (
                c.label
              )}
            </th>
          );
        })}
        <th scope="col" className={s.colActions}>
          <span className="visually-hidden">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

function SkeletonRows({ rows = 6 }: { rows?: number }) {
  return (
    <tbody aria-hidden>
      {Array.from({ length: rows }, (_, i) => (
        <tr key={i} className={s.skeletonRow}>
          {[...COLUMNS, { label: 'actions' }].map((c, j) => (
            <td key={c.label}>
              <span className={s.skeleton} style={{ width: j === 2 ? `${55 + ((i * 17) % 35)}%` : undefined }} />
            </td>
          ))}
        </tr>
      ))}
    </tbody>
  );
}

function Panel({ filters, children }: { filters: ReactNode; children: ReactNode }) {
  return (
    <section className={`panel ${s.panel}`} aria-labelledby="runs-heading" data-testid="runs-panel">
      <div className={`panel-head ${s.head}`}>
        <h2 id="runs-heading">Runs</h2>
        {filters}
      </div>
      {children}
    </section>
  );
}

/** What the page shows while the search params (and the first page) are not there yet. */
export function RunsPanelSkeleton() {
  return (
    <Panel filters={<RunsFilters filters={NO_FILTERS} onChange={() => undefined} disabled />}>
      <div className={s.scroll} data-testid="runs-loading" aria-busy="true" aria-label="Loading runs">
        <table className={s.table}>
          <TableHead />
          <SkeletonRows />
        </table>
      </div>
    </Panel>
  );
}

function StateBox({
  title,
  children,
  tone = 'neutral',
  testId,
}: {
  title: string;
  children?: ReactNode;
  tone?: 'neutral' | 'error';
  testId: string;
}) {
  return (
    <div
      className={`${s.state} ${tone === 'error' ? s.stateError : ''}`}
      data-testid={testId}
      role={tone === 'error' ? 'alert' : undefined}
    >
      <div className={s.stateIcon} aria-hidden>
        {tone === 'error' ? (
          '!'
        ) : (
          <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6">
            <circle cx="12" cy="5" r="2.2" />
            <circle cx="6" cy="18" r="2.2" />
            <circle cx="18" cy="18" r="2.2" />
            <path d="M12 7.2v4.3M12 11.5 6.8 16M12 11.5l5.2 4.5" strokeLinecap="round" />
          </svg>
        )}
      </div>
      <p className={s.stateTitle}>{title}</p>
      {children}
    </div>
  );
}

function describeFilters(filters: RunFilters): string {
  return [
    filters.q && `“${filters.q}” in the goal, output or import tag`,
    filters.status && `status ${filters.status}`,
    filters.taskId && `task ${taskLabel(filters.taskId)}`,
    filters.origin.kind === 'mine' && 'started here (not imported)',
    filters.origin.kind === 'tag' && `import ${shortImportTag(filters.origin.tag)}`,
    filters.label && `a node labelled “${filters.label}”`,
  ]
    .filter(Boolean)
    .join(' and ');
}

/** The filter's totals: every run it covers, however many pages are loaded. */
function SummaryLine({ summary }: { summary: RunsSummary }) {
  const parts = summaryParts(summary);
  return (
    <span className={s.summary} data-testid="runs-summary">
      <b>{parts.runs}</b>
      {parts.solved && (
        <span title="Runs whose answer the task's verifier accepted, of the runs it checked">{parts.solved}</span>
      )}
      <span title="Total cost of the runs in this filter">{parts.cost}</span>
    </span>
  );
}

/** Skeleton rows while the first page loads. */
function RunsLoading() {
  return (
    <div className={s.scroll} data-testid="runs-loading" aria-busy="true" aria-label="Loading runs">
      <table className={s.table}>
        <TableHead />
        <SkeletonRows />
      </table>
    </div>
  );
}

/** No runs: none match the filters (clear them), or none yet (the form is above, for whoever may start one). */
function NoRuns({ filters, onClear, canCreate }: { filters: RunFilters; onClear: () => void; canCreate: boolean }) {
  return (
    <>
      {hasFilters(filters) ? (
        <StateBox title="No runs match these filters" testId="runs-empty-filtered">
          <p className={s.stateText}>Nothing with {describeFilters(filters)}.</p>
          <button type="button" className="btn" onClick={onClear} data-testid="clear-filters">
            Clear filters
          </button>
        </StateBox>
      ) : (
        <StateBox title="No runs yet" testId="runs-empty">
          {!canCreate ? (
            <p className={s.stateText}>Runs your team starts show here.</p>
          ) : (
            <p className={s.stateText}>Start one with the form above: an example goal is already filled in.</p>
          )}
          {canCreate && (
            <button
              type="button"
              className="btn"
              onClick={() => {
                const goal = document.getElementById('goal');
                goal?.scrollIntoView({ block: 'center', behavior: 'smooth' });
                goal?.focus({ preventScroll: true });
              }}
            >
              Go to the form
            </button>
          )}
        </StateBox>
      )}
    </>
  );
}

export function RunsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const queryClient = useQueryClient();
  const filters = parseFilters(searchParams);
  // delete shows on the rows whoever is here may delete (a member's own runs): lib/contract/access.ts
  const { who } = useSession();

  const query = listQuery(filters);
  const runs = useInfiniteQuery({
    ...trpc.run.list.infiniteQueryOptions(
      { ...query, limit: PAGE_SIZE, sort: filters.sort },
      { getNextPageParam: (page) => page.nextCursor },
    ),
    placeholderData: keepPreviousData,
    // react-query's own sharing renews every run (each holds a Date): see same-value.ts
    structuralSharing: shareByValue,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((run) => ACTIVE_STATUSES.has(run.status)))
        ? ACTIVE_POLL_MS
        : IDLE_POLL_MS,
  });

  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  const anyActive = items.some((run) => ACTIVE_STATUSES.has(run.status));
  // the whole filter's totals, from the server (not the pages loaded): refreshed with the list
  const summary = useQuery({
    ...trpc.run.summary.queryOptions(query),
    placeholderData: keepPreviousData,
    refetchInterval: anyActive ? ACTIVE_POLL_MS : IDLE_POLL_MS,
  });
  const tags = useQuery({ ...trpc.run.tags.queryOptions(), refetchInterval: IDLE_POLL_MS });
  // the operator's set: fixed while the server runs
  const labelChoices = useQuery({ ...trpc.label.choices.queryOptions(), staleTime: Infinity });
  const labels = labelChoices.data?.map((choice) => choice.name) ?? NO_LABELS;

  const remove = useMutation(
    trpc.run.delete.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.run.pathKey() }),
    }),
  );

  // stable, so an unchanged row's memo holds (the router and `mutate` keep their identity)
  const { mutate: removeRun } = remove;
  const openRun = useCallback((id: string) => router.push(`/runs/${id}`), [router]);
  const deleteRun = useCallback((id: string) => removeRun({ id }), [removeRun]);

  function setFilters(next: RunFilters) {
    router.replace(`${pathname}${filtersQuery(next, searchParams.toString())}`, { scroll: false });
  }

  const filterControls = <RunsFilters filters={filters} onChange={setFilters} tags={tags.data ?? []} labels={labels} />;

  if (runs.isPending) {
    return (
      <Panel filters={filterControls}>
        <RunsLoading />
      </Panel>
    );
  }

  if (runs.isError && items.length === 0) {
    return (
      <Panel filters={filterControls}>
        <StateBox title="Could not load runs" tone="error" testId="runs-error">
          <p className={s.stateText}>{runs.error.message}</p>
          <button type="button" className="btn" onClick={() => void runs.refetch()} disabled={runs.isFetching}>
            {runs.isFetching ? 'Retrying…' : 'Retry'}
          </button>
        </StateBox>
      </Panel>
    );
  }

  if (items.length === 0) {
    return (
      <Panel filters={filterControls}>
        <NoRuns filters={filters} onClear={() => setFilters(NO_FILTERS)} canCreate={pagePermissions(who).createRuns} />
      </Panel>
    );
  }

  return (
    <Panel filters={filterControls}>
      {runs.isError && (
        <div className={s.banner} role="alert" data-testid="runs-refresh-error">
          <span>Could not refresh the list: {runs.error.message}</span>
          <button type="button" className={`btn ${s.small}`} onClick={() => void runs.refetch()}>
            Retry
          </button>
        </div>
      )}
      {remove.error && (
        <div className={s.banner} role="alert">
          <span>Could not delete the run: {remove.error.message}</span>
          <button type="button" className={`btn ${s.small}`} onClick={() => remove.reset()}>
            Dismiss
          </button>
        </div>
      )}
      <div className={s.scroll}>
        <table
          className={`${s.table} ${runs.isPlaceholderData ? s.stale : ''}`}
          data-testid="runs-table"
          aria-busy={runs.isPlaceholderData}
        >
          <TableHead sort={filters.sort} onSort={(sort) => setFilters({ ...filters, sort })} />
          <tbody>
            {items.map((run) => (
              <RunRow
                key={run.id}
                run={run}
                onOpen={openRun}
                onDelete={runPermissions(who, run.id, run).delete ? deleteRun : null}
                deleting={remove.isPending && remove.variables.id === run.id}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div className={s.foot}>
        {summary.data && <SummaryLine summary={summary.data} />}
        <span className={s.muted} data-testid="runs-count">
          {items.length} {items.length === 1 ? 'run' : 'runs'}
          {runs.hasNextPage ? ' shown' : ''}
          {anyActive && <span className={s.liveNote}> · updating live</span>}
        </span>
        {runs.hasNextPage && (
          <button
            type="button"
            className="btn"
            onClick={() => void runs.fetchNextPage()}
            disabled={runs.isFetchingNextPage}
            data-testid="load-more"
          >
            {runs.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </Panel>
  );
}
