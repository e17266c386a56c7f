/**
 * A span as the rest of Arborist reads it, whichever wire it came on (OTLP protobuf or OTLP JSON): ids as lowercase
 * hex, times in milliseconds since the epoch, attribute values as plain JSON (64-bit integers as numbers, arrays and
 * key-value lists as arrays and objects, bytes as base64). The decoders (decode-protobuf.ts, decode-json.ts) make
 * these; the mapping (trace-tree.ts) reads them.
 * Not responsible for decoding a body (the decoders) or for what a span means to a search tree (the mapping).
 */

/** An attribute's value, as JSON. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

export type Attributes = Record<string, AttributeValue>;

/** OTLP's Status.code: 0 unset, 1 ok, 2 error. */
export type SpanStatusCode = 'unset' | 'ok' | 'error';

export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 lowercase hex digits; null for a trace's root span. */
  parentSpanId: string | null;
  name: string;
  /** OTLP's SpanKind as a word: internal, server, client, producer, consumer, unspecified. */
  kind: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: SpanEvent[];
  status: { code: SpanStatusCode; message: string };
  /** The span's resource's attributes (service.name among them). */
  resource: Attributes;
  /** The instrumentation scope that made the span (the library, e.g. "openinference.instrumentation.openai"). */
  scope?: { name: string; version: string };
}

/** A span the decoder refused (no ids, ids of the wrong length): counted in the response's partial success. */
export interface RefusedSpan {
  /** Where it was in the request ("resourceSpans[0].scopeSpans[1].spans[3]"). */
  path: string;
  reason: string;
}

/** What a decoder makes of one request body. */
export interface DecodedTraces {
  spans: OtlpSpan[];
  refused: RefusedSpan[];
  /**
   * What the decoder dropped or replaced in a span it kept (an attribute value of the wrong type, an event without a
   * readable time, an unknown kind), each naming its place in the request; capped, with a last line counting the rest.
   * The decoders always set it; optional so that a DecodedTraces made by hand (tests) need not.
   */
  warnings?: string[];
}

/** A body that is not an OTLP export request at all: the receiver answers 400 with the message. */
export class OtlpDecodeError extends Error {
  override name = 'OtlpDecodeError';
}
