/**
 * OTLP/HTTP JSON (Content-Type: application/json): the text of an ExportTraceServiceRequest in the OTLP/JSON
 * encoding (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), as DecodedTraces, through the
 * normalisation both wires share (normalize.ts, which says which spellings are read).
 * Not responsible for gzip or the body's charset (the HTTP layer), for the protobuf wire, or for the response.
 */
import { normalizeExportRequest } from './normalize';
import { type DecodedTraces, OtlpDecodeError } from './spans';

/** Throws OtlpDecodeError when the text is not JSON, or not an OTLP trace export request (the message names where). */
export function decodeJsonTraces(text: string): DecodedTraces {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OtlpDecodeError(`the body is not JSON: ${reason}`);
  }
  return normalizeExportRequest(body);
}
