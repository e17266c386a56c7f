'use client';
// A code run's public output, apart from its tree and scratchpad: what changed in words and the one combined patch
// of the verified path, in the diff view, with Copy and "Download .patch" (a file `git apply` accepts in the
// project's folder). The header offers the download alone (PatchDownload). Text stays text.
// Not responsible for building the output (the code task, on the server) nor for its format (lib/contract/code.ts).
import { parseCodeOutput, patchFileName } from '@/lib/contract/code';
import { CopyText } from '@/components/shared/CopyText';
import { DiffView } from './LazyDiffView';
import styles from './PublicOutput.module.css';

/** Saves the patch as a file through a Blob link (nothing leaves the browser). */
function downloadPatch(runId: string, patch: string) {
  const url = URL.createObjectURL(new Blob([patch], { type: 'text/x-diff' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = patchFileName(runId);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the click has started the download: the URL is no longer needed
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function PatchDownload({ runId, patch, testId }: { runId: string; patch: string; testId: string }) {
  return (
    <button
      type="button"
      className="btn btn-sm"
      data-testid={testId}
      title={`Save the verified patch as ${patchFileName(runId)} (git apply accepts it)`}
      onClick={() => downloadPatch(runId, patch)}
    >
      Download .patch
    </button>
  );
}

/** The public output of a finished code run, or nothing when its output holds no patch. */
export function PublicOutput({ runId, output }: { runId: string; output: string }) {
  const parsed = parseCodeOutput(output);
  if (!parsed) return null;
  return (
    <div className={styles.output} data-testid="public-output">
      <div className={styles.head}>
        <span className={styles.title}>Verified change</span>
        <div className={styles.actions}>
          <CopyText text={parsed.patch} label="Copy patch" testId="public-output-copy" small />
          <PatchDownload runId={runId} patch={parsed.patch} testId="public-output-download" />
        </div>
      </div>
      {parsed.description && (
        <p className={styles.description} data-testid="public-output-description">
          {parsed.description}
        </p>
      )}
      <DiffView diff={parsed.patch} testId="public-output-diff" />
    </div>
  );
}
