// The OTLP receiver from outside: the official OpenTelemetry JS exporters (protobuf and JSON, gzip and plain) send a
// traced search to the real route handlers on loopback, over real SQLite; the run's stored tree must be the search's.
// Plus the HTTP answers an exporter relies on: partial success, 400, 413, 415, 429, empty metrics and logs.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, type Span, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { listRuns } from '../repositories/runs';
import { listNodes } from '../run-log/nodes';
import { getRun } from '../repositories/runs';
import { servicesPerTest, type TestServices } from '../testing/services';
import { type IngestRoutesServer, serveIngestRoutes } from '../testing/ingest-routes';
import { ingestClientOfTrace } from '../repositories/ingest';

const services = servicesPerTest();
let server: IngestRoutesServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(): Promise<{ s: TestServices; url: string }> {
  const s = services.create({ otelIdleMs: 200, otelWaitMs: 300 });
  server = await serveIngestRoutes(s);
  return { s, url: server.url };
}

/** A small traced beam search, as a program instrumented with the OpenTelemetry SDK would send it. */
async function tracedSearch(exporter: SpanExporter): Promise<string> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'tot-under-test' }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 20, maxExportBatchSize: 4 })],
  });
  const tracer: Tracer = provider.getTracer('test');
  // parents given explicitly (no global context manager in a test): a child is started in its parent's context
  const under = (parent: Span) => trace.setSpan(ROOT_CONTEXT, parent);
  const root = tracer.startSpan('tot.search', {
    attributes: { 'arborist.goal': '4 9 10 13', 'arborist.node.id': 'root' },
  });
  const step = (id: string, parent: string, thought: string, score: number, extra: Record<string, boolean> = {}) => {
    const span = tracer.startSpan(
      'tot.node',
      {
        attributes: {
          'arborist.node.id': id,
          'arborist.node.parent_id': parent,
          'arborist.thought': thought,
          'arborist.score': score,
          ...extra,
        },
      },
      under(root),
    );
    const call = tracer.startSpan(
      'chat gpt-4o',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 100,
          'gen_ai.usage.output_tokens': 20,
        },
      },
      under(span),
    );
    call.end();
    span.end();
  };
  step('a', 'root', '13 - 9 = 4', 0.8);
  step('b', 'root', '10 - 4 = 6', 0.3);
  step('a1', 'a', '4 * 6 = 24', 0.95, { 'arborist.answer': true });
  root.setAttribute('output.value', '(13 - 9) * (10 - 4) = 24');
  root.end();
  const traceId = root.spanContext().traceId;
  await provider.forceFlush();
  await provider.shutdown();
  return traceId;
}

async function runOf(s: TestServices, traceId: string) {
  const client = await ingestClientOfTrace(s.prisma, traceId);
  expect(client, `a run for trace ${traceId}`).not.toBeNull();
  return client!.runId;
}

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the OTLP receiver with the official exporters', () => {
  for (const [name, make] of [
    ['protobuf', (url: string) => new ProtoExporter({ url: `${url}/v1/traces` })],
    [
      'protobuf, gzip',
      (url: string) => new ProtoExporter({ url: `${url}/v1/traces`, compression: CompressionAlgorithm.GZIP }),
    ],
    ['JSON', (url: string) => new JsonExporter({ url: `${url}/api/otel/v1/traces` })],
    [
      'JSON, gzip',
      (url: string) => new JsonExporter({ url: `${url}/api/otel/v1/traces`, compression: CompressionAlgorithm.GZIP }),
    ],
  ] as const) {
    it(`makes the traced search's run and tree (${name})`, async () => {
      const { s, url } = await serve();
      const traceId = await tracedSearch(make(url));
      const runId = await runOf(s, traceId);
      s.traces.start(50);
      const run = await waitFor(async () => {
        const r = await getRun(s.prisma, runId);
        return r?.status === 'finished' && r;
      });
      expect(run).toMatchObject({ goal: '4 9 10 13', taskId: 'traced', modelLabel: 'gpt-4o', success: true });
      expect(run.output).toBe('(13 - 9) * (10 - 4) = 24');
      const nodes = await listNodes(s.prisma, runId);
      const shape = Object.fromEntries(nodes.map((n) => [n.nodeId, { parent: n.parentId, thought: n.thought }]));
      expect(shape).toEqual({
        root: { parent: null, thought: null },
        a: { parent: 'root', thought: '13 - 9 = 4' },
        b: { parent: 'root', thought: '10 - 4 = 6' },
        a1: { parent: 'a', thought: '4 * 6 = 24' },
      });
      // the engine's meaning: every node but the root, every model call
      expect(run.stats).toMatchObject({
        totalNodes: 3,
        modelCalls: 3,
        tokenUsage: { inputTokens: 300, outputTokens: 60 },
      });
      expect(run.cost).toBeCloseTo((3 * (100 * 2.5 + 20 * 10)) / 1e6, 9);
      // the runs list's search finds it by its trace id
      const found = await listRuns(s.prisma, { q: traceId.slice(0, 12), limit: 50 });
      expect(found.items.map((r) => r.id)).toEqual([runId]);
    });
  }
});

