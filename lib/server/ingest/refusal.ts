/**
 * The ingest API's refusals: an HTTP status and an IngestError body (lib/contract/ingest.ts), thrown anywhere in
 * lib/server/ingest and answered as they are by http.ts. Recognised by `name`, like the server's domain errors
 * (errors.ts): Next may load a module twice in one process.
 * Not responsible for access errors (401/403: http/admit.ts answers those as everywhere).
 */
import type { IngestError } from '../../contract/ingest';

export class IngestRefusal extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 413,
    readonly body: IngestError,
  ) {
    super(body.message);
    this.name = 'IngestRefusal';
  }
}

export function isIngestRefusal(error: unknown): error is IngestRefusal {
  return error instanceof Error && error.name === 'IngestRefusal' && 'body' in error && 'status' in error;
}

/** A 400 naming the problems of a batch; its message is the first one's, path first. */
export function invalidBatch(issues: { path: string; message: string }[]): IngestRefusal {
  const first = issues[0] ?? { path: '(body)', message: 'invalid' };
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new IngestRefusal(400, { error: 'invalid', message: `${first.path}: ${first.message}${more}`, issues });
}
