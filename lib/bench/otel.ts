/**
 * `npm run bench:otel`: the OTLP trace receiver's figures on the production server (next start, its own port and
 * SQLite file, lib/harness), printed, never asserted.
 * 1. Spans per second into one run through POST /v1/traces: one trace of BENCH_OTEL_SPANS (default 20,000) node spans
 *    with explicit node ids (node i under node floor((i-1)/4), the tree bench:ingest sends), as protobuf bodies of
 *    512 spans made by the official serializer (@opentelemetry/otlp-transformer), sent one after another. The
 *    receiver answers once a body's operations are written, so the last answer is the last node stored. Beside it,
 *    on the same server, the ingest API's items per second for the same tree as JSON node operations in batches of
 *    512 (what bench:ingest measures in batches of 500). A span is three operations (node, start, complete), so the
 *    events each path wrote per second are printed too.
 * 2. Decode time alone (decodeProtobufTraces, in this process) of a 512-span body and of a body just under the 16 MiB
 *    cap: what one request holds the server's event loop for before any writing starts.
 * 3. Latency from an export (the official protobuf exporter's export() of one span) onto a live trace to the node
 *    row in the database (read from this process every 2 ms), and to its node.created on a follower's stream
 *    (/api/runs/<id>/events.ndjson?follow=1, the stream the page's subscription reads). p50, p95, max.
 * BENCH_PORT sets the server's port (default 3147). Not a test; builds the app first if there is no build.
 * Not responsible for the ingest API's own figures in depth (bench:ingest) nor for the page (bench:ingest part 2).
 */
import { followRunEvents } from './follow';
import os from 'node:os';
import { type Attributes, context, type Span, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { IngestCreated, IngestOpInput } from '../contract/ingest';
import { decodeProtobufTraces } from '../formats/index';
import { type BenchServer, ensureBuild, startBenchServer } from '../harness/index';
import { createPrismaClient, listEvents } from '../server/bench';
import { type BenchFigure, reportFigures } from './figures';
import { medianMs, percentile } from './percentile';

const PORT = Number(process.env.BENCH_PORT ?? 3147);
const SPANS = Number(process.env.BENCH_OTEL_SPANS ?? 20_000);
const BATCH = 512;
const PROBES = 50;
const MAX_BODY = 16 * 1024 * 1024;

const thought = (i: number) => `step ${i}: combine two numbers of the state and carry on`;
const parentOf = (i: number) => (i <= 4 ? 'root' : `n${Math.floor((i - 1) / 4)}`);

/** A tracer whose ended spans are kept in memory, as the SDK hands them to an exporter. */
function memoryTracer(service: string): { tracer: Tracer; finished: InMemorySpanExporter } {
  const finished = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new SimpleSpanProcessor(finished)],
  });
  return { tracer: provider.getTracer('bench-otel'), finished };
}

/** The search tree as spans: the root (naming the goal), then node spans 1..count under it with explicit parents. */
function treeSpans(count: number): ReadableSpan[] {
  const { tracer, finished } = memoryTracer('bench-otel');
  const root = tracer.startSpan('tot.search', { attributes: { 'arborist.goal': 'otel throughput' } });
  const under = trace.setSpan(context.active(), root);
  root.end(); // first in the export, so every node's parent is known when it comes
  for (let i = 1; i <= count; i++) {
    const attributes = {
      'arborist.node.id': `n${i}`,
      'arborist.node.parent_id': parentOf(i),
      'arborist.thought': thought(i),
      'arborist.score': (i % 10) / 10,
    };
    tracer.startSpan('tot.node', { attributes }, under).end();
  }
  return finished.getFinishedSpans();
}

function bodies(spans: ReadableSpan[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < spans.length; at += BATCH) {
    out.push(ProtobufTraceSerializer.serializeRequest(spans.slice(at, at + BATCH))!);
  }
  return out;
}

async function post(url: string, body: BodyInit, type: string): Promise<Response> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

async function runOfTrace(server: BenchServer, traceId: string): Promise<string> {
  const list = await server.query<{ items: { id: string }[] }>('run.list', { q: traceId, limit: 5 });
  if (list.items.length !== 1) throw new Error(`trace ${traceId} has ${list.items.length} runs`);
  return list.items[0]!.id;
}

