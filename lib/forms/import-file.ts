/**
 * The import's checks before a file is sent, and what the server's answer means, free of React: a file that is not
 * JSON or is over the server's limit is refused here rather than sent for nothing; the answer is the imported runs,
 * or the server's own words for a refusal.
 * Not responsible for uploading (components/runs/import/ImportDropZone.tsx) nor for reading the file (lib/formats,
 * on the server, which is the judge of it).
 */

/** The server's limit (lib/server/http/run-files.ts), checked here too so a huge file is not sent for nothing. */
export const MAX_IMPORT_MB = 50;

export interface ImportedRun {
  id: string;
  goal: string;
}

/** Why this file is not sent, or null when it may be. */
export function importFileProblem(file: { name: string; type: string; size: number }): string | null {
  if (!/\.json$/i.test(file.name) && file.type !== 'application/json') {
    return 'choose a .json file: an Arborist export, a Tree-of-Thoughts log or an llm-reasoners log';
  }
  if (file.size > MAX_IMPORT_MB * 1024 * 1024) return `the file is larger than the ${MAX_IMPORT_MB} MB limit`;
  return null;
}

/**
 * The server's answer to an upload: the runs it imported (and the experiment a log of many games became), or why
 * nothing was.
 */
export function importAnswer(
  status: number,
  body: unknown,
): { runs: ImportedRun[]; experimentId?: string } | { error: string } {
  const result = body as { runs?: ImportedRun[]; error?: string; experimentId?: unknown } | null;
  if (status === 200 && result?.runs) {
    const experimentId = typeof result.experimentId === 'string' ? result.experimentId : undefined;
    return { runs: result.runs, ...(experimentId && { experimentId }) };
  }
  return { error: result?.error ?? `the server answered ${status}: nothing was imported` };
}
