/**
 * `npm run bench:server`: the server's figures, printed, never asserted.
 * 1. The event store: rows/s through appendEvents beside raw better-sqlite3 inserts of the same rows (the ratio); then
 *    the run manager's real write path beside raw better-sqlite3 writing the same rows (bench:write, write-path.ts).
 * 2. Memory (issue 16), on the production server started with --inspect (read from outside: no hook in its code):
 *    its heap after full collections (the inspector's HeapProfiler.collectGarbage, Runtime.getHeapUsage) and its
 *    resident set (/proc/<pid>/status of the server process itself) before a ~100k-event run, at the run's peak, and
 *    once it has finished; then the rate at which that same server serves the run's whole log as events.ndjson.
 *    "Before" follows a small warm-up run and its download, so code loaded on first use is not counted as kept.
 *    BENCH_SERVER_NODES sets the big run's node limit; BENCH_SERVER_HEAPSNAPSHOT=<file> also writes the server's heap
 *    snapshot after the run (to find what it keeps). 1 MB here is 2^20 bytes.
 * 3. Latency from an event to a subscribed client, p50 and p95, at about 100 and 1,000 events per second: the real
 *    production server (next start, its own port and database) runs an offline search whose simulated model latency
 *    sets the rate; a client follows the run over HTTP (/api/runs/<id>/events.ndjson?follow=1, the same stream the
 *    SSE subscription uses) and measures arrival time minus the event's own timestamp (one machine, one clock).
 * Not a test; builds the app first if there is no build.
 */
import os from 'node:os';
import type { ExplorationEvent } from '../contract/events';
import { hasEnded } from '../contract/run-status';
import { sleep } from '../contract/sleep';
import { type BenchServer, ensureBuild, startBenchServer } from '../harness/index';
import { reportFigures } from './figures';
import { Inspector, residentMemory } from './inspector';
import { percentile } from './percentile';
import { benchEventStore } from './server-store';
import { benchWritePath } from './write-path';

const PORT = 3310;
const INSPECT_PORT = 9310;
const MB = 1024 * 1024;
/**
 * The big run's node limit: ~93k events (~180 MB of NDJSON) with the simulated model's defaults at depth 14. The count
 * jumps with the limit (8,150: 93k events; 8,200: 155k, a whole beam level more); at depth 12 the beam runs out of
 * frontier at 89k.
 */
const NODES = Number(process.env.BENCH_SERVER_NODES ?? 8_150);

/** A run with the offline simulated model at full speed (latency 0), up to `nodes` nodes. */
function createRun(server: BenchServer, nodes: number, latencyMs = 0, maxDepth = 12) {
  return server.post<{ id: string }>('run.create', {
    taskId: 'open-goal',
    goal: 'Reduce the p99 latency of the checkout API',
    config: { maxTotalNodes: nodes, maxDepth, terminationConfidence: 1, confidenceThreshold: 0 },
    model: { provider: 'simulated', seed: 11, latencyMs },
  });
}

/**
 * Polls the run's row until it has ended, then the health endpoint until the server executes no run (the manager is
 * done with it: its snapshot stored, its live state let go); returns the run's last seq (its event count).
 */
async function waitUntilEnded(server: BenchServer, id: string): Promise<number> {
  for (;;) {
    const run = await server.query<{ status: string; lastSeq: number }>('run.byId', { id });
    const health = (await (await fetch(`${server.base}/api/health`)).json()) as { runs: { executingHere: number } };
    if (hasEnded(run.status as Parameters<typeof hasEnded>[0]) && health.runs.executingHere === 0) return run.lastSeq;
    await sleep(250);
  }
}

/** Downloads the run's whole log as events.ndjson; the bytes and the seconds it took. */
async function download(server: BenchServer, id: string, query = ''): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const res = await fetch(`${server.base}/api/runs/${id}/events.ndjson${query}`);
  if (!res.ok || !res.body) throw new Error(`events.ndjson answered ${res.status}`);
  const reader = res.body.getReader();
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
  }
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

