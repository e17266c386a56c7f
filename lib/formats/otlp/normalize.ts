/**
 * The one normalisation both decoders feed: an ExportTraceServiceRequest as a plain object, in OTLP/JSON's shape,
 * becomes DecodedTraces (spans.ts). The protobuf decoder hands it protobufjs's toObject of the decoded message, the
 * JSON decoder the parsed body, so the two wires differ only in how a few leaves are spelled, and this file reads
 * both spellings:
 *   ids          a Uint8Array (protobuf), or a hex string, or a base64 one (JSON; base64 is protobuf's own JSON
 *                mapping, which some exporters send although OTLP says hex)
 *   64-bit ints  a decimal string (protobuf, with longs as String; JSON, as proto3 JSON writes them) or a number
 *   enums        a number, or the enum value's name (OTLP says numbers; proto3 JSON allows names, so we accept them)
 *   bytes        a Uint8Array (protobuf) or a base64 string (JSON)
 *   keys         lowerCamelCase, or the .proto's snake_case names (OTLP says those are not valid keys; proto3 JSON
 *                parsers accept them, and so do we: refusing them would lose a caller's spans for a spelling)
 * A null value is read as absent, as proto3 JSON says.
 *
 * What goes wrong is reported at the smallest place that holds it: a body that is not a trace export request at all
 * throws OtlpDecodeError naming the path; a span whose ids or times cannot be read is refused (RefusedSpan) and its
 * siblings kept; a bad attribute value, event or enum inside a kept span is dropped or defaulted with a warning.
 * Not responsible for the wire (decode-protobuf.ts, decode-json.ts) or for what a span means to a search tree.
 */
import {
  type AttributeValue,
  type Attributes,
  type DecodedTraces,
  type OtlpSpan,
  OtlpDecodeError,
  type RefusedSpan,
  type SpanEvent,
  type SpanStatusCode,
} from './spans';

type Obj = Record<string, unknown>;

/** Past this many warnings a body is clearly wrong throughout: one last line counts the rest. */
export const MAX_WARNINGS = 50;

const TRACE_ID_BYTES = 16;
const SPAN_ID_BYTES = 8;
const NANOS_PER_MS = 1_000_000n;

/** Span.SpanKind, by number and by name (trace.proto). */
const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
const SPAN_KIND_NAMES: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
/** Status.StatusCode, by number and by name (trace.proto). */
const STATUS_CODES: readonly SpanStatusCode[] = ['unset', 'ok', 'error'];
const STATUS_CODE_NAMES: Record<string, number> = { STATUS_CODE_UNSET: 0, STATUS_CODE_OK: 1, STATUS_CODE_ERROR: 2 };

/** AnyValue's oneof, in field-number order (common.proto). */
const ANY_VALUE_FIELDS = [
  'stringValue',
  'boolValue',
  'intValue',
  'doubleValue',
  'arrayValue',
  'kvlistValue',
  'bytesValue',
] as const;

const HEX = /^[0-9a-f]*$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*={0,2})$/;
const UNSIGNED = /^\d+$/;
const SIGNED = /^-?\d+$/;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

const snakeCase = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field by its lowerCamelCase name or its .proto name; null counts as absent (proto3 JSON). */
function field(obj: Obj, camel: string): unknown {
  const value = obj[camel] ?? obj[snakeCase(camel)];
  return value === null ? undefined : value;
}

/** Sets an own property even for a key like "__proto__", which plain assignment would turn into a prototype. */
function setOwn(target: Record<string, AttributeValue>, key: string, value: AttributeValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };
const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const fail = (reason: string): Read<never> => ({ ok: false, reason });

class Report {
  readonly spans: OtlpSpan[] = [];
  readonly refused: RefusedSpan[] = [];
  private readonly warnings: string[] = [];
  private unlisted = 0;

  warn(message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push(message);
    else this.unlisted += 1;
  }

  result(): DecodedTraces {
    const warnings = [...this.warnings];
    if (this.unlisted > 0) warnings.push(`... and ${this.unlisted} more warnings like these`);
    return { spans: this.spans, refused: this.refused, warnings };
  }
}

const toHex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
const toBase64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

type IdRead = { ok: true; value: string } | { ok: false; reason: string; problem: 'missing' | 'zero' | 'invalid' };
const badId = (reason: string, problem: 'missing' | 'zero' | 'invalid' = 'invalid'): IdRead => ({
  ok: false,
  reason,
  problem,
});

/**
 * An id as lowercase hex. OTLP/JSON writes hex; a string that is not hex of the right length but is base64 of the
 * right number of bytes is read as base64 (the lengths cannot collide: 32 or 16 hex digits, 24 or 12 base64 ones).
 */