async function post(url: string, body: BodyInit, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', body, headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

function jsonExport(spans: object[]) {
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ spans }] }] });
}

describe('what the receiver answers', () => {
  it('answers a partial success naming the spans it refused, and keeps the rest', async () => {
    const { s, url } = await serve();
    const traceId = hex(7, 32);
    const root = hex(1, 16);
    const response = await post(
      `${url}/v1/traces`,
      jsonExport([
        { traceId, spanId: root, name: 'root', startTimeUnixNano: '1000000', endTimeUnixNano: '2000000' },
        {
          traceId,
          spanId: hex(2, 16),
          parentSpanId: root,
          name: 'bad score',
          startTimeUnixNano: 1_000_000,
          endTimeUnixNano: 2_000_000,
          attributes: [{ key: 'arborist.score', value: { intValue: '5' } }],
        },
        {
          traceId,
          spanId: hex(3, 16),
          parentSpanId: root,
          name: 'good',
          startTimeUnixNano: '1000000',
          endTimeUnixNano: '2000000',
        },
      ]),
      { 'content-type': 'application/json' },
    );
    expect(response.status).toBe(200);
    const body = JSON.parse(response.text) as {
      partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string };
    };
    expect(Number(body.partialSuccess?.rejectedSpans)).toBe(1);
    expect(body.partialSuccess?.errorMessage).toContain('arborist.score must be a number from 0 to 1, got 5');
    const nodes = await listNodes(s.prisma, await runOf(s, traceId));
    expect(nodes.map((n) => n.thought ?? '(root)').sort()).toEqual(['(root)', 'good']);
  });

  it('stores a span sent twice once, across requests', async () => {
    const { s, url } = await serve();
    const traceId = hex(8, 32);
    const spans = [
      { traceId, spanId: hex(1, 16), name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' },
      {
        traceId,
        spanId: hex(2, 16),
        parentSpanId: hex(1, 16),
        name: 'child',
        startTimeUnixNano: '1',
        endTimeUnixNano: '2',
      },
    ];
    for (let i = 0; i < 2; i += 1) {
      expect((await post(`${url}/v1/traces`, jsonExport(spans), { 'content-type': 'application/json' })).status).toBe(
        200,
      );
    }
    expect(await listNodes(s.prisma, await runOf(s, traceId))).toHaveLength(2);
  });

  it('refuses what is not OTLP with the reason, and writes nothing', async () => {
    const { s, url } = await serve();
    const notOtlp = await post(`${url}/v1/traces`, JSON.stringify({ spans: [] }), {
      'content-type': 'application/json',
    });
    expect(notOtlp.status).toBe(400);
    expect(notOtlp.text).toMatch(/resourceSpans/);
    const garbage = await post(`${url}/v1/traces`, new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 1]), {
      'content-type': 'application/x-protobuf',
    });
    expect(garbage.status).toBe(400);
    const wrongType = await post(`${url}/v1/traces`, 'hello', { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(wrongType.text).toContain('application/x-protobuf');
    const badGzip = await post(`${url}/v1/traces`, 'not gzip', {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(badGzip.status).toBe(400);
    const deflate = await post(`${url}/v1/traces`, '{}', {
      'content-type': 'application/json',
      'content-encoding': 'br',
    });
    expect(deflate.status).toBe(415);
    expect((await listRuns(s.prisma, { limit: 50 })).items.filter((r) => r.taskId === 'traced')).toEqual([]);
  });

  it('decodes a body over 1 MiB in a worker thread, spans and refusals alike', async () => {
    const { s, url } = await serve();
    const traceId = hex(12, 32);
    const padding = 'x'.repeat(1_000);
    // ~1.3 MiB of JSON: 1,200 spans under one root, each with a long attribute
    const spans = [
      { traceId, spanId: hex(1, 16), name: 'root', startTimeUnixNano: '1', endTimeUnixNano: '2' },
      ...Array.from({ length: 1_200 }, (_, i) => ({
        traceId,
        spanId: hex(i + 2, 16),
        parentSpanId: hex(1, 16),
        name: `step ${i}`,
        startTimeUnixNano: '1',
        endTimeUnixNano: '2',
        attributes: [{ key: 'note', value: { stringValue: padding } }],
      })),
    ];
    const body = jsonExport(spans);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const response = await post(`${url}/v1/traces`, body, { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect(await listNodes(s.prisma, await runOf(s, traceId))).toHaveLength(1_201);
    const garbage = await post(`${url}/v1/traces`, `{"resourceSpans": 7, "pad": "${padding.repeat(1_200)}"}`, {
      'content-type': 'application/json',
    });
    expect(garbage.status).toBe(400);
    expect(garbage.text).toContain('resourceSpans');
  });

  it('refuses a body past the cap with 413, however it is compressed', async () => {
    const { url } = await serve();
    const huge = gzipSync(Buffer.alloc(17 * 1024 * 1024, 0x20)); // 17 MiB of spaces, ~17 KB gzipped
    const response = await post(`${url}/v1/traces`, huge, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(response.status).toBe(413);
  });

  it('sheds load with 429 and Retry-After when too many spans are waiting', async () => {
    const s = services.create({ otelIdleMs: 200, otelWaitMs: 60_000 });
    server = await serveIngestRoutes(s);
    // a receiver that holds at most 3 spans at once
    (s.traces as unknown as { options: { maxPending: number } }).options.maxPending = 3;
    const traceId = hex(9, 32);
    const spans = Array.from({ length: 4 }, (_, i) => ({
      traceId,
      spanId: hex(i + 1, 16),
      parentSpanId: hex(99, 16),
      name: `s${i}`,
      startTimeUnixNano: '1',
      endTimeUnixNano: '2',
    }));
    const response = await post(`${server.url}/v1/traces`, jsonExport(spans), { 'content-type': 'application/json' });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('answers metrics and logs with an empty success, in the request encoding', async () => {
    const { url } = await serve();
    for (const path of ['/v1/metrics', '/v1/logs', '/api/otel/v1/metrics', '/api/otel/v1/logs']) {
      const json = await post(`${url}${path}`, '{}', { 'content-type': 'application/json' });
      expect(json.status, path).toBe(200);
      expect(JSON.parse(json.text)).toEqual({});
      const proto = await post(`${url}${path}`, new Uint8Array(), { 'content-type': 'application/x-protobuf' });
      expect(proto.status, path).toBe(200);
      expect(proto.headers.get('content-type')).toBe('application/x-protobuf');
    }
  });
});

describe('a trace across a restart and across people', () => {
  it("continues a trace's run after a restart: later spans land under the nodes stored before it", async () => {
    const s = services.create({ otelIdleMs: 200, otelWaitMs: 300 });
    const first = await serveIngestRoutes(s);
    const traceId = hex(10, 32);
    const root = hex(1, 16);
    const parent = hex(2, 16);
    const span = (id: string, parentId: string | null, name: string, attributes: object[] = []) => ({
      traceId,
      spanId: id,
      ...(parentId && { parentSpanId: parentId }),
      name,
      startTimeUnixNano: '1000000',
      endTimeUnixNano: '2000000',
      attributes,
    });
    // an explicit parent: the root node is there from the start, so the step is placed (stored) at once
    const goal = [
      { key: 'arborist.goal', value: { stringValue: 'find it' } },
      { key: 'arborist.node.parent_id', value: { stringValue: 'root' } },
    ];
    const headers = { 'content-type': 'application/json' };
    expect(
      (await post(`${first.url}/v1/traces`, jsonExport([span(parent, root, 'expand', goal)]), headers)).status,
    ).toBe(200);
    await first.close();
    // a new process: nothing of the trace in memory, its run and nodes in the database
    const again = s.restart({ otelIdleMs: 200, otelWaitMs: 300 });
    services.track(again);
    server = await serveIngestRoutes(again);
    const late = [span(hex(3, 16), parent, 'deeper'), span(root, null, 'search')];
    expect((await post(`${server.url}/v1/traces`, jsonExport(late), headers)).status).toBe(200);
    const runId = await runOf(again, traceId);
    again.traces.start(50);
    await waitFor(async () => (await getRun(again.prisma, runId))?.status === 'finished');
    const nodes = await listNodes(again.prisma, runId);
    expect(Object.fromEntries(nodes.map((n) => [n.thought ?? 'root', n.parentId]))).toEqual({
      root: null,
      expand: 'root',
      deeper: parent,
    });
    expect((await listRuns(again.prisma, { limit: 50 })).items.filter((r) => r.goal === 'find it')).toHaveLength(1);
  });

  it("refuses spans of a trace another person's run holds, and takes the rest", async () => {
    const s = services.create({ otelIdleMs: 200, otelWaitMs: 300 });
    const traceId = hex(11, 32);
    const span = {
      traceId,
      spanId: hex(1, 16),
      name: 'root',
      startMs: 1,
      endMs: 2,
      parentSpanId: null,
      kind: 'internal',
      attributes: {},
      events: [],
      status: { code: 'unset' as const, message: '' },
      resource: {},
    };
    expect((await s.traces.receive([span], { ownerId: 'alice', actor: 'alice' })).rejectedSpans).toBe(0);
    const other = await s.traces.receive([{ ...span, spanId: hex(2, 16), parentSpanId: hex(1, 16) }], {
      ownerId: 'bob',
      actor: 'bob',
    });
    expect(other).toMatchObject({ rejectedSpans: 1, message: expect.stringContaining('another person') });
  });
});

// the tracer provider registers nothing globally here; keep it that way for the other test files
afterEach(() => trace.disable());
