/**
 * `npm run bench:server`: the server's figures, printed, never asserted.
 * 1. The event store: rows/s through appendEvents beside raw better-sqlite3 inserts of the same rows (the ratio).
 * 2. Latency from an event to a subscribed client, p50 and p95, at about 100 and 1,000 events per second: the real
 *    production server (next start, its own port and database) runs an offline search whose simulated model latency
 *    sets the rate; a client follows the run over HTTP (/api/runs/<id>/events.ndjson?follow=1, the same stream the
 *    SSE subscription uses) and measures arrival time minus the event's own timestamp (one machine, one clock).
 * Not a test; builds the app first if there is no build.
 */
import os from 'node:os';
import type { ExplorationEvent } from '../contract/events';
import { type BenchServer, ensureBuild, startBenchServer } from '../harness/index';
import { percentile } from './percentile';
import { benchEventStore } from './server-store';

const PORT = 3310;

/** Follows one run for `windowMs`; returns the achieved event rate and the latencies. */
async function measure(server: BenchServer, latencyMs: number, windowMs: number) {
  const { id } = await server.post<{ id: string }>('run.create', {
    taskId: 'open-goal',
    goal: 'Reduce the p99 latency of the checkout API',
    config: { maxTotalNodes: 100_000, maxDepth: 12, terminationConfidence: 1, confidenceThreshold: 0 },
    model: { provider: 'simulated', seed: 11, latencyMs },
  });
  const controller = new AbortController();
  const res = await fetch(`${server.base}/api/runs/${id}/events.ndjson?follow=1`, { signal: controller.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const latencies: number[] = [];
  let buffered = '';
  let started = 0;
  const deadline = () => started > 0 && Date.now() - started > windowMs;
  try {
    while (!deadline()) {
      const { value, done } = await reader.read();
      if (done) break;
      const now = Date.now();
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const event = JSON.parse(line) as ExplorationEvent;
        if (event.type === 'run.started') started = now;
        if (started) latencies.push(now - event.ts);
      }
    }
  } finally {
    controller.abort();
    await server.post('run.abort', { id }).catch(() => undefined);
  }
  const seconds = (Date.now() - started) / 1000;
  return { rate: latencies.length / seconds, latencies: latencies.sort((a, b) => a - b) };
}

async function latencyAt(server: BenchServer, target: number) {
  // the model's latency sets the pace: calibrate it twice towards the target rate, then measure
  let latency = target >= 1_000 ? 12 : 120;
  for (let i = 0; i < 2; i++) {
    const probe = await measure(server, latency, 2_000);
    latency = Math.max(0, Math.round((latency * probe.rate) / target));
  }
  const final = await measure(server, latency, 6_000);
  return { target, latencyMs: latency, ...final };
}

async function main() {
  console.log(`Arborist server benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  await benchEventStore({ rows: 50_000 });

  ensureBuild('the latency benchmark');
  const server = await startBenchServer(PORT);
  try {
    console.log('\nevent -> subscribed client over HTTP (next start, loopback)');
    console.log('target ev/s   achieved ev/s   model latency   events    p50 ms   p95 ms   max ms');
    for (const target of [100, 1_000]) {
      const r = await latencyAt(server, target);
      console.log(
        `${String(target).padStart(10)} ${r.rate.toFixed(0).padStart(15)} ${`${r.latencyMs} ms`.padStart(15)} ${String(r.latencies.length).padStart(8)} ${String(percentile(r.latencies, 50)).padStart(9)} ${String(percentile(r.latencies, 95)).padStart(8)} ${String(r.latencies.at(-1)).padStart(8)}`,
      );
    }
  } finally {
    server.stop();
  }
}

void main();