function readId(value: unknown, bytes: number): IdRead {
  if (value === undefined) return badId('is missing', 'missing');
  let hex: string;
  if (value instanceof Uint8Array) {
    if (value.length === 0) return badId('is missing', 'missing');
    if (value.length !== bytes) return badId(`is ${value.length} bytes long, not ${bytes}`);
    hex = toHex(value);
  } else if (typeof value === 'string') {
    if (value === '') return badId('is missing', 'missing');
    if (value.length === bytes * 2 && HEX.test(value)) {
      hex = value.toLowerCase();
    } else if (BASE64.test(value) && Buffer.from(value, 'base64').length === bytes) {
      hex = Buffer.from(value, 'base64').toString('hex');
    } else {
      return badId(`"${clip(value)}" is neither ${bytes * 2} hex digits nor base64 of ${bytes} bytes`);
    }
  } else {
    return badId(`must be a string, not ${describe(value)}`);
  }
  if (/^0+$/.test(hex)) return badId('is all zeros, which OTLP calls invalid', 'zero');
  return { ok: true, value: hex };
}

/** A fixed64 of nanoseconds since the epoch, as whole milliseconds (the digits past the millisecond are dropped). */
function readUnixNanos(value: unknown): Read<number> {
  if (value === undefined) return ok(0); // proto3's default, which is also what an absent protobuf field decodes to
  if (typeof value === 'string' && UNSIGNED.test(value)) return ok(Number(BigInt(value) / NANOS_PER_MS));
  // a JSON number this large is already rounded to ~256 ns, far below a millisecond
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return ok(Math.floor(value / 1e6));
  return fail(`must be an unsigned integer of nanoseconds (a decimal string or a number), not ${describe(value)}`);
}

function readInt64(value: unknown): Read<number> {
  if (typeof value === 'string' && SIGNED.test(value)) return ok(Number(value));
  if (typeof value === 'number' && Number.isInteger(value)) return ok(value);
  return fail(`intValue must be an integer (a decimal string or a number), not ${describe(value)}`);
}

/** A double as JSON: the non-finite ones become proto3 JSON's strings for them, since JSON has no NaN. */
function readDouble(value: unknown): Read<AttributeValue> {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && ['NaN', 'Infinity', '-Infinity'].includes(value)
        ? Number(value)
        : typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))
          ? Number(value)
          : undefined;
  if (number === undefined) return fail(`doubleValue must be a number, not ${describe(value)}`);
  return ok(Number.isFinite(number) ? number : String(number));
}

function readAnyValue(value: unknown, report: Report, where: string): Read<AttributeValue> {
  if (value === undefined) return ok(null); // a KeyValue without a value
  if (!isObj(value)) return fail(`must be an AnyValue object, not ${describe(value)}`);
  const present = ANY_VALUE_FIELDS.filter((name) => field(value, name) !== undefined);
  // an AnyValue with no known field is "empty" (common.proto); an unknown field is ignored, as OTLP/JSON requires
  if (present.length === 0) return ok(null);
  if (present.length > 1) return fail(`sets more than one of its oneof: ${present.join(', ')}`);
  const kind = present[0]!;
  const inner = field(value, kind);
  switch (kind) {
    case 'stringValue':
      return typeof inner === 'string' ? ok(inner) : fail(`stringValue must be a string, not ${describe(inner)}`);
    case 'boolValue':
      return typeof inner === 'boolean' ? ok(inner) : fail(`boolValue must be a boolean, not ${describe(inner)}`);
    case 'intValue': {
      const read = readInt64(inner);
      if (read.ok && !Number.isSafeInteger(read.value)) {
        report.warn(`${where}: ${String(inner)} is past JavaScript's exact integers; kept as ${read.value}`);
      }
      return read;
    }
    case 'doubleValue':
      return readDouble(inner);
    case 'bytesValue':
      if (inner instanceof Uint8Array) return ok(toBase64(inner));
      return typeof inner === 'string' && BASE64.test(inner)
        ? ok(inner)
        : fail(`bytesValue must be a base64 string, not ${describe(inner)}`);
    case 'arrayValue': {
      if (!isObj(inner)) return fail(`arrayValue must be an object with a values array, not ${describe(inner)}`);
      const values = field(inner, 'values') ?? [];
      if (!Array.isArray(values)) return fail(`arrayValue.values must be an array, not ${describe(values)}`);
      const out: AttributeValue[] = [];
      for (const [i, element] of values.entries()) {
        const read = readAnyValue(element, report, `${where}[${i}]`);
        if (!read.ok) return fail(`arrayValue.values[${i}] ${read.reason}`);
        out.push(read.value);
      }
      return ok(out);
    }
    case 'kvlistValue': {
      if (!isObj(inner)) return fail(`kvlistValue must be an object with a values array, not ${describe(inner)}`);
      const values = field(inner, 'values') ?? [];
      if (!Array.isArray(values)) return fail(`kvlistValue.values must be an array, not ${describe(values)}`);
      const out: Record<string, AttributeValue> = {};
      for (const [i, pair] of values.entries()) {
        const read = readKeyValue(pair, report, where);
        if (!read.ok) return fail(`kvlistValue.values[${i}] ${read.reason}`);
        setOwn(out, read.value[0], read.value[1]);
      }
      return ok(out);
    }
  }
}

