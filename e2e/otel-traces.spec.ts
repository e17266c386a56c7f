// Traces in, against the production server: the OpenTelemetry example (lib/sdk/examples/otel-tot.ts, a traced
// Tree-of-Thoughts search exporting protobuf over OTLP/HTTP) runs as a child process while its run's page is open;
// nodes appear on the page while it runs, and once it has ended the page's tree is the one it printed (node count,
// the best path's thoughts, the answer), finished and successful, with its trace id and no steering controls. And the
// Next routes themselves: a gzip protobuf body sent chunked (no Content-Length, as the exporters send) and a JSON body
// through /api/otel/v1/traces each answer 200 with an ExportTraceServiceResponse, and the official exporters succeed.
// data-testid used: run-status, run-external, run-trace-id, steering-unavailable, stat-total, thought-node
// (data-node-id, data-status, data-best), inspector-node, inspector-model-call.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { context, trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { expect, test } from '@playwright/test';
import { demoRunId, E2E_BASE, query } from './api';

interface Child {
  process: ChildProcessWithoutNullStreams;
  stdout: () => string;
  exited: Promise<number | null>;
}

/** The example, as a person runs it (npx tsx), pointed at the test server, each model call taking `delayMs`. */
function example(delayMs: number): Child {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'lib/sdk/examples/otel-tot.ts', '4', '9', '10', '13', '--delay-ms', String(delayMs)],
    { cwd: process.cwd(), env: { ...process.env, ARBORIST_URL: E2E_BASE } },
  );
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, stdout: () => stdout, exited };
}

/** The run the receiver made of a trace: the runs list's search finds it by its trace id. */
async function runOfTrace(traceId: string): Promise<string | null> {
  const list = await query<{ items: { id: string }[] }>(E2E_BASE, 'run.list', { q: traceId, limit: 5 });
  return list.items.length === 1 ? list.items[0]!.id : null;
}