async function memory(server: BenchServer, inspector: Inspector) {
  // warm-up: the routes, the engine and the stream loaded once (their code stays, as it should)
  const warm = await createRun(server, 50);
  await waitUntilEnded(server, warm.id);
  await download(server, warm.id);
  const heapBefore = await inspector.heapAfterGc();
  const rssBefore = residentMemory(server.pid).rss;

  const started = performance.now();
  const { id } = await createRun(server, NODES, 0, 14);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, residentMemory(server.pid).rss);
  }, 100);
  const events = await waitUntilEnded(server, id);
  clearInterval(sampler);
  const runSeconds = (performance.now() - started) / 1000;
  // the kernel's high-water mark catches a peak between two samples
  rssPeak = Math.max(rssPeak, residentMemory(server.pid).peak);
  const heapAfter = await inspector.heapAfterGc();
  const rssAfter = residentMemory(server.pid).rss;
  const snapshotFile = process.env.BENCH_SERVER_HEAPSNAPSHOT;
  if (snapshotFile) await inspector.writeHeapSnapshot(snapshotFile);

  const log = await download(server, id);
  const again = await download(server, id);
  // the same log as a follower gets it (follow on an ended run: the table's pages, then the end), in this run
  const asEvents = await download(server, id, '?follow=1');
  const rate = (d: { bytes: number; seconds: number }) => d.bytes / MB / d.seconds;
  const heapAfterDownloads = await inspector.heapAfterGc();

  const mb = (bytes: number) => (bytes / MB).toFixed(1).padStart(8);
  console.log(
    `\nmemory of the server (pid ${server.pid}) around one run of ${events} events (${runSeconds.toFixed(1)} s)`,
  );
  console.log('                                        heap MB   RSS MB');
  console.log(`before (after a warm-up run)          ${mb(heapBefore)} ${mb(rssBefore)}`);
  console.log(`at the run's peak                     ${' '.repeat(8)} ${mb(rssPeak)}`);
  console.log(`after the run, collected              ${mb(heapAfter)} ${mb(rssAfter)}`);
  console.log(`after three downloads of its log      ${mb(heapAfterDownloads)} ${mb(residentMemory(server.pid).rss)}`);
  console.log(`\nevents.ndjson of that run on the same server: ${(log.bytes / MB).toFixed(1)} MB`);
  console.log(`  first download  ${log.seconds.toFixed(2)} s  ${rate(log).toFixed(1)} MB/s`);
  console.log(`  second download ${again.seconds.toFixed(2)} s  ${rate(again).toFixed(1)} MB/s`);
  console.log(
    `  as a follower (?follow=1, ${(asEvents.bytes / MB).toFixed(1)} MB) ${asEvents.seconds.toFixed(2)} s  ${rate(asEvents).toFixed(1)} MB/s`,
  );
  console.log(
    `  (check from outside: curl -s -o /dev/null -w '%{size_download} %{speed_download}\\n' ${server.base}/api/runs/${id}/events.ndjson)`,
  );
  const events100k = `a ${Math.round(events / 1000)}k-event run`;
  reportFigures('server', [
    {
      name: `heap after ${events100k} - heap before`,
      value: (heapAfter - heapBefore) / MB,
      unit: 'MB',
      goal: { op: '<=', value: 50 },
      note: `${(heapBefore / MB).toFixed(0)} -> ${(heapAfter / MB).toFixed(0)} MB, after full GC`,
    },
    { name: 'server RSS before', value: rssBefore / MB, unit: 'MB' },
    { name: `server RSS at peak of ${events100k}`, value: rssPeak / MB, unit: 'MB' },
    { name: 'server RSS after', value: rssAfter / MB, unit: 'MB' },
    {
      name: `events.ndjson of ${events100k} on the server that produced it`,
      value: rate(log),
      unit: 'MB/s',
      goal: { op: '>', value: 40 },
      note: `second download ${rate(again).toFixed(1)} MB/s`,
    },
    { name: `events.ndjson size of ${events100k}`, value: log.bytes / MB, unit: 'MB' },
  ]);
}

/** Follows one run for `windowMs`; returns the achieved event rate and the latencies. */
async function measure(server: BenchServer, latencyMs: number, windowMs: number) {
  const { id } = await createRun(server, 100_000, latencyMs);
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
  console.log('');
  await benchWritePath();

  ensureBuild('the latency benchmark');
  const server = await startBenchServer(PORT, {}, [`--inspect=127.0.0.1:${INSPECT_PORT}`]);
  const inspector = await Inspector.connect(INSPECT_PORT);
  try {
    await memory(server, inspector);
    console.log('\nevent -> subscribed client over HTTP (next start, loopback)');
    console.log('target ev/s   achieved ev/s   model latency   events    p50 ms   p95 ms   max ms');
    for (const target of [100, 1_000]) {
      const r = await latencyAt(server, target);
      console.log(
        `${String(target).padStart(10)} ${r.rate.toFixed(0).padStart(15)} ${`${r.latencyMs} ms`.padStart(15)} ${String(r.latencies.length).padStart(8)} ${String(percentile(r.latencies, 50)).padStart(9)} ${String(percentile(r.latencies, 95)).padStart(8)} ${String(r.latencies.at(-1)).padStart(8)}`,
      );
    }
  } finally {
    inspector.close();
    server.stop();
  }
}

void main();
