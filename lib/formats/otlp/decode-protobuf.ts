/**
 * OTLP/HTTP binary protobuf (Content-Type: application/x-protobuf): the bytes of an ExportTraceServiceRequest, as
 * DecodedTraces. protobufjs reads the wire by the schema (proto-schema.ts); its plain-object form, which has
 * OTLP/JSON's shape, goes through the normalisation both wires share (normalize.ts).
 * Not responsible for gzip (the HTTP layer undoes Content-Encoding first), for the JSON wire, or for the response.
 */
import { normalizeExportRequest } from './normalize';
import { ExportTraceServiceRequest } from './proto-schema';
import { type DecodedTraces, OtlpDecodeError } from './spans';

/**
 * Throws OtlpDecodeError when the bytes are not an ExportTraceServiceRequest on the wire (truncated, a wrong wire
 * type). An empty body is a valid empty request: no spans.
 */
export function decodeProtobufTraces(body: Uint8Array): DecodedTraces {
  let message: ReturnType<typeof ExportTraceServiceRequest.decode>;
  try {
    message = ExportTraceServiceRequest.decode(body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new OtlpDecodeError(`the body is not a protobuf ExportTraceServiceRequest: ${reason}`);
  }
  const plain = ExportTraceServiceRequest.toObject(message, {
    // int64 and fixed64 as decimal strings, never a lossy number or a Long: normalize.ts divides them exactly
    longs: String,
    // absent repeated fields as [], so an empty request has its resourceSpans
    arrays: true,
  });
  return normalizeExportRequest(plain);
}
