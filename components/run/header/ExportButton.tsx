/**
 * A link that downloads a run as an Arborist export file (GET /api/runs/<id>/export: its settings and its whole
 * event log as JSON; a run still going exports its log so far). Styled as a button; works without JavaScript.
 * Mount it in the run header: <ExportButton runId={run.id} />.
 * Not responsible for the file's format (lib/formats/export.ts).
 */
import s from './ExportButton.module.css';

export interface ExportButtonProps {
  runId: string;
  label?: string;
  className?: string;
}

export function exportHref(runId: string): string {
  return `/api/runs/${encodeURIComponent(runId)}/export`;
}

export function ExportButton({ runId, label = 'Export', className }: ExportButtonProps) {
  return (
    <a
      className={['btn', 'btn-sm', s.export, className ?? ''].filter(Boolean).join(' ')}
      href={exportHref(runId)}
      download={`arborist-run-${runId}.json`}
      title="Download this run as a JSON file (its settings and every event), to import elsewhere"
      data-testid="export-run"
    >
      <svg className={s.icon} viewBox="0 0 24 24" aria-hidden="true">
        <path d="M12 4v12m0 0-4-4m4 4 4-4M5 18v1a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-1" />
      </svg>
      {label}
    </a>
  );
}
