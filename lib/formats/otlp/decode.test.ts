// The two decoders against the official OpenTelemetry JS serializers (@opentelemetry/otlp-transformer, what the
// SDK's OTLP exporters send), and against hand-made bodies for what those serializers never write: base64 ids,
// string int64s, snake_case keys, enum names, broken bodies, and spans that must be refused beside kept siblings.
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { decodeJsonTraces } from './decode-json';
import { decodeProtobufTraces } from './decode-protobuf';
import { MAX_WARNINGS } from './normalize';
import { ExportTraceServiceRequest } from './proto-schema';
import { type OtlpSpan, OtlpDecodeError } from './spans';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests build bodies freely
type Json = any;

const START = 1_700_000_000_123; // ms
const BYTES = new Uint8Array([0, 1, 2, 250, 255]);

/** Real SDK spans: a server root with a client child carrying every attribute type, an event and an error status. */
function sdkSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'search-bot', 'service.version': '0.3.0' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('arborist.test', '1.2.3');
  // an HrTime with nanoseconds past the millisecond: they must be dropped, not rounded into the next millisecond
  const root = tracer.startSpan('search', { kind: SpanKind.SERVER, startTime: [1_700_000_000, 123_999_999] });
  const parent = trace.setSpan(context.active(), root);
  const child = tracer.startSpan(
    'llm call',
    {
      kind: SpanKind.CLIENT,
      startTime: START + 10,
      attributes: {
        'gen_ai.request.model': 'gpt-test',
        'tokens.in': 42,
        zero: 0,
        big: 2 ** 40,
        'score.value': 0.75,
        ok: true,
        off: false,
        tags: ['a', 'b'],
        sizes: [1, 2, 3],
      },
    },
    parent,
  );
  child.addEvent('retry', { attempt: 2 }, START + 20);
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'rate limited' });
  child.end(START + 30);
  for (const [name, kind] of [
    ['queue put', SpanKind.PRODUCER],
    ['queue take', SpanKind.CONSUMER],
    ['think', SpanKind.INTERNAL],
  ] as const) {
    tracer.startSpan(name, { kind, startTime: START + 40 }, parent).end(START + 50);
  }
  root.setStatus({ code: SpanStatusCode.OK });
  root.end(START + 100);
  const spans = exporter.getFinishedSpans();
  // The API types attributes as primitives and arrays, but the serializers write any AnyValue: give the child a
  // key-value list and bytes the way a caller's own serializer-level code could.
  const llm = spans.find((s) => s.name === 'llm call')!;
  Object.assign(llm.attributes, { nested: { depth: 1, inner: { flag: true, list: ['x'] } }, raw: BYTES });
  return spans;
}