test('a traced search grows live on its run page, then is the tree it printed: finished, its trace id shown, no steering', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // the run page's code loaded once before the program starts (the demo run's page), so the page is up in time
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/runs/${await demoRunId(E2E_BASE)}`);
  await expect(page.getByTestId('thought-node').first()).toBeVisible();
  // ~40 model calls of 350 ms: the search runs about 14 s (a loaded machine takes seconds to start it and the page)
  const tot = example(350);
  try {
    await expect.poll(() => /^trace ([0-9a-f]{32})$/m.exec(tot.stdout())?.[1] ?? null).not.toBeNull();
    const traceId = /^trace ([0-9a-f]{32})$/m.exec(tot.stdout())![1]!;
    // the run is made as soon as a span names the goal: the first batch, well before the search ends
    await expect.poll(() => runOfTrace(traceId), { timeout: 10_000 }).not.toBeNull();
    const runId = (await runOfTrace(traceId))!;
    await page.goto(`/runs/${runId}`);
    const status = page.getByTestId('run-status');
    const total = page.getByTestId('stat-total');

    // live: the node count grows on the open page (no reload) while the program still runs
    await expect.poll(async () => Number(await total.textContent()), { timeout: 15_000 }).toBeGreaterThan(0);
    const early = Number(await total.textContent());
    await expect.poll(async () => Number(await total.textContent()), { timeout: 15_000 }).toBeGreaterThan(early);
    const grownTo = Number(await total.textContent());
    expect(tot.process.exitCode, `the node count grew (${early} -> ${grownTo}) while the program ran`).toBeNull();
    await expect(status).toHaveText('running');
    // a traced program only sends spans: while it runs the page offers no command, and says why
    await expect(page.getByTestId('steering-unavailable')).toHaveText(
      'Steering is unavailable: a traced program only sends spans, no channel leads back to it',
    );
    for (const name of ['Pause', 'Resume', 'Step', 'Abort']) {
      await expect(page.getByTestId('run-header').getByRole('button', { name, exact: true })).toHaveCount(0);
    }
    await expect(page.getByTestId('run-external')).toHaveText('external: otel-tot');
    await expect(page.getByTestId('run-trace-id')).toContainText(traceId);
    await page.screenshot({ path: 'test-results/screens/otel-traces-live.png' });

    // ended: the tree the program printed
    expect(await tot.exited).toBe(0);
    const out = tot.stdout();
    const steps = Number(/^tree: \d+ nodes \(the root and (\d+) steps\)/m.exec(out)?.[1]);
    const answer = /^solved: (.+)$/m.exec(out)?.[1];
    const path = /^best path: (.+)$/m.exec(out)?.[1]?.split(' -> ') ?? [];
    expect(steps, out).toBeGreaterThan(10);
    expect(answer, out).toMatch(/= 24$/);
    expect(path).toHaveLength(3);
    await expect(status).toHaveText('finished', { timeout: 20_000 });
    await expect(total).toHaveText(String(steps));
    const run = await query<{ status: string; success: boolean | null; output: string | null }>(E2E_BASE, 'run.byId', {
      id: runId,
    });
    expect(run).toMatchObject({ status: 'finished', success: true, output: answer });
    await expect(page.getByTestId('run-trace-id')).toContainText(traceId);
    // ended, the header shows a finished run's controls, all off
    for (const name of ['Pause', 'Step', 'Abort']) {
      await expect(page.getByTestId('run-header').getByRole('button', { name, exact: true })).toBeDisabled();
    }

    // the best path: each of its thoughts a node that was kept, the last one the best node, the answer
    for (const thought of path) {
      await expect(
        page.locator('[data-testid=thought-node]:not([data-status=pruned])', { hasText: thought }).first(),
      ).toBeVisible();
    }
    const best = page.locator('[data-testid=thought-node][data-best]');
    await expect(best).toHaveCount(1);
    await expect(best).toContainText(path.at(-1)!);
    // its model call (the evaluation), with the model's name and tokens, in the inspector
    await best.click();
    await expect(page.getByTestId('inspector-node')).toHaveAttribute(
      'data-node-id',
      (await best.getAttribute('data-node-id'))!,
    );
    await expect(page.getByTestId('inspector-node')).toContainText(answer!); // its result
    const call = page.getByTestId('inspector-model-call').first();
    await expect(call).toContainText(/evaluate.*\d+→1 tok/); // its prompt's estimated tokens, "sure" in one
    await call.locator('summary').click();
    await expect(call).toContainText('local-24-heuristic');
    await page.screenshot({ path: 'test-results/screens/otel-traces-finished.png' });
  } finally {
    tot.process.kill('SIGKILL');
  }
});

/** A small traced search's spans, as the SDK hands them to an exporter: a root naming the goal, one node, one call. */
function tracedSpans(goal: string): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'otel-route-e2e' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('e2e');
  const root = tracer.startSpan('tot.search', { attributes: { 'arborist.goal': goal, 'arborist.node.id': 'root' } });
  const under = trace.setSpan(context.active(), root);
  const node = tracer.startSpan(
    'tot.node',
    { attributes: { 'arborist.node.id': 'a', 'arborist.thought': '13 - 9 = 4', 'arborist.score': 0.8 } },
    under,
  );
  tracer
    .startSpan(
      'chat gpt-4o',
      {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.usage.input_tokens': 12,
          'gen_ai.usage.output_tokens': 3,
        },
      },
      trace.setSpan(context.active(), node),
    )
    .end();
  node.end();
  root.setAttribute('output.value', '(13 - 9) * (10 - 4) = 24');
  root.end();
  return memory.getFinishedSpans();
}

/** A POST by node's http, its body written in pieces with no Content-Length (chunked), as the exporters send. */
function postChunked(
  url: string,
  body: Uint8Array,
  headers: Record<string, string>,
): Promise<{ status: number; type: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    const third = Math.ceil(body.length / 3);
    for (let at = 0; at < body.length; at += third) req.write(body.subarray(at, at + third));
    req.end();
  });
}

const exported = (exporter: SpanExporter, spans: ReadableSpan[]) =>
  new Promise<ExportResult>((resolve) => exporter.export(spans, resolve));

test('the Next routes take a chunked gzip protobuf export and a JSON one, each answered 200 with an ExportTraceServiceResponse', async () => {
  // protobuf, gzip, chunked
  const proto = tracedSpans('route check: protobuf, gzip, chunked');
  const protoTrace = proto[0]!.spanContext().traceId;
  const protoAnswer = await postChunked(
    `${E2E_BASE}/api/otel/v1/traces`,
    gzipSync(ProtobufTraceSerializer.serializeRequest(proto)!),
    { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' },
  );
  expect(protoAnswer.status, protoAnswer.body.toString()).toBe(200);
  expect(protoAnswer.type).toBe('application/x-protobuf');
  // every span taken: no partial success (an empty message is an empty body)
  const decoded = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(protoAnswer.body));
  expect(Number(decoded.partialSuccess?.rejectedSpans ?? 0)).toBe(0);
  expect(await runOfTrace(protoTrace)).not.toBeNull();

  // JSON, plain
  const json = tracedSpans('route check: JSON');
  const jsonTrace = json[0]!.spanContext().traceId;
  const jsonAnswer = await postChunked(`${E2E_BASE}/api/otel/v1/traces`, JsonTraceSerializer.serializeRequest(json)!, {
    'content-type': 'application/json',
  });
  expect(jsonAnswer.status, jsonAnswer.body.toString()).toBe(200);
  expect(jsonAnswer.type).toMatch(/^application\/json/);
  const body = JSON.parse(jsonAnswer.body.toString()) as { partialSuccess?: { rejectedSpans?: number | string } };
  expect(Number(body.partialSuccess?.rejectedSpans ?? 0)).toBe(0);
  expect(await runOfTrace(jsonTrace)).not.toBeNull();

  // a body over 1 MiB is decoded in a worker thread (lib/server/http/otlp-decode.ts): the built app's worker chunk
  const bigTrace = '0000000000000000'.concat(Date.now().toString(16).padStart(16, '0'));
  const big = JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'otel-route-e2e' } }] },
        scopeSpans: [
          {
            spans: Array.from({ length: 1_100 }, (_, i) => ({
              traceId: bigTrace,
              spanId: (i + 1).toString(16).padStart(16, '0'),
              ...(i > 0 && { parentSpanId: '0000000000000001' }),
              name: i === 0 ? 'root' : `step ${i}`,
              startTimeUnixNano: '1000000',
              endTimeUnixNano: '2000000',
              attributes: [{ key: 'note', value: { stringValue: 'x'.repeat(1_000) } }],
            })),
          },
        ],
      },
    ],
  });
  expect(big.length).toBeGreaterThan(1024 * 1024);
  const bigAnswer = await postChunked(`${E2E_BASE}/v1/traces`, Buffer.from(big), {
    'content-type': 'application/json',
  });
  expect(bigAnswer.status, bigAnswer.body.toString()).toBe(200);
  expect(await runOfTrace(bigTrace)).not.toBeNull();

  // the official exporters, on both paths: their export succeeds and the trace is a run
  for (const [exporter, goal] of [
    [
      new ProtoExporter({ url: `${E2E_BASE}/v1/traces`, compression: CompressionAlgorithm.GZIP }),
      'exporter: protobuf, gzip',
    ],
    [new JsonExporter({ url: `${E2E_BASE}/api/otel/v1/traces` }), 'exporter: JSON'],
  ] as const) {
    const spans = tracedSpans(goal);
    const result = await exported(exporter, spans);
    expect(result.code, `${goal}: ${result.error?.message ?? ''}`).toBe(ExportResultCode.SUCCESS);
    expect(await runOfTrace(spans[0]!.spanContext().traceId), goal).not.toBeNull();
    await exporter.shutdown();
  }
});
