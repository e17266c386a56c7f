'use client';
// The list of runs, newest first, refreshed while any of them is still going.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/lib/trpc/client';

const ACTIVE = new Set(['queued', 'running', 'paused']);

function duration(start: Date | null, end: Date | null): string {
  if (!start) return '—';
  const ms = (end ?? new Date()).getTime() - start.getTime();
  return ms < 1000 ? `${ms} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}

export function RunsTable() {
  const trpc = useTRPC();
  const runs = useQuery({
    ...trpc.run.list.queryOptions({ limit: 50 }),
    refetchInterval: (q) => (q.state.data?.items.some((r) => ACTIVE.has(r.status)) ? 2_000 : 10_000),
  });
  if (runs.isPending) return <div className="empty">Loading runs…</div>;
  if (runs.isError) return <div className="error-box">Could not load runs: {runs.error.message}</div>;
  if (runs.data.items.length === 0) return <div className="empty">No runs yet. Start one above.</div>;
  return (
    <table className="runs-table" data-testid="runs-table">
      <thead>
        <tr>
          <th>Status</th>
          <th>Task</th>
          <th>Goal</th>
          <th>Strategy</th>
          <th className="num">Nodes</th>
          <th className="num">Best</th>
          <th>Solved</th>
          <th className="num">Cost</th>
          <th>Started</th>
          <th className="num">Duration</th>
        </tr>
      </thead>
      <tbody>
        {runs.data.items.map((run) => (
          <tr key={run.id}>
            <td>
              <span className={`badge st-${run.status}`}>{run.status}</span>
            </td>
            <td>{run.taskId === 'game24' ? 'Game of 24' : 'Open goal'}</td>
            <td className="goal-cell">
              <Link href={`/runs/${run.id}`}>{run.goal}</Link>
            </td>
            <td>{run.config.explorationStrategy}</td>
            <td className="num">
              {run.exploredNodes}/{run.totalNodes}
            </td>
            <td className="num">{run.bestScore !== null ? run.bestScore.toFixed(2) : '—'}</td>
            <td>{run.verified === null ? '—' : run.verified ? '✓ yes' : 'no'}</td>
            <td className="num">${run.cost.toFixed(4)}</td>
            <td>{run.startedAt ? run.startedAt.toLocaleString() : '—'}</td>
            <td className="num">{duration(run.startedAt, run.finishedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
