'use client';
/**
 * Import runs from a file: drop it here or pick it, and it is posted to /api/runs/import (an Arborist export, a
 * Tree-of-Thoughts log or an llm-reasoners log; the server tells them apart and is the judge of the file). Shows the upload's progress,
 * then the server's message when the file is refused, or the imported runs as links; the runs list is refreshed.
 * Standalone: mount it anywhere inside the app's providers, e.g. <ImportDropZone /> on the runs page.
 * The upload is a React Query mutation (useImport); the checks before it and the reading of the answer are pure in
 * lib/forms/import-file.ts. Not responsible for reading the file's content (lib/formats, on the server).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState, type DragEvent } from 'react';
import { importAnswer, importFileProblem, MAX_IMPORT_MB, type ImportedRun } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import s from './ImportDropZone.module.css';

export type { ImportedRun } from '@/lib/forms/index';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; fileName: string; fraction: number | null }
  | { kind: 'importing'; fileName: string }
  | { kind: 'done'; fileName: string; runs: ImportedRun[]; experimentId?: string }
  | { kind: 'error'; fileName: string | null; message: string };

export interface ImportDropZoneProps {
  /** Sent as ?tag= to mark the imported runs; the server's default names the source. */
  tag?: string;
  onImported?: (runs: ImportedRun[]) => void;
  className?: string;
}

interface UploadResult {
  status: number;
  body: unknown;
}

/** XMLHttpRequest rather than fetch: it reports upload progress. */
function upload(url: string, file: File, onProgress: (fraction: number | null) => void, onSent: () => void) {
  return new Promise<UploadResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.upload.onprogress = (e) => onProgress(e.lengthComputable ? e.loaded / e.total : null);
    xhr.upload.onload = onSent;
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        // not JSON: the status says enough
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error('the server could not be reached'));
    xhr.send(file);
  });
}

/**
 * The import as a mutation: checks the file, uploads it with its progress, reads the answer, and refreshes the runs
 * list when runs came in. The phase is what the zone shows (a file refused before sending is an error too).
 */
function useImport(tag: string | undefined, onImported: ((runs: ImportedRun[]) => void) | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const mutation = useMutation({
    mutationFn: async (file: File) => {
      const query = new URLSearchParams({ name: file.name });
      if (tag) query.set('tag', tag);
      setPhase({ kind: 'uploading', fileName: file.name, fraction: 0 });
      const { status, body } = await upload(
        `/api/runs/import?${query.toString()}`,
        file,
        (fraction) => setPhase({ kind: 'uploading', fileName: file.name, fraction }),
        () => setPhase({ kind: 'importing', fileName: file.name }),
      );
      return importAnswer(status, body);
    },
    onSuccess: async (answer, file) => {
      if ('error' in answer) {
        setPhase({ kind: 'error', fileName: file.name, message: answer.error });
        return;
      }
      setPhase({ kind: 'done', fileName: file.name, runs: answer.runs, experimentId: answer.experimentId });
      onImported?.(answer.runs);
      await queryClient.invalidateQueries({ queryKey: trpc.run.list.pathKey() });
    },
    onError: (error, file) => setPhase({ kind: 'error', fileName: file.name, message: error.message }),
  });

  function importFile(file: File) {
    const problem = importFileProblem(file);
    if (problem) setPhase({ kind: 'error', fileName: file.name, message: problem });
    else mutation.mutate(file);
  }
  const refuse = (message: string) => setPhase({ kind: 'error', fileName: null, message });
  return { phase, importFile, refuse };
}

export function ImportDropZone({ tag, onImported, className }: ImportDropZoneProps) {
  const inputId = useId();
  const { phase, importFile, refuse } = useImport(tag, onImported);
  const [dragging, setDragging] = useState(false);
  const busy = phase.kind === 'uploading' || phase.kind === 'importing';

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    if (busy) return;
    const files = [...e.dataTransfer.files];
    if (files.length > 1) {
      refuse('drop one file at a time');
      return;
    }
    if (files[0]) importFile(files[0]);
  }

  return (
    <div
      className={[s.zone, dragging ? s.dragging : '', className ?? ''].filter(Boolean).join(' ')}
      data-testid="import-drop-zone"
      data-phase={phase.kind}
      role="group"
      aria-label="Import runs"
      onDragEnter={(e) => {
        e.preventDefault();
        if (!busy) setDragging(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = busy ? 'none' : 'copy';
      }}
      onDragLeave={(e) => {
        // leaving for a child element is not leaving the zone
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <div className={s.prompt}>
        <svg className={s.icon} viewBox="0 0 24 24" aria-hidden="true">
          <path d="M12 16V4m0 0-4 4m4-4 4 4M5 14v4a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-4" />
        </svg>
        <div className={s.text}>
          <span className={s.title}>Import runs</span>
          <span className={s.hint}>
            Drop an Arborist export, a Tree-of-Thoughts or an llm-reasoners log (.json, up to {MAX_IMPORT_MB} MB) here,
            or
          </span>
        </div>
        <label htmlFor={inputId} className={`btn btn-sm ${s.choose}`} aria-disabled={busy}>
          Choose a file
        </label>
        <input
          id={inputId}
          className={s.input}
          type="file"
          accept=".json,application/json"
          disabled={busy}
          data-testid="import-file-input"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = ''; // the same file can be picked again
            if (file) importFile(file);
          }}
        />
      </div>

      <ImportStatus phase={phase} />
    </div>
  );
}

/** The upload's progress, then the imported runs as links, or why nothing was imported. */
function ImportStatus({ phase }: { phase: Phase }) {
  return (
    <div className={s.status} role="status" aria-live="polite" data-testid="import-status">
      {phase.kind === 'uploading' && (
        <>
          <span>
            Uploading {phase.fileName}
            {phase.fraction !== null && ` · ${Math.round(phase.fraction * 100)}%`}
          </span>
          <progress className={s.progress} max={1} value={phase.fraction ?? undefined} />
        </>
      )}
      {phase.kind === 'importing' && (
        <>
          <span>Checking and importing {phase.fileName}…</span>
          <progress className={s.progress} />
        </>
      )}
      {phase.kind === 'error' && (
        <p className={s.error}>
          {phase.fileName ? <>Could not import {phase.fileName}: </> : <>Could not import: </>}
          {phase.message}
        </p>
      )}
      {phase.kind === 'done' && (
        <div className={s.done}>
          <span>
            Imported {phase.runs.length === 1 ? 'one run' : `${phase.runs.length} runs`} from {phase.fileName}
            {phase.experimentId && (
              <>
                {' '}
                as one experiment (
                <Link href={`/experiments/${phase.experimentId}`} data-testid="import-experiment">
                  its games side by side
                </Link>
                )
              </>
            )}
            :
          </span>
          <ul className={s.runs}>
            {phase.runs.map((run) => (
              <li key={run.id}>
                <Link href={`/runs/${run.id}`}>{run.goal}</Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
