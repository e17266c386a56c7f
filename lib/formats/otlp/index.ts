/**
 * lib/formats/otlp's door: OTLP/HTTP trace export requests (protobuf and JSON) decoded into the normalized span
 * model, the responses encoded, and the spans of a trace assembled into a search tree (trace-tree.ts). Node-side
 * (the receiver).
 * Not responsible for anything itself: it names what is public; the folder's files hold the definitions.
 */

export { decodeProtobufTraces } from './decode-protobuf';
export { decodeJsonTraces } from './decode-json';
export { decodeTraces } from './decode';
export {
  encodeEmptyResponse,
  encodeStatus,
  encodeTraceResponse,
  partialSuccessOf,
  type OtlpEncoding,
  type TracePartialSuccess,
} from './response';
export { PARENT_NOTE, ROOT_NODE, TraceTree, type DraftOp, type TraceTreeOptions } from './trace-tree';
export { OtlpDecodeError } from './spans';
export type {
  AttributeValue,
  Attributes,
  DecodedTraces,
  OtlpSpan,
  RefusedSpan,
  SpanEvent,
  SpanStatusCode,
} from './spans';
