/**
 * The HTTP side of export and import, as functions of the services and a Request, so tests call them without a
 * server and the Route Handlers (app/api/runs/...) stay one line each.
 * - GET /api/runs/<id>/export: the run as an Arborist export file, downloaded as arborist-run-<id>.json;
 *   404 { error } for a missing run.
 * - POST /api/runs/import[?tag=...&name=<file name>]: the body is an Arborist export or a Tree-of-Thoughts log
 *   (told apart by shape); 200 { kind, runs: [{ id, goal }] }, 400 { error: what is wrong } (a body that is not
 *   JSON gets the parser's message; a field over its cap names the field), 413 { error } over MAX_IMPORT_BYTES,
 *   429 { error } while the same user's previous import runs (on any instance) or MAX_IMPORTS_AT_ONCE are running
 *   in this process. A refused import writes nothing. The main thread only streams the body into one buffer;
 *   parsing, checking and writing happen in a worker thread (import-jobs.ts), so a 50 MB file never stalls other
 *   requests.
 * Not responsible for the formats (lib/formats), the writing (imports.ts), or who may import (the caller passes
 * `who` and `ownerId` after its own checks).
 */
import { resolveDatabase } from '../db/backend';
import { acquireImportSlot, MAX_IMPORTS_AT_ONCE, runImportJob } from '../imports/import-jobs';
import { exportRun, NO_BODY_MESSAGE } from '../imports/imports';
import type { ServerServices } from '../services';

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const MAX_TAG_LENGTH = 200;

/** `manager` for its instance id, which owns an import's slot (import-jobs.ts). */
type Services = Pick<ServerServices, 'prisma' | 'manager'> & Partial<Pick<ServerServices, 'experiments'>>;

function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status, headers: { 'cache-control': 'no-store' } });
}

function size(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${bytes} bytes`;
}

/** A file name safe inside a content-disposition header. */
export function exportFileName(runId: string): string {
  return `arborist-run-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

export async function exportRunResponse(services: Services, runId: string): Promise<Response> {
  const file = await exportRun(services.prisma, runId);
  if (!file) return jsonError(404, `no run ${runId}`);
  return new Response(JSON.stringify(file), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${exportFileName(runId)}"`,
      'cache-control': 'no-store',
    },
  });
}

class TooLargeError extends Error {}

/**
 * The body's bytes in one buffer (to be transferred to the import worker, not copied), refusing them as soon as they
 * pass `limit` bytes (whatever content-length claims). The buffer is sized from content-length when given, else it
 * grows by doubling; `length` says how much of it is the body. Each chunk costs the main thread one small copy.
 */
async function readBody(
  request: Request,
  limit: number,
  declared: number,
): Promise<{ buffer: ArrayBuffer; length: number }> {
  let buffer = new ArrayBuffer(declared > 0 && declared <= limit ? declared : 64 * 1024);
  let length = 0;
  if (!request.body) return { buffer, length };
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (length + value.byteLength > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TooLargeError();
    }
    if (length + value.byteLength > buffer.byteLength) {
      const grown = new ArrayBuffer(Math.min(limit, Math.max(buffer.byteLength * 2, length + value.byteLength)));
      new Uint8Array(grown).set(new Uint8Array(buffer, 0, length));
      buffer = grown;
    }
    new Uint8Array(buffer, length, value.byteLength).set(value);
    length += value.byteLength;
  }
  return { buffer, length };
}

export interface ImportRequestOptions {
  maxBytes?: number;
  now?: Date;
  /** Who imports: the user's id, or 'local' (one person, no accounts). One import at a time per `who`. */
  who?: string;
  /** Stored as Run.ownerId on every imported run: the user's id, or null in local mode. */
  ownerId?: string | null;
  /** The database the worker writes to (a SQLite file or a PostgreSQL URL; tests); default DATABASE_URL's. */
  database?: string;
}

/** What a second import of the same user is told while the first runs. */
export const IMPORT_RUNNING_MESSAGE = 'an import of yours is still running: wait for it to finish';

export async function importRunsResponse(
  services: Services,
  request: Request,
  { maxBytes = MAX_IMPORT_BYTES, now, who = 'local', ownerId = null, database }: ImportRequestOptions = {},
): Promise<Response> {
  const tooLarge = () => jsonError(413, `the file is larger than the ${size(maxBytes)} import limit`);
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  const url = new URL(request.url);
  const tag = url.searchParams.get('tag')?.trim() || null;
  if (tag && tag.length > MAX_TAG_LENGTH) return jsonError(400, `tag: at most ${MAX_TAG_LENGTH} characters`);
  const fileName = url.searchParams.get('name')?.trim().slice(0, MAX_TAG_LENGTH) || null;

  // A slot before the body: a refused upload is not read. A third import is refused rather than queued: waiting, it
  // would hold its upload (up to MAX_IMPORT_BYTES) in memory, or the connection, for as long as the two before it
  // take, and nobody would be told why; refused, the person sees why and sends it again. The person's slot is a row,
  // so their second import is refused whichever instance it reaches.
  const slot = await acquireImportSlot(services.prisma, who, services.manager.instanceId);
  if (!slot.ok) {
    const busy = `the server is already running ${MAX_IMPORTS_AT_ONCE} imports: try again in a minute`;
    return Response.json(
      { error: slot.reason === 'yours' ? IMPORT_RUNNING_MESSAGE : busy },
      { status: 429, headers: { 'cache-control': 'no-store', 'retry-after': '30' } },
    );
  }
  try {
    let body: { buffer: ArrayBuffer; length: number };
    try {
      body = await readBody(request, maxBytes, Number.isFinite(declared) ? declared : 0);
    } catch (error) {
      if (error instanceof TooLargeError) return tooLarge();
      throw error;
    }
    if (body.length === 0) return jsonError(400, NO_BODY_MESSAGE);
    const result = await runImportJob({
      prisma: services.prisma,
      database: database ?? resolveDatabase().location,
      bytes: body.buffer,
      byteLength: body.length,
      importTag: tag,
      fileName,
      now,
      ownerId,
    });
    if (result.ok) {
      // a log of many games of one search is an experiment over those games (its runs are its cells)
      // (the runs are stored by now: an experiment that cannot be made is logged, and the import still succeeded)
      const experiment =
        result.kind === 'tot-log' && services.experiments
          ? await services.experiments
              .recordImport(
                result.runs.map((r) => r.id),
                { fileName, ownerId },
              )
              .catch((error: unknown) => {
                console.error('[arborist] the imported log was stored, its experiment not:', error);
                return null;
              })
          : null;
      return Response.json({
        kind: result.kind,
        runs: result.runs,
        ...(experiment && { experimentId: experiment.id }),
      });
    }
    if (result.input) return jsonError(400, result.message);
    console.error('[arborist] import failed:', result.message);
    return jsonError(500, 'Internal server error: nothing was imported');
  } catch (error) {
    console.error('[arborist] import failed:', error);
    return jsonError(500, 'Internal server error: nothing was imported');
  } finally {
    await slot.release();
  }
}
