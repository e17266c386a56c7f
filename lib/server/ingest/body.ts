/**
 * A batch's body, read and split into raw items: a JSON array, {"items": [...]}, or NDJSON (one item per line, sent
 * as application/x-ndjson). Reading stops at MAX_BATCH_BYTES, so a huge body costs the server no more than that.
 * Not responsible for what an item must hold (validate.ts).
 */
import { MAX_BATCH_BYTES } from '../../contract/ingest';
import { IngestRefusal, invalidBatch } from './refusal';

/** The request's body as text, refused past `limit` bytes (counted as they arrive, whatever Content-Length says). */
export async function readBody(request: Request, limit = MAX_BATCH_BYTES): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge(limit);
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
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limit: number): IngestRefusal {
  return new IngestRefusal(413, {
    error: 'invalid',
    message: `the body is over ${Math.round(limit / 1024 / 1024)} MiB: send smaller batches`,
  });
}

/** Whether the request says it sends NDJSON. */
export function isNdjson(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/x-ndjson';
}

/** The raw items of a batch's text (not yet checked); a body that is none of the three shapes is a 400. */
export function splitBatch(text: string, ndjson: boolean): unknown[] {
  if (ndjson) {
    const items: unknown[] = [];
    const lines = text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (!line.trim()) continue;
      try {
        items.push(JSON.parse(line));
      } catch (error) {
        throw invalid(`items[${items.length}]`, `line ${index + 1} is not JSON: ${(error as Error).message}`);
      }
    }
    return items;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalid('(body)', `the body is not JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { items?: unknown }).items)) {
    return (body as { items: unknown[] }).items;
  }
  throw invalid(
    '(body)',
    'send a JSON array of items, {"items": [...]}, or NDJSON (Content-Type: application/x-ndjson)',
  );
}

function invalid(path: string, message: string): IngestRefusal {
  return invalidBatch([{ path, message }]);
}