async function spansThroughput(server: BenchServer, databaseFile: string) {
  const spans = treeSpans(SPANS);
  const requests = bodies(spans);
  const started = performance.now();
  for (const body of requests) await post(`${server.base}/v1/traces`, Buffer.from(body), 'application/x-protobuf');
  const seconds = (performance.now() - started) / 1000;
  const runId = await runOfTrace(server, spans[0]!.spanContext().traceId);
  const events = await storedEvents(databaseFile, runId);
  return { seconds, spans: spans.length, events, runId };
}

/** The same tree as ingest API node operations (bench:ingest's items), in batches of BATCH. */
async function itemsThroughput(server: BenchServer, databaseFile: string) {
  const created = await post(
    `${server.base}/api/ingest/runs`,
    JSON.stringify({ goal: 'ingest throughput, beside otel', task: 'bench', model: 'scripted' }),
    'application/json',
  );
  const { runId } = (await created.json()) as IngestCreated;
  const item = (seq: number): IngestOpInput =>
    seq === 1
      ? { seq, op: 'node', id: 'root', parent: null }
      : {
          seq,
          op: 'node',
          id: `n${seq - 1}`,
          parent: parentOf(seq - 1),
          thought: thought(seq - 1),
          score: ((seq - 1) % 10) / 10,
        };
  const items = SPANS + 1;
  const started = performance.now();
  for (let first = 1; first <= items; first += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, items - first + 1) }, (_, i) => item(first + i));
    await post(`${server.base}/api/ingest/runs/${runId}/events`, JSON.stringify(batch), 'application/json');
  }
  const seconds = (performance.now() - started) / 1000;
  return { seconds, items, events: await storedEvents(databaseFile, runId) };
}

async function storedEvents(databaseFile: string, runId: string): Promise<number> {
  const prisma = createPrismaClient(databaseFile);
  try {
    return (await listEvents(prisma, runId)).length;
  } finally {
    await prisma.$disconnect();
  }
}

/** Decode time of a 512-span body and of one just under the cap, of the same small spans (the most per byte). */
function decodeTimes() {
  const small = bodies(treeSpans(BATCH - 1))[0]!;
  const count = Math.floor((MAX_BODY * 0.98) / (small.length / BATCH));
  const big = ProtobufTraceSerializer.serializeRequest(treeSpans(count - 1))!;
  return {
    smallMs: medianMs(() => decodeProtobufTraces(small), 20),
    smallBytes: small.length,
    bigMs: medianMs(() => decodeProtobufTraces(big), 5),
    bigSpans: count,
    bigBytes: big.length,
  };
}

/** A follower of the run's stream: when each node.created arrived, by node id. */
function follow(base: string, runId: string) {
  const seen = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  const following = followRunEvents(base, runId, (event, now) => {
    if (event.type !== 'node.created') return;
    seen.set(event.payload.nodeId, now);
    waiters.get(event.payload.nodeId)?.(now);
  });
  return {
    arrival: (nodeId: string) =>
      new Promise<number>((resolve) => {
        const at = seen.get(nodeId);
        if (at !== undefined) resolve(at);
        else waiters.set(nodeId, resolve);
      }),
    stop: () => following.stop(),
  };
}

