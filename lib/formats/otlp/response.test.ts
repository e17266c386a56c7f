// The response encoders, read back with the schema (protobuf) and JSON.parse, and checked against the official JS
// exporter's own response reader: a full success is the empty message, a partial one carries the count and message.
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { describe, expect, it } from 'vitest';
import {
  ExportLogsServiceResponse,
  ExportMetricsServiceResponse,
  ExportTraceServiceResponse,
  RpcStatus,
} from './proto-schema';
import { encodeEmptyResponse, encodeStatus, encodeTraceResponse, partialSuccessOf } from './response';
import type { DecodedTraces } from './spans';

const read = (type: typeof ExportTraceServiceResponse, bytes: Uint8Array) =>
  type.toObject(type.decode(bytes), { longs: Number });

describe('encodeTraceResponse', () => {
  it('a full success is the empty message: no bytes, {} in JSON', () => {
    for (const partial of [null, { rejectedSpans: 0, errorMessage: '' }]) {
      expect(encodeTraceResponse('protobuf', partial)).toHaveLength(0);
      expect(encodeTraceResponse('json', partial)).toBe('{}');
    }
  });

  it('a partial success round-trips through the schema with its count and message', () => {
    const bytes = encodeTraceResponse('protobuf', { rejectedSpans: 3, errorMessage: 'three spans had no ids' });
    expect(read(ExportTraceServiceResponse, bytes)).toEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: 'three spans had no ids' },
    });
    // and the official exporter's own reader of the response sees the same
    expect(ProtobufTraceSerializer.deserializeResponse(bytes)).toMatchObject({
      partialSuccess: { rejectedSpans: 3, errorMessage: 'three spans had no ids' },
    });
  });

  it('JSON writes the int64 count as a decimal string and leaves default fields out', () => {
    expect(JSON.parse(encodeTraceResponse('json', { rejectedSpans: 2, errorMessage: 'why' }))).toEqual({
      partialSuccess: { rejectedSpans: '2', errorMessage: 'why' },
    });
    // a warning alone: rejected 0, a message (the spec's "warnings/suggestions" on a full acceptance)
    expect(JSON.parse(encodeTraceResponse('json', { rejectedSpans: 0, errorMessage: 'attribute dropped' }))).toEqual({
      partialSuccess: { errorMessage: 'attribute dropped' },
    });
    const bytes = encodeTraceResponse('protobuf', { rejectedSpans: 0, errorMessage: 'attribute dropped' });
    expect(read(ExportTraceServiceResponse, bytes)).toEqual({ partialSuccess: { errorMessage: 'attribute dropped' } });
  });
});

describe('encodeEmptyResponse', () => {
  it('metrics and logs answer an empty message that their schemas read as no partial success', () => {
    for (const [signal, type] of [
      ['metrics', ExportMetricsServiceResponse],
      ['logs', ExportLogsServiceResponse],
    ] as const) {
      const bytes = encodeEmptyResponse(signal, 'protobuf');
      expect(bytes).toHaveLength(0);
      expect(read(type, bytes)).toEqual({});
      expect(encodeEmptyResponse(signal, 'json')).toBe('{}');
    }
  });
});

describe('encodeStatus', () => {
  it('is a google.rpc.Status with the message and the gRPC code of the HTTP status', () => {
    const bytes = encodeStatus('protobuf', 400, 'resourceSpans must be an array');
    expect(RpcStatus.toObject(RpcStatus.decode(bytes))).toEqual({ code: 3, message: 'resourceSpans must be an array' });
    expect(JSON.parse(encodeStatus('json', 429, 'slow down'))).toEqual({ code: 8, message: 'slow down' });
    expect(JSON.parse(encodeStatus('json', 413, 'too big')).code).toBe(3);
    expect(JSON.parse(encodeStatus('json', 500, 'oops')).code).toBe(13);
  });
});

describe('partialSuccessOf', () => {
  const none: DecodedTraces = { spans: [], refused: [], warnings: [] };

  it('is null when nothing was refused or dropped', () => {
    expect(partialSuccessOf(none)).toBeNull();
    expect(partialSuccessOf({ spans: [], refused: [] })).toBeNull();
  });

  it('counts the refused spans and names the first few, then the warnings', () => {
    const refused = Array.from({ length: 5 }, (_, i) => ({ path: `spans[${i}]`, reason: 'traceId is missing' }));
    expect(partialSuccessOf({ ...none, refused, warnings: ['a.b dropped'] })).toEqual({
      rejectedSpans: 5,
      errorMessage:
        'refused 5 spans (spans[0]: traceId is missing; spans[1]: traceId is missing; spans[2]: traceId is missing; ' +
        'and 2 more). kept spans with values dropped (a.b dropped)',
    });
  });

  it('warnings alone are a full acceptance with a message', () => {
    expect(partialSuccessOf({ ...none, warnings: ['x'] })).toEqual({
      rejectedSpans: 0,
      errorMessage: 'kept spans with values dropped (x)',
    });
  });
});