const byName = (spans: OtlpSpan[], name: string) => {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span named ${name}`);
  return span;
};

const protobufBody = (spans: ReadableSpan[]) => ProtobufTraceSerializer.serializeRequest(spans)!;
const jsonBody = (spans: ReadableSpan[]) => new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)!);

describe('the official serializers, decoded', () => {
  const spans = sdkSpans();
  const wires = [
    ['protobuf', () => decodeProtobufTraces(protobufBody(spans))],
    ['JSON', () => decodeJsonTraces(jsonBody(spans))],
  ] as const;

  for (const [wire, decode] of wires) {
    it(`${wire}: ids are lowercase hex, the root has no parent and the child names it`, () => {
      const decoded = decode();
      expect(decoded.refused).toEqual([]);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.spans).toHaveLength(5);
      const root = byName(decoded.spans, 'search');
      const sdkRoot = spans.find((s) => s.name === 'search')!;
      expect(root.traceId).toBe(sdkRoot.spanContext().traceId);
      expect(root.spanId).toBe(sdkRoot.spanContext().spanId);
      expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(root.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(root.parentSpanId).toBeNull();
      for (const span of decoded.spans.filter((s) => s !== root)) {
        expect(span.traceId).toBe(root.traceId);
        expect(span.parentSpanId).toBe(root.spanId);
      }
    });

    it(`${wire}: times are whole milliseconds, nanoseconds past the millisecond dropped`, () => {
      const decoded = decode();
      const root = byName(decoded.spans, 'search');
      expect(root.startMs).toBe(START);
      expect(root.endMs).toBe(START + 100);
      const llm = byName(decoded.spans, 'llm call');
      expect([llm.startMs, llm.endMs]).toEqual([START + 10, START + 30]);
    });

    it(`${wire}: every attribute type reads as JSON, bytes as base64`, () => {
      const llm = byName(decode().spans, 'llm call');
      expect(llm.attributes).toEqual({
        'gen_ai.request.model': 'gpt-test',
        'tokens.in': 42,
        zero: 0,
        big: 2 ** 40,
        'score.value': 0.75,
        ok: true,
        off: false,
        tags: ['a', 'b'],
        sizes: [1, 2, 3],
        nested: { depth: 1, inner: { flag: true, list: ['x'] } },
        raw: Buffer.from(BYTES).toString('base64'),
      });
    });

    it(`${wire}: events, status, kind, resource and scope`, () => {
      const decoded = decode();
      const llm = byName(decoded.spans, 'llm call');
      expect(llm.events).toEqual([{ name: 'retry', timeMs: START + 20, attributes: { attempt: 2 } }]);
      expect(llm.status).toEqual({ code: 'error', message: 'rate limited' });
      expect(byName(decoded.spans, 'search').status).toEqual({ code: 'ok', message: '' });
      expect(byName(decoded.spans, 'think').status).toEqual({ code: 'unset', message: '' });
      const kinds = Object.fromEntries(decoded.spans.map((s) => [s.name, s.kind]));
      expect(kinds).toEqual({
        search: 'server',
        'llm call': 'client',
        'queue put': 'producer',
        'queue take': 'consumer',
        think: 'internal',
      });
      for (const span of decoded.spans) {
        expect(span.resource['service.name']).toBe('search-bot');
        expect(span.resource['service.version']).toBe('0.3.0');
        expect(span.scope).toEqual({ name: 'arborist.test', version: '1.2.3' });
      }
    });
  }

  it('both wires decode the same spans to the same values', () => {
    expect(decodeProtobufTraces(protobufBody(spans))).toEqual(decodeJsonTraces(jsonBody(spans)));
  });

  it("each span gets its own copy of the resource's attributes", () => {
    const [a, b] = decodeProtobufTraces(protobufBody(spans)).spans;
    a!.resource['service.name'] = 'edited';
    expect(b!.resource['service.name']).toBe('search-bot');
  });
});

/** A one-span OTLP/JSON body around the given span fields. */
const oneSpanBody = (span: Json, resource: Json = { attributes: [] }): string =>
  JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 's' }, spans: [span] }] }] });

const TRACE_HEX = '5b8efff798038103d269b633813fc60c';
const SPAN_HEX = 'eee19b7ec3c1b174';
const PARENT_HEX = 'eee19b7ec3c1b173';
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

describe('hand-made OTLP/JSON', () => {
  it('reads base64 ids (protobuf JSON mapping) as hex, and upper-case hex as lower-case', () => {
    const decoded = decodeJsonTraces(
      oneSpanBody({ traceId: b64(TRACE_HEX), spanId: SPAN_HEX.toUpperCase(), parentSpanId: b64(PARENT_HEX) }),
    );
    expect(decoded.refused).toEqual([]);
    expect(decoded.spans[0]).toMatchObject({ traceId: TRACE_HEX, spanId: SPAN_HEX, parentSpanId: PARENT_HEX });
  });

  it('reads 64-bit integers given as strings or as numbers, past 2^53 without losing milliseconds', () => {
    const decoded = decodeJsonTraces(
      oneSpanBody({
        traceId: TRACE_HEX,
        spanId: SPAN_HEX,
        startTimeUnixNano: '1700000000123999999',
        endTimeUnixNano: 1700000000456000000,
        attributes: [
          { key: 'asString', value: { intValue: '-12' } },
          { key: 'asNumber', value: { intValue: 12 } },
          { key: 'double', value: { doubleValue: 3 } },
          { key: 'doubleString', value: { doubleValue: '2.5' } },
          { key: 'nan', value: { doubleValue: 'NaN' } },
        ],
        events: [{ name: 'e', timeUnixNano: '1700000000200000000' }],
      }),
    );
    const [span] = decoded.spans;
    expect(span).toMatchObject({ startMs: 1_700_000_000_123, endMs: 1_700_000_000_456 });
    expect(span!.events[0]!.timeMs).toBe(1_700_000_000_200);
    // JSON has no NaN: it stays the string proto3 JSON writes for it
    expect(span!.attributes).toEqual({ asString: -12, asNumber: 12, double: 3, doubleString: 2.5, nan: 'NaN' });
  });

  it("reads the .proto's snake_case names too", () => {
    const body = JSON.stringify({
      resource_spans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { string_value: 'snake' } }] },
          scope_spans: [
            {
              spans: [
                {
                  trace_id: TRACE_HEX,
                  span_id: SPAN_HEX,
                  parent_span_id: PARENT_HEX,
                  name: 'snaky',
                  start_time_unix_nano: '1700000000000000000',
                  end_time_unix_nano: '1700000001000000000',
                  attributes: [{ key: 'list', value: { array_value: { values: [{ int_value: '1' }] } } }],
                  events: [{ name: 'e', time_unix_nano: '1700000000500000000' }],
                  status: { code: 2, message: 'bad' },
                },
              ],
            },
          ],
        },
      ],
    });
    const decoded = decodeJsonTraces(body);
    expect(decoded.spans).toEqual([
      {
        traceId: TRACE_HEX,
        spanId: SPAN_HEX,
        parentSpanId: PARENT_HEX,
        name: 'snaky',
        kind: 'unspecified',
        startMs: 1_700_000_000_000,
        endMs: 1_700_000_001_000,
        attributes: { list: [1] },
        events: [{ name: 'e', timeMs: 1_700_000_000_500, attributes: {} }],
        status: { code: 'error', message: 'bad' },
        resource: { 'service.name': 'snake' },
        scope: { name: '', version: '' },
      },
    ]);
  });

  it('reads enum names as well as numbers, and an unknown kind as unspecified with a warning', () => {
    const named = decodeJsonTraces(
      oneSpanBody({
        traceId: TRACE_HEX,
        spanId: SPAN_HEX,
        kind: 'SPAN_KIND_SERVER',
        status: { code: 'STATUS_CODE_OK' },
      }),
    );
    expect(named.spans[0]).toMatchObject({ kind: 'server', status: { code: 'ok' } });
    expect(named.warnings).toEqual([]);
    const unknown = decodeJsonTraces(oneSpanBody({ traceId: TRACE_HEX, spanId: SPAN_HEX, kind: 9 }));
    expect(unknown.spans[0]!.kind).toBe('unspecified');
    expect(unknown.warnings).toEqual([
      'resourceSpans[0].scopeSpans[0].spans[0].kind number 9 is not one OTLP defines: read as unspecified',
    ]);
  });

  it('ignores unknown fields, as OTLP/JSON requires, and reads null as absent', () => {
    const decoded = decodeJsonTraces(
      oneSpanBody({
        traceId: TRACE_HEX,
        spanId: SPAN_HEX,
        parentSpanId: null,
        futureField: { anything: 1 },
        attributes: [{ key: 'future', value: { quantumValue: 1 } }, { key: 'none' }],
      }),
    );
    expect(decoded.warnings).toEqual([]);
    expect(decoded.spans[0]).toMatchObject({ parentSpanId: null, attributes: { future: null, none: null } });
  });

  it('keeps a span whose attribute value has the wrong type, drops that attribute and says where', () => {
    const decoded = decodeJsonTraces(
      oneSpanBody(
        {
          traceId: TRACE_HEX,
          spanId: SPAN_HEX,
          attributes: [
            { key: 'good', value: { stringValue: 'kept' } },
            { key: 'count', value: { intValue: 'many' } },
            { key: 'flag', value: { boolValue: 'yes' } },
            { key: 'deep', value: { arrayValue: { values: [{ stringValue: 'a' }, { stringValue: 7 }] } } },
            { key: 'two', value: { stringValue: 'a', intValue: 1 } },
            { key: 7, value: { stringValue: 'numeric key' } },
          ],
          events: [
            { name: 'bad time', timeUnixNano: 'yesterday' },
            { name: 'fine', timeUnixNano: '0' },
          ],
        },
        { attributes: [{ key: 'service.name', value: { stringValue: 42 } }] },
      ),
    );
    expect(decoded.refused).toEqual([]);
    const [span] = decoded.spans;
    expect(span!.attributes).toEqual({ good: 'kept' });
    expect(span!.resource).toEqual({});
    expect(span!.events.map((e) => e.name)).toEqual(['fine']);
    const path = 'resourceSpans[0].scopeSpans[0].spans[0]';
    expect(decoded.warnings).toEqual([
      'resourceSpans[0].resource.attributes[0] ("service.name") stringValue must be a string, not number 42: attribute dropped',
      `${path}.attributes[1] ("count") intValue must be an integer (a decimal string or a number), not the string "many": attribute dropped`,
      `${path}.attributes[2] ("flag") boolValue must be a boolean, not the string "yes": attribute dropped`,
      `${path}.attributes[3] ("deep") arrayValue.values[1] stringValue must be a string, not number 7: attribute dropped`,
      `${path}.attributes[4] ("two") sets more than one of its oneof: stringValue, intValue: attribute dropped`,
      `${path}.attributes[5] has a key that is number 7, not a string: attribute dropped`,
      `${path}.events[0].timeUnixNano must be an unsigned integer of nanoseconds (a decimal string or a number), not the string "yesterday": event dropped`,
    ]);
  });

  it('caps the warnings and counts the rest', () => {
    const attributes = Array.from({ length: MAX_WARNINGS + 7 }, (_, i) => ({ key: `k${i}`, value: { boolValue: 1 } }));
    const decoded = decodeJsonTraces(oneSpanBody({ traceId: TRACE_HEX, spanId: SPAN_HEX, attributes }));
    expect(decoded.warnings).toHaveLength(MAX_WARNINGS + 1);
    expect(decoded.warnings!.at(-1)).toBe('... and 7 more warnings like these');
  });

  it('an attribute named __proto__ is an attribute, not a prototype', () => {
    const decoded = decodeJsonTraces(
      oneSpanBody({
        traceId: TRACE_HEX,
        spanId: SPAN_HEX,
        attributes: [
          { key: '__proto__', value: { kvlistValue: { values: [{ key: 'polluted', value: { boolValue: true } }] } } },
        ],
      }),
    );
    const attributes = decoded.spans[0]!.attributes;
    expect(Object.keys(attributes)).toEqual(['__proto__']);
    expect((attributes as Json).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(attributes))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
  });
});

describe('spans refused, siblings kept', () => {
  const cases: [string, Json, string][] = [
    ['no ids', {}, 'traceId is missing'],
    ['an empty span id', { traceId: TRACE_HEX, spanId: '' }, 'spanId is missing'],
    [
      'a short trace id',
      { traceId: 'abcd', spanId: SPAN_HEX },
      'traceId "abcd" is neither 32 hex digits nor base64 of 16 bytes',
    ],
    [
      'an all-zero trace id',
      { traceId: '0'.repeat(32), spanId: SPAN_HEX },
      'traceId is all zeros, which OTLP calls invalid',
    ],
    ['a numeric span id', { traceId: TRACE_HEX, spanId: 5 }, 'spanId must be a string, not number 5'],
    [
      'a broken parent id',
      { traceId: TRACE_HEX, spanId: SPAN_HEX, parentSpanId: 'zz' },
      'parentSpanId "zz" is neither 16 hex digits nor base64 of 8 bytes',
    ],
    [
      'a negative start time',
      { traceId: TRACE_HEX, spanId: SPAN_HEX, startTimeUnixNano: '-1' },
      'startTimeUnixNano must be an unsigned integer of nanoseconds (a decimal string or a number), not the string "-1"',
    ],
    ['not an object', 'span', 'must be an object, not the string "span"'],
  ];
  for (const [what, bad, reason] of cases) {
    it(`a span with ${what} is refused with its path and reason`, () => {
      const body = JSON.stringify({
        resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE_HEX, spanId: SPAN_HEX, name: 'kept' }, bad] }] }],
      });
      const decoded = decodeJsonTraces(body);
      expect(decoded.spans.map((s) => s.name)).toEqual(['kept']);
      expect(decoded.refused).toEqual([{ path: 'resourceSpans[0].scopeSpans[0].spans[1]', reason }]);
    });
  }

  it('an empty or all-zero parent id is a root span', () => {
    for (const parentSpanId of ['', '0000000000000000']) {
      const decoded = decodeJsonTraces(oneSpanBody({ traceId: TRACE_HEX, spanId: SPAN_HEX, parentSpanId }));
      expect(decoded.spans[0]!.parentSpanId).toBeNull();
    }
  });

  it('protobuf: ids of the wrong length or all zeros are refused, the sibling kept', () => {
    const good = { traceId: Buffer.from(TRACE_HEX, 'hex'), spanId: Buffer.from(SPAN_HEX, 'hex'), name: 'kept' };
    const bytes = ExportTraceServiceRequest.encode(
      ExportTraceServiceRequest.fromObject({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  good,
                  { ...good, name: 'short', spanId: Buffer.from('0102', 'hex') },
                  { ...good, name: 'zero', traceId: Buffer.alloc(16) },
                  { ...good, name: 'none', traceId: Buffer.alloc(0) },
                  { ...good, name: 'bad parent', parentSpanId: Buffer.from('010203', 'hex') },
                ],
              },
            ],
          },
        ],
      }),
    ).finish();
    const decoded = decodeProtobufTraces(bytes);
    expect(decoded.spans.map((s) => s.name)).toEqual(['kept']);
    expect(decoded.spans[0]!.parentSpanId).toBeNull();
    const path = 'resourceSpans[0].scopeSpans[0].spans';
    expect(decoded.refused).toEqual([
      { path: `${path}[1]`, reason: 'spanId is 2 bytes long, not 8' },
      { path: `${path}[2]`, reason: 'traceId is all zeros, which OTLP calls invalid' },
      { path: `${path}[3]`, reason: 'traceId is missing' },
      { path: `${path}[4]`, reason: 'parentSpanId is 3 bytes long, not 8' },
    ]);
  });
});

describe('bodies that are not OTLP', () => {
  it('malformed protobuf bytes throw OtlpDecodeError with the reason', () => {
    // field 1, length-delimited, claiming 127 bytes that are not there
    const truncated = new Uint8Array([0x0a, 0x7f, 0x01]);
    expect(() => decodeProtobufTraces(truncated)).toThrow(OtlpDecodeError);
    expect(() => decodeProtobufTraces(truncated)).toThrow(
      /not a protobuf ExportTraceServiceRequest: index out of range/,
    );
    // wire type 7 does not exist
    expect(() => decodeProtobufTraces(new Uint8Array([0x0f]))).toThrow(OtlpDecodeError);
  });

  it('an empty protobuf body is an empty request', () => {
    expect(decodeProtobufTraces(new Uint8Array(0))).toEqual({ spans: [], refused: [], warnings: [] });
  });

  const notOtlp: [string, string, RegExp][] = [
    ['invalid JSON', '{"resourceSpans": [', /^the body is not JSON: /],
    ['an array', '[]', /^the body must be an object \(an ExportTraceServiceRequest\), not an array$/],
    ['an object without resourceSpans', '{"resourceLogs": []}', /no resourceSpans array/],
    ['resourceSpans not an array', '{"resourceSpans": {}}', /^resourceSpans must be an array, not an object$/],
    [
      'a resourceSpans entry not an object',
      '{"resourceSpans": [1]}',
      /^resourceSpans\[0\] must be an object, not number 1$/,
    ],
    [
      'a resource not an object',
      '{"resourceSpans": [{"resource": "r"}]}',
      /^resourceSpans\[0\]\.resource must be an object/,
    ],
    [
      'scopeSpans not an array',
      '{"resourceSpans": [{"scopeSpans": {}}]}',
      /^resourceSpans\[0\]\.scopeSpans must be an array, not an object$/,
    ],
    [
      'spans not an array',
      '{"resourceSpans": [{}, {"scopeSpans": [{"spans": "x"}]}]}',
      /^resourceSpans\[1\]\.scopeSpans\[0\]\.spans must be an array, not the string "x"$/,
    ],
  ];
  for (const [what, body, message] of notOtlp) {
    it(`JSON that is ${what} throws OtlpDecodeError naming what is wrong`, () => {
      let thrown: unknown;
      try {
        decodeJsonTraces(body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(OtlpDecodeError);
      expect((thrown as Error).message).toMatch(message);
    });
  }

  it('an empty resourceSpans array is a valid request with no spans', () => {
    expect(decodeJsonTraces('{"resourceSpans": []}')).toEqual({ spans: [], refused: [], warnings: [] });
  });
});
