'use client';
/**
 * One row of the runs table: status, task, goal (a link to the run, with its comment and label counts when it has
 * any), model, origin tag, strategy, nodes, best score
 * (the best node's own, 0..1), solved, cost (unpriced calls said, not counted as $0),
 * started (and how long it ran), and a delete with an inline confirm (for whoever may delete it). A click anywhere else on the row opens the run.
 * Memoised by the content of its props (same-value.ts): a poll that brings this run unchanged does not render it
 * again, so the table's caller must hand in stable callbacks.
 * Not responsible for fetching or polling (RunsTable.tsx), the ticking Started cell (RunStarted.tsx) or how cells
 * read (lib/forms runs-list.ts).
 */
import Link from 'next/link';
import { memo, useState, type MouseEvent } from 'react';
import { formatCost, formatSpend } from '@/lib/contract/format';
import { shortImportTag } from '@/lib/contract/import-tag';
import { taskLabel } from '@/lib/contract/tasks';
import { type ListedRun, solvedState } from '@/lib/forms/index';
import { RunDiscussion } from './RunDiscussion';
import { RunStarted } from './RunStarted';
import { sameByValue } from './same-value';
import s from './RunsTable.module.css';

function statusTitle(run: ListedRun): string {
  if (run.status === 'failed' && run.error) return `failed: ${run.error}`;
  if (run.finishReason) return `${run.status}: ${run.finishReason}`;
  return run.status;
}

function TrashIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M2.5 4h11M6.5 4V2.5h3V4M4 4l.7 9.5h6.6L12 4M6.8 6.5v5M9.2 6.5v5" strokeLinecap="round" />
    </svg>
  );
}

export const RunRow = memo(function RunRow({
  run,
  onOpen,
  onDelete,
  deleting,
}: {
  run: ListedRun;
  onOpen: (id: string) => void;
  /** null: whoever is here may not delete this run, and the row offers no delete. */
  onDelete: ((id: string) => void) | null;
  deleting: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const solved = solvedState(run);

  function openRow(event: MouseEvent<HTMLTableRowElement>) {
    // links and buttons in the row do their own thing; a text selection is not a click
    if ((event.target as HTMLElement).closest('a, button')) return;
    if (window.getSelection()?.toString()) return;
    onOpen(run.id);
  }

  return (
    <tr className={s.row} onClick={openRow} data-testid="run-row" data-status={run.status} data-run-id={run.id}>
      <td>
        <span className={`badge st-${run.status}`} title={statusTitle(run)} data-testid="run-row-status">
          {run.status}
        </span>
      </td>
      <td className={s.muted} title={`${taskLabel(run.taskId)}, ${run.config.explorationStrategy} search`}>
        {taskLabel(run.taskId)}
        <span className={s.strategy}> · {run.config.explorationStrategy}</span>
      </td>
      <td className={s.goal}>
        <span className={s.goalLine}>
          <Link href={`/runs/${run.id}`} title={run.goal} prefetch={false}>
            {run.goal}
          </Link>
          <RunDiscussion counts={run.discussion} />
        </span>
      </td>
      <td className={s.tag} title={run.modelLabel} data-testid="run-row-model">
        {run.modelId}
      </td>
      <td className={s.tag} title={run.importTag ?? 'Started here'} data-testid="run-row-tag">
        {run.importTag ? shortImportTag(run.importTag) : <span className={s.muted}>started here</span>}
      </td>
      <td className={s.num} title={`${run.exploredNodes} nodes run of ${run.totalNodes} created`}>
        {run.exploredNodes}
        <span className={s.muted}>/{run.totalNodes}</span>
      </td>
      <td
        className={s.num}
        title={run.bestScore !== null ? "The best node's own score (0 to 1)" : 'No node has completed'}
        data-testid="run-row-best"
      >
        {run.bestScore !== null ? run.bestScore.toFixed(2) : <span className={s.muted}>—</span>}
      </td>
      <td>
        <span className={s[`solved-${solved.kind}`]} title={solved.title} data-testid="run-row-solved">
          {solved.text}
        </span>
      </td>
      <td
        className={s.num}
        title={formatSpend({ cost: run.cost, unpricedCalls: run.unpricedCalls })}
        data-testid="run-row-cost"
      >
        {run.unpricedCalls > 0 && run.cost === 0 ? (
          <span className={s.muted}>unpriced</span>
        ) : (
          <>
            {formatCost(run.cost)}
            {run.unpricedCalls > 0 && <span className={s.muted}>+?</span>}
          </>
        )}
      </td>
      <RunStarted run={run} />
      <td className={s.actions}>
        {onDelete === null ? null : deleting ? (
          <span className={s.muted}>Deleting…</span>
        ) : confirming ? (
          <span className={s.confirm}>
            <button
              type="button"
              className={`btn btn-danger ${s.small}`}
              onClick={() => onDelete(run.id)}
              data-testid="run-delete-confirm"
              autoFocus
            >
              Delete
            </button>
            <button
              type="button"
              className={`btn ${s.small} ${s.icon}`}
              onClick={() => setConfirming(false)}
              aria-label="Cancel delete"
              title="Cancel"
            >
              ✕
            </button>
          </span>
        ) : (
          <button
            type="button"
            className={`${s.iconButton}`}
            onClick={() => setConfirming(true)}
            aria-label={`Delete run ${run.goal}`}
            title="Delete run"
            data-testid="run-delete"
          >
            <TrashIcon />
          </button>
        )}
      </td>
    </tr>
  );
}, sameByValue);
