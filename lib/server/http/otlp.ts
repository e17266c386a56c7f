/**
 * The OTLP/HTTP receiver's route handlers (POST /v1/traces and /api/otel/v1/traces; /v1/metrics and /v1/logs, and
 * their /api/otel twins, answer an empty success so a default SDK set-up logs no errors). A request is admitted like
 * every route (team mode: an API key as `Authorization: Bearer`, or a session), its body read as it arrives (plain or
 * gzip, with or without a Content-Length) up to the cap, decoded by its Content-Type (protobuf or JSON), and its spans
 * handed to the trace receiver. The answer is an ExportTraceServiceResponse in the request's own encoding, with a
 * partial success naming the spans refused and why; errors follow the OTLP spec: 400 (a body that is not OTLP, with
 * the reason), 413 past the cap, 415 for another type or encoding, 429 with Retry-After when the receiver sheds load.
 * Not responsible for what spans mean (lib/formats/otlp trace-tree.ts) or writing runs (otel/service.ts).
 */
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { canCreateRuns } from '../../contract/access';
import {
  encodeEmptyResponse,
  encodeStatus,
  encodeTraceResponse,
  OtlpDecodeError,
  partialSuccessOf,
  type OtlpEncoding,
} from '../../formats/index';
import { MAX_BATCH_BYTES } from '../../contract/ingest';
import { decodeOtlp } from './otlp-decode';
import { admit } from './admit';
import { creatorOf } from './ingest';
import { TraceBackpressure } from '../otel/index';

type Encoding = OtlpEncoding;

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The request's encoding from its Content-Type, or a 415. */
function encodingOf(request: Request): Encoding {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new HttpRefusal(
    415,
    `Content-Type ${type ? `"${type}"` : '(none)'} is not OTLP: send application/x-protobuf or application/json`,
  );
}

/** The body's bytes, decompressed when gzip, refused past the cap however it arrives (counted, not trusted). */
/** `limit`: the ingest API's cap (16 MiB), counted after decompression. */
async function readOtlpBody(request: Request, limit = MAX_BATCH_BYTES): Promise<Uint8Array> {
  const encoding = (request.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity' && encoding !== '') {
    throw new HttpRefusal(415, `Content-Encoding "${encoding}" is not taken: send gzip or none`);
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array();
  const source = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  const stream = encoding === 'gzip' ? source.pipe(createGunzip()) : source;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > limit) {
        source.destroy();
        throw tooLarge(limit);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof HttpRefusal) throw error;
    throw new HttpRefusal(400, `the gzip body cannot be read: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpRefusal {
  return new HttpRefusal(413, `the body is over ${Math.round(limit / 1024 / 1024)} MiB: export smaller batches`);
}

const CONTENT_TYPE: Record<Encoding, string> = { protobuf: 'application/x-protobuf', json: 'application/json' };

function reply(body: Uint8Array | string, encoding: Encoding, status = 200, headers: Record<string, string> = {}) {
  return new Response(typeof body === 'string' ? body : Buffer.from(body), {
    status,
    headers: { 'content-type': CONTENT_TYPE[encoding], 'cache-control': 'no-store', ...headers },
  });
}

/** An error as OTLP answers one: a google.rpc.Status in the request's encoding (JSON when it had none). */
function refusal(status: number, message: string, encoding: Encoding, headers: Record<string, string> = {}) {
  return reply(encodeStatus(encoding, status, message), encoding, status, headers);
}

/** The request's encoding for an error, when its Content-Type is one we speak; JSON otherwise. */
function errorEncoding(request: Request): Encoding {
  try {
    return encodingOf(request);
  } catch {
    return 'json';
  }
}

/** POST /v1/traces, /api/otel/v1/traces */
export async function otlpTracesResponse(request: Request): Promise<Response> {
  const admitted = await admit(request);
  if (admitted instanceof Response) return admitted;
  const { who, services } = admitted;
  const fallback = errorEncoding(request);
  if (who.kind === 'anonymous') {
    return refusal(401, 'send an API key as Authorization: Bearer <key> (Settings, API keys)', fallback);
  }
  if (!canCreateRuns(who)) return refusal(403, 'your role reads runs only: ask an admin for the member role', fallback);
  try {
    const encoding = encodingOf(request);
    const decoded = await decodeOtlp(await readOtlpBody(request), encoding);
    const received = await services.traces.receive(decoded.spans, creatorOf(who, request));
    // the decoder's refusals and dropped values, then the mapping's (a cycle, a wrong-typed arborist.* value)
    const decodedPartial = partialSuccessOf(decoded);
    const rejected = (decodedPartial?.rejectedSpans ?? 0) + received.rejectedSpans;
    const message = [decodedPartial?.errorMessage, received.message].filter(Boolean).join('. ');
    const partial = rejected > 0 || message ? { rejectedSpans: rejected, errorMessage: message } : null;
    return reply(encodeTraceResponse(encoding, partial), encoding);
  } catch (error) {
    if (error instanceof HttpRefusal) return refusal(error.status, error.message, fallback, error.headers);
    if (error instanceof OtlpDecodeError) return refusal(400, `not an OTLP trace export: ${error.message}`, fallback);
    if (error instanceof TraceBackpressure) {
      return refusal(429, error.message, fallback, { 'retry-after': String(error.retryAfterSeconds) });
    }
    throw error;
  }
}

/** POST /v1/metrics, /v1/logs (and /api/otel/...): an empty success, so an SDK that exports them logs nothing. */
export async function otlpEmptyResponse(request: Request, signal: 'metrics' | 'logs'): Promise<Response> {
  const admitted = await admit(request);
  if (admitted instanceof Response) return admitted;
  const encoding = errorEncoding(request);
  if (request.body) await request.body.cancel().catch(() => undefined);
  return reply(encodeEmptyResponse(signal, encoding), encoding);
}