function readKeyValue(pair: unknown, report: Report, where: string): Read<[string, AttributeValue]> {
  if (!isObj(pair)) return fail(`must be a KeyValue object, not ${describe(pair)}`);
  const key = field(pair, 'key') ?? '';
  if (typeof key !== 'string') return fail(`has a key that is ${describe(key)}, not a string`);
  const value = readAnyValue(field(pair, 'value'), report, `${where}.${key}`);
  return value.ok ? ok([key, value.value]) : fail(`("${clip(key)}") ${value.reason}`);
}

/** A repeated KeyValue as an object; a pair that cannot be read is dropped with a warning, the others kept. */
function readAttributes(list: unknown, report: Report, path: string): Attributes {
  const out: Attributes = {};
  if (list === undefined) return out;
  if (!Array.isArray(list)) {
    report.warn(`${path} must be an array, not ${describe(list)}: dropped`);
    return out;
  }
  for (const [i, pair] of list.entries()) {
    const read = readKeyValue(pair, report, path);
    if (read.ok) setOwn(out, read.value[0], read.value[1]);
    else report.warn(`${path}[${i}] ${read.reason}: attribute dropped`);
  }
  return out;
}

function readEnum<T>(
  value: unknown,
  words: readonly T[],
  names: Record<string, number>,
  report: Report,
  path: string,
): T {
  if (value === undefined) return words[0]!;
  const index = typeof value === 'number' ? value : typeof value === 'string' ? names[value] : undefined;
  const word = index === undefined || !Number.isInteger(index) ? undefined : words[index];
  if (word === undefined) {
    report.warn(`${path} ${describe(value)} is not one OTLP defines: read as ${String(words[0])}`);
    return words[0]!;
  }
  return word;
}

function readString(value: unknown, report: Report, path: string): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  report.warn(`${path} must be a string, not ${describe(value)}: read as ""`);
  return '';
}

function readEvents(list: unknown, report: Report, path: string): SpanEvent[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    report.warn(`${path} must be an array, not ${describe(list)}: dropped`);
    return [];
  }
  const events: SpanEvent[] = [];
  for (const [i, raw] of list.entries()) {
    const where = `${path}[${i}]`;
    if (!isObj(raw)) {
      report.warn(`${where} must be an object, not ${describe(raw)}: event dropped`);
      continue;
    }
    const time = readUnixNanos(field(raw, 'timeUnixNano'));
    if (!time.ok) {
      report.warn(`${where}.timeUnixNano ${time.reason}: event dropped`);
      continue;
    }
    events.push({
      name: readString(field(raw, 'name'), report, `${where}.name`),
      timeMs: time.value,
      attributes: readAttributes(field(raw, 'attributes'), report, `${where}.attributes`),
    });
  }
  return events;
}

function readStatus(raw: unknown, report: Report, path: string): OtlpSpan['status'] {
  if (raw === undefined) return { code: 'unset', message: '' };
  if (!isObj(raw)) {
    report.warn(`${path} must be an object, not ${describe(raw)}: read as unset`);
    return { code: 'unset', message: '' };
  }
  return {
    code: readEnum(field(raw, 'code'), STATUS_CODES, STATUS_CODE_NAMES, report, `${path}.code`),
    message: readString(field(raw, 'message'), report, `${path}.message`),
  };
}

interface SpanContext {
  resource: Attributes;
  scope: { name: string; version: string };
}

