/**
 * The HTTP side of export and import, as functions of the services and a Request, so tests call them without a
 * server and the Route Handlers (app/api/runs/...) stay one line each.
 * - GET /api/runs/<id>/export: the run as an Arborist export file, downloaded as arborist-run-<id>.json;
 *   404 { error } for a missing run.
 * - POST /api/runs/import[?tag=...&name=<file name>]: the body is an Arborist export or a Tree-of-Thoughts log
 *   (told apart by shape); 200 { kind, runs: [{ id, goal }] }, 400 { error: what is wrong } (a body that is not
 *   JSON gets the parser's message), 413 { error } over MAX_IMPORT_BYTES. A refused import writes nothing.
 * Not responsible for the formats (lib/formats) or the writing (imports.ts).
 */
import { domainErrorKind } from '../errors';
import { exportRun, importFile, parseJsonText } from '../imports';
import type { ServerServices } from '../trpc/context';

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
const MAX_TAG_LENGTH = 200;

type Services = Pick<ServerServices, 'prisma'>;

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

/** The body as text, refusing it as soon as it passes `limit` bytes (whatever content-length claims). */
async function readBody(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  // TextDecoder drops a leading byte-order mark, which JSON.parse would refuse
  return new TextDecoder().decode(bytes);
}

export interface ImportRequestOptions {
  maxBytes?: number;
  now?: Date;
}

export async function importRunsResponse(
  services: Services,
  request: Request,
  { maxBytes = MAX_IMPORT_BYTES, now }: ImportRequestOptions = {},
): Promise<Response> {
  const tooLarge = () => jsonError(413, `the file is larger than the ${size(maxBytes)} import limit`);
  const declared = Number(request.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
  const url = new URL(request.url);
  const tag = url.searchParams.get('tag')?.trim() || null;
  if (tag && tag.length > MAX_TAG_LENGTH) return jsonError(400, `tag: at most ${MAX_TAG_LENGTH} characters`);
  const fileName = url.searchParams.get('name')?.trim().slice(0, MAX_TAG_LENGTH) || null;

  let text: string;
  try {
    text = await readBody(request, maxBytes);
  } catch (error) {
    if (error instanceof TooLargeError) return tooLarge();
    throw error;
  }
  if (!text.trim()) return jsonError(400, 'the request has no body: send the JSON of an export or a ToT log');
  try {
    const value = parseJsonText(text);
    const { kind, runs } = await importFile(services.prisma, value, { importTag: tag, fileName, now });
    return Response.json({ kind, runs: runs.map((run) => ({ id: run.id, goal: run.goal })) });
  } catch (error) {
    if (domainErrorKind(error) === 'input') return jsonError(400, (error as Error).message);
    console.error('[arborist] import failed:', error);
    return jsonError(500, 'Internal server error: nothing was imported');
  }
}
