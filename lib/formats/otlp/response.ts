/**
 * The bodies an OTLP/HTTP receiver answers with, in the request's encoding (the spec: the response uses the
 * request's Content-Type): ExportTraceServiceResponse, with partial_success only when spans were refused or there is
 * something to say; empty metrics and logs responses (this receiver takes only traces, but answers the other signals
 * with a success rather than an error an SDK would retry); and google.rpc.Status, the body of a 4xx answer.
 * Per the spec (opentelemetry-proto docs/specification.md, "Full Success", "Partial Success"): a full success leaves
 * partial_success unset; a partial one sets rejected_spans; a warning alone is rejected 0 with a non-empty message.
 * Not responsible for HTTP itself (status codes, headers, gzip): the receiver's.
 */
import {
  ExportLogsServiceResponse,
  ExportMetricsServiceResponse,
  ExportTraceServiceResponse,
  RpcStatus,
} from './proto-schema';
import type { DecodedTraces } from './spans';

export type OtlpEncoding = 'protobuf' | 'json';

export interface TracePartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/** How many refusals and warnings partialSuccessOf spells out before it only counts them. */
const LISTED = 3;

/**
 * What a decoded request's response should say: null (a full success) when nothing was refused or dropped; else the
 * count of refused spans and an English message naming the first few refusals and warnings, so an SDK's log shows why.
 */
export function partialSuccessOf(decoded: DecodedTraces): TracePartialSuccess | null {
  const warnings = decoded.warnings ?? [];
  if (decoded.refused.length === 0 && warnings.length === 0) return null;
  const parts: string[] = [];
  if (decoded.refused.length > 0) {
    const listed = decoded.refused.slice(0, LISTED).map((r) => `${r.path}: ${r.reason}`);
    const more = decoded.refused.length - listed.length;
    parts.push(
      `refused ${decoded.refused.length} span${decoded.refused.length === 1 ? '' : 's'} (${listed.join('; ')}` +
        `${more > 0 ? `; and ${more} more` : ''})`,
    );
  }
  if (warnings.length > 0) {
    const listed = warnings.slice(0, LISTED);
    const more = warnings.length - listed.length;
    parts.push(`kept spans with values dropped (${listed.join('; ')}${more > 0 ? '; and more' : ''})`);
  }
  return { rejectedSpans: decoded.refused.length, errorMessage: parts.join('. ') };
}

/** A partial success with nothing in it is the same as none (trace_service.proto), so it is left out. */
function isEmpty(partial: TracePartialSuccess | null): partial is null {
  return partial === null || (partial.rejectedSpans === 0 && partial.errorMessage === '');
}

export function encodeTraceResponse(encoding: 'protobuf', partial: TracePartialSuccess | null): Uint8Array;
export function encodeTraceResponse(encoding: 'json', partial: TracePartialSuccess | null): string;
export function encodeTraceResponse(encoding: OtlpEncoding, partial: TracePartialSuccess | null): Uint8Array | string;
export function encodeTraceResponse(encoding: OtlpEncoding, partial: TracePartialSuccess | null): Uint8Array | string {
  if (isEmpty(partial)) return encodeEmpty(encoding, ExportTraceServiceResponse);
  // proto3 leaves default values off the wire and out of JSON: set only the fields that say something
  const inner: { rejectedSpans?: number; errorMessage?: string } = {};
  if (partial.rejectedSpans !== 0) inner.rejectedSpans = partial.rejectedSpans;
  if (partial.errorMessage !== '') inner.errorMessage = partial.errorMessage;
  if (encoding === 'protobuf') {
    return ExportTraceServiceResponse.encode(ExportTraceServiceResponse.fromObject({ partialSuccess: inner })).finish();
  }
  // proto3 JSON writes an int64 as a decimal string
  const json: { rejectedSpans?: string; errorMessage?: string } = {};
  if (inner.rejectedSpans !== undefined) json.rejectedSpans = String(inner.rejectedSpans);
  if (inner.errorMessage !== undefined) json.errorMessage = inner.errorMessage;
  return JSON.stringify({ partialSuccess: json });
}

/** A full success for a signal this receiver does not read: an empty ExportMetrics/LogsServiceResponse. */
export function encodeEmptyResponse(signal: 'metrics' | 'logs', encoding: 'protobuf'): Uint8Array;
export function encodeEmptyResponse(signal: 'metrics' | 'logs', encoding: 'json'): string;
export function encodeEmptyResponse(signal: 'metrics' | 'logs', encoding: OtlpEncoding): Uint8Array | string;
export function encodeEmptyResponse(signal: 'metrics' | 'logs', encoding: OtlpEncoding): Uint8Array | string {
  return encodeEmpty(encoding, signal === 'metrics' ? ExportMetricsServiceResponse : ExportLogsServiceResponse);
}

/**
 * google.rpc.Code by the HTTP status it stands for (google/rpc/code.proto's own mapping); the spec does not use
 * Status.code and clients are not to act on it, but a collector's log shows it, so it should not say OK.
 */
const GRPC_CODE_OF_HTTP: Record<number, number> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  409: 10, // ABORTED
  429: 8, // RESOURCE_EXHAUSTED
  499: 1, // CANCELLED
  501: 12, // UNIMPLEMENTED
  503: 14, // UNAVAILABLE
  504: 4, // DEADLINE_EXCEEDED
};
const grpcCodeOf = (httpStatus: number) =>
  GRPC_CODE_OF_HTTP[httpStatus] ?? (httpStatus >= 500 ? 13 /* INTERNAL */ : 3); /* INVALID_ARGUMENT: other 4xx */

/** The body of a 4xx or 5xx answer: a google.rpc.Status with the message, and the gRPC code for the HTTP status. */
export function encodeStatus(encoding: 'protobuf', httpStatus: number, message: string): Uint8Array;
export function encodeStatus(encoding: 'json', httpStatus: number, message: string): string;
export function encodeStatus(encoding: OtlpEncoding, httpStatus: number, message: string): Uint8Array | string;
export function encodeStatus(encoding: OtlpEncoding, httpStatus: number, message: string): Uint8Array | string {
  const status = { code: grpcCodeOf(httpStatus), message };
  if (encoding === 'json') return JSON.stringify(status);
  return RpcStatus.encode(RpcStatus.fromObject(status)).finish();
}

function encodeEmpty(encoding: OtlpEncoding, type: typeof ExportTraceServiceResponse): Uint8Array | string {
  // the empty message: zero bytes on the protobuf wire, {} in JSON
  return encoding === 'protobuf' ? type.encode(type.create({})).finish() : '{}';
}