/** One span, or the reason it is refused (ids or times that cannot be read: the span could not be placed). */
function readSpan(raw: unknown, context: SpanContext, report: Report, path: string): OtlpSpan | string {
  if (!isObj(raw)) return `must be an object, not ${describe(raw)}`;
  const traceId = readId(field(raw, 'traceId'), TRACE_ID_BYTES);
  if (!traceId.ok) return `traceId ${traceId.reason}`;
  const spanId = readId(field(raw, 'spanId'), SPAN_ID_BYTES);
  if (!spanId.ok) return `spanId ${spanId.reason}`;
  let parentSpanId: string | null = null;
  const rawParent = field(raw, 'parentSpanId');
  if (rawParent !== undefined) {
    const parent = readId(rawParent, SPAN_ID_BYTES);
    if (parent.ok) parentSpanId = parent.value;
    // empty is a root span (trace.proto); all zeros is invalid as an id, and some exporters write it for "none"
    else if (parent.problem === 'invalid') return `parentSpanId ${parent.reason}`;
  }
  const start = readUnixNanos(field(raw, 'startTimeUnixNano'));
  if (!start.ok) return `startTimeUnixNano ${start.reason}`;
  const end = readUnixNanos(field(raw, 'endTimeUnixNano'));
  if (!end.ok) return `endTimeUnixNano ${end.reason}`;
  return {
    traceId: traceId.value,
    spanId: spanId.value,
    parentSpanId,
    name: readString(field(raw, 'name'), report, `${path}.name`),
    kind: readEnum(field(raw, 'kind'), SPAN_KINDS, SPAN_KIND_NAMES, report, `${path}.kind`),
    startMs: start.value,
    endMs: end.value,
    attributes: readAttributes(field(raw, 'attributes'), report, `${path}.attributes`),
    events: readEvents(field(raw, 'events'), report, `${path}.events`),
    status: readStatus(field(raw, 'status'), report, `${path}.status`),
    // each span its own copy, so that one consumer editing a span's resource does not edit its siblings'
    resource: { ...context.resource },
    scope: { ...context.scope },
  };
}

/** A repeated message field of the envelope: absent is empty (proto3), anything but an array is not OTLP. */
function envelopeArray(value: unknown, path: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${path} must be an array, not ${describe(value)}`);
  return value;
}

function envelopeObject(value: unknown, path: string): Obj {
  if (!isObj(value)) throw new OtlpDecodeError(`${path} must be an object, not ${describe(value)}`);
  return value;
}

function readScope(raw: unknown, report: Report, path: string): SpanContext['scope'] {
  if (raw === undefined) return { name: '', version: '' };
  if (!isObj(raw)) {
    report.warn(`${path} must be an object, not ${describe(raw)}: read as unknown`);
    return { name: '', version: '' };
  }
  return {
    name: readString(field(raw, 'name'), report, `${path}.name`),
    version: readString(field(raw, 'version'), report, `${path}.version`),
  };
}

/**
 * An ExportTraceServiceRequest, as a plain object in OTLP/JSON's shape (see the header for the spellings read), as
 * DecodedTraces. Throws OtlpDecodeError when it is not one: not an object, no resourceSpans array, or a
 * resourceSpans/scopeSpans/spans level of the wrong type.
 */
export function normalizeExportRequest(request: unknown): DecodedTraces {
  if (!isObj(request)) {
    throw new OtlpDecodeError(`the body must be an object (an ExportTraceServiceRequest), not ${describe(request)}`);
  }
  const resourceSpans = field(request, 'resourceSpans');
  // A body without resourceSpans is, to proto3, an empty request; we answer it as not OTLP, because the likelier
  // sender of {} or {"foo": ...} is a misconfigured client (a metrics or logs body, a wrong URL) rather than an
  // exporter with nothing to say (exporters do not send empty batches).
  if (resourceSpans === undefined) {
    throw new OtlpDecodeError('the body has no resourceSpans array: it is not an OTLP trace export request');
  }
  const report = new Report();
  for (const [i, rawResourceSpans] of envelopeArray(resourceSpans, 'resourceSpans').entries()) {
    const rsPath = `resourceSpans[${i}]`;
    const rs = envelopeObject(rawResourceSpans, rsPath);
    const rawResource = field(rs, 'resource');
    const resource =
      rawResource === undefined
        ? {}
        : readAttributes(
            field(envelopeObject(rawResource, `${rsPath}.resource`), 'attributes'),
            report,
            `${rsPath}.resource.attributes`,
          );
    for (const [j, rawScopeSpans] of envelopeArray(field(rs, 'scopeSpans'), `${rsPath}.scopeSpans`).entries()) {
      const ssPath = `${rsPath}.scopeSpans[${j}]`;
      const ss = envelopeObject(rawScopeSpans, ssPath);
      const context = { resource, scope: readScope(field(ss, 'scope'), report, `${ssPath}.scope`) };
      for (const [k, rawSpan] of envelopeArray(field(ss, 'spans'), `${ssPath}.spans`).entries()) {
        const path = `${ssPath}.spans[${k}]`;
        const span = readSpan(rawSpan, context, report, path);
        if (typeof span === 'string') report.refused.push({ path, reason: span });
        else report.spans.push(span);
      }
    }
  }
  return report.result();
}

/** A value's kind for a message: the type, and a short rendering of the value. */
function describe(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string "${clip(value)}"`;
  return `${typeof value} ${String(value)}`;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
