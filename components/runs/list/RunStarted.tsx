'use client';
/**
 * The runs table's "Started" cell: when the run started (or was created, not started yet) as a relative time, and
 * how long it ran, live while it runs. The one part of a row that changes with time alone, so it reads the clock
 * itself and re-renders when its own text changes, never its row or the table.
 * Not responsible for the rest of the row (RunRow.tsx) or the formats (lib/forms, lib/contract/format).
 */
import { formatDuration } from '@/lib/contract/format';
import { type ListedRun, formatRelative, runDurationMs } from '@/lib/forms/index';
import { createClock, useClock } from './clock';
import s from './RunsTable.module.css';

// every second: "12 s ago" and a running run's duration move by the second; a cell whose text did not change
// does not re-render (useClock)
const SECONDS = createClock(1_000);

export function RunStarted({ run }: { run: ListedRun }) {
  const started = run.startedAt ?? run.createdAt;
  const relative = useClock(SECONDS, (now) => formatRelative(started, now));
  const duration = useClock(SECONDS, (now) => {
    const ms = runDurationMs(run, now);
    return ms === null ? null : formatDuration(ms);
  });
  return (
    <td
      title={
        run.startedAt
          ? `Started ${run.startedAt.toLocaleString()}`
          : `Created ${run.createdAt.toLocaleString()}, not started yet`
      }
      className={run.startedAt ? undefined : s.muted}
    >
      {relative}
      {duration !== null && (
        <span className={s.muted} data-testid="run-row-duration">
          {' · '}
          {duration}
        </span>
      )}
    </td>
  );
}