/** One span per export onto a trace whose root stays open: export() to the node row, and to the follower's stream. */
async function exportLatency(server: BenchServer, databaseFile: string) {
  const { tracer, finished } = memoryTracer('bench-otel-latency');
  const exporter = new OTLPTraceExporter({ url: `${server.base}/v1/traces` });
  const root: Span = tracer.startSpan('tot.search'); // never ended: the trace is live throughout
  const under = trace.setSpan(context.active(), root);
  const span = (id: string, attributes: Attributes = {}) => {
    tracer.startSpan('tot.node', { attributes: { 'arborist.node.id': id, ...attributes } }, under).end();
    return finished.getFinishedSpans().at(-1)!;
  };
  const send = (s: ReadableSpan) =>
    new Promise<void>((resolve, reject) =>
      exporter.export([s], (result) => (result.error ? reject(result.error) : resolve())),
    );
  // the first span names the goal: the run is made at once, and its stream followed
  await send(span('warm', { 'arborist.goal': 'otel latency', 'arborist.node.parent_id': 'root' }));
  const runId = await runOfTrace(server, root.spanContext().traceId);
  const prisma = createPrismaClient(databaseFile);
  const stream = follow(server.base, runId);
  const toDb: number[] = [];
  const toStream: number[] = [];
  try {
    await stream.arrival('warm');
    for (let i = 0; i < PROBES; i++) {
      const id = `p${i}`;
      const probe = span(id, { 'arborist.node.parent_id': i === 0 ? 'root' : `p${i - 1}`, 'arborist.thought': id });
      const started = performance.now();
      const streamed = stream.arrival(id);
      const sent = send(probe);
      for (;;) {
        const row = await prisma.node.findUnique({
          where: { runId_nodeId: { runId, nodeId: id } },
          select: { nodeId: true },
        });
        if (row) break;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      toDb.push(performance.now() - started);
      toStream.push((await streamed) - started);
      await sent;
    }
  } finally {
    await stream.stop();
    await prisma.$disconnect();
    await exporter.shutdown();
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  return { toDb: sorted(toDb), toStream: sorted(toStream) };
}

const ms = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms   max ${sorted.at(-1)!.toFixed(1)} ms`;

async function main() {
  console.log(`Arborist OTLP receiver benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  const decode = decodeTimes();
  ensureBuild('the OTLP benchmark');
  const server = await startBenchServer(PORT);
  try {
    const otel = await spansThroughput(server, server.databaseFile);
    const ingest = await itemsThroughput(server, server.databaseFile);
    console.log(`one trace of ${otel.spans} spans, protobuf bodies of ${BATCH}; the same tree as ingest items`);
    console.log('path                                  seconds    per second   events/s');
    const row = (name: string, seconds: number, count: number, events: number) =>
      console.log(
        `${name.padEnd(36)} ${seconds.toFixed(2).padStart(8)} ${(count / seconds).toFixed(0).padStart(12)} ${(events / seconds).toFixed(0).padStart(10)}`,
      );
    row('OTLP /v1/traces (spans)', otel.seconds, otel.spans, otel.events);
    row('ingest API (node items)', ingest.seconds, ingest.items, ingest.events);

    console.log(`\ndecode alone (decodeProtobufTraces, median)`);
    console.log(`  ${BATCH} spans (${(decode.smallBytes / 1024).toFixed(0)} KiB)   ${decode.smallMs.toFixed(2)} ms`);
    console.log(
      `  ${decode.bigSpans} spans (${(decode.bigBytes / 1024 / 1024).toFixed(1)} MiB)   ${decode.bigMs.toFixed(0)} ms`,
    );

    const latency = await exportLatency(server, server.databaseFile);
    console.log(`\nexport() of one span onto a live trace (${PROBES} exports)`);
    console.log(`  -> node row in the database      ${ms(latency.toDb)}`);
    console.log(`  -> node.created on the stream    ${ms(latency.toStream)}`);

    const figures: BenchFigure[] = [
      {
        name: `OTLP spans/s, one trace, bodies of ${BATCH}`,
        value: otel.spans / otel.seconds,
        unit: 'spans/s',
        note: `ingest API ${(ingest.items / ingest.seconds).toFixed(0)} items/s`,
      },
      { name: 'OTLP decode, 512-span body', value: decode.smallMs, unit: 'ms' },
      { name: 'OTLP decode, 16 MiB body', value: decode.bigMs, unit: 'ms', note: `${decode.bigSpans} spans` },
      {
        name: 'OTLP export -> node in the database',
        value: percentile(latency.toDb, 50),
        unit: 'ms',
        note: `p95 ${percentile(latency.toDb, 95).toFixed(1)} ms`,
      },
      {
        name: 'OTLP export -> node on the stream',
        value: percentile(latency.toStream, 50),
        unit: 'ms',
        note: `p95 ${percentile(latency.toStream, 95).toFixed(1)} ms`,
      },
    ];
    reportFigures('otel', figures);
  } finally {
    server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
