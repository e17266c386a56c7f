/**
 * One OTLP export body, decoded by its encoding: protobuf bytes or JSON text (UTF-8). The one place that picks the
 * decoder, for the receiver's own thread and its decode worker alike.
 * Not responsible for reading the body (gzip, the size cap) or where the decoding runs (lib/server/http).
 */
import { decodeJsonTraces } from './decode-json';
import { decodeProtobufTraces } from './decode-protobuf';
import type { OtlpEncoding } from './response';
import type { DecodedTraces } from './spans';

export function decodeTraces(body: Uint8Array, encoding: OtlpEncoding): DecodedTraces {
  if (encoding === 'protobuf') return decodeProtobufTraces(body);
  return decodeJsonTraces(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
}
