/**
 * `npm run bench:cluster`: the team server's figures (issue 15), printed, never asserted. Starts its own PostgreSQL
 * (lib/harness/postgres.ts) and two production instances (next start) on one database.
 * 1. Cross-instance event latency: a client writes into an external run on instance A through the ingest API at a
 *    steady 100 and 1,000 events/s, each item stamped with the time it was sent (the event's ts); followers read the
 *    run's live NDJSON stream from B (the other instance: LISTEN/NOTIFY, then a read from the table) and from A (the
 *    writer's own instance), and note when each event arrives. One machine, one clock. p50/p95 per rate.
 * 2. Failover: a search running on A, followed from B; A is killed with SIGKILL; the time from the kill until B's
 *    stream shows run.resumed (B took the run over and continued it). With the default lease (ARBORIST_LEASE_MS,
 *    15 s) and a short one (3 s): the lease is most of it.
 * 3. Load: 200 runs at once (a simulated model answering in 500 ms, open-goal, 8 nodes each), created half on A and
 *    half on B, each instance running up to 100 at a time: runs finished per minute, and run.list's latency (p50/p95)
 *    polled on both instances during the load.
 * BENCH_CLUSTER_SECONDS sets each latency phase's length (default 8), BENCH_CLUSTER_RUNS the load's run count (200),
 * BENCH_CLUSTER_PARTS which parts run (default `latency,failover,load`).
 * Not a test; builds the app first if there is no build.
 */
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { ExplorationEvent } from '../contract/events';
import type { IngestCreated, IngestOpInput } from '../contract/ingest';
import { sleep } from '../contract/sleep';
import { ensureBuild, freePort, type PostgresCluster, startPostgres, startServer, waitUntilUp } from '../harness/index';
import { percentile } from './percentile';

const PHASE_SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 8);
const LOAD_RUNS = Number(process.env.BENCH_CLUSTER_RUNS ?? 200);
const PARTS = new Set((process.env.BENCH_CLUSTER_PARTS ?? 'latency,failover,load').split(','));
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Instance {
  name: string;
  base: string;
  process: ChildProcess;
}

async function startInstance(name: string, database: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = startServer(
    port,
    { DATABASE_URL: database, ARBORIST_INSTANCE_ID: name, ARBORIST_DEMO: '0', ARBORIST_LOG_FORMAT: 'json', ...env },
    (text) => output.push(text),
  );
  try {
    await waitUntilUp(child, base);
  } catch (error) {
    throw new Error(`instance ${name} did not start: ${output.join('').slice(-2000)}`, { cause: error });
  }
  return { name, base, process: child };
}

async function kill(instance: Instance): Promise<void> {
  if (instance.process.exitCode !== null || instance.process.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.process.once('exit', resolve));
  instance.process.kill('SIGKILL');
  await exited;
}

async function trpc<T>(base: string, path: string, input: unknown, mutation = true): Promise<T> {
  const res = mutation
    ? await fetch(`${base}/api/trpc/${path}`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'x-arborist-actor': 'bench' },
        body: JSON.stringify({ json: input }),
      })
    : await fetch(`${base}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  const body = (await res.json()) as { result?: { data: { json: T } }; error?: { json: { message: string } } };
  if (!res.ok || !body.result) throw new Error(`${path} failed (${res.status}): ${body.error?.json.message ?? ''}`);
  return body.result.data.json;
}

/** Follows a run's live NDJSON stream; calls `onEvent` with each event and the moment it arrived. */
function follow(base: string, runId: string, onEvent: (event: ExplorationEvent, at: number) => void) {
  const controller = new AbortController();
  const done = (async () => {
    const res = await fetch(`${base}/api/runs/${runId}/events.ndjson?follow=1`, { signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`follow failed (${res.status})`);
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const at = Date.now();
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim()) onEvent(JSON.parse(line) as ExplorationEvent, at);
      }
    }
  })().catch((error: unknown) => {
    if ((error as Error).name !== 'AbortError') throw error;
  });
  return { stop: () => controller.abort(), done };
}

async function createExternal(base: string, goal: string): Promise<string> {
  const res = await fetch(`${base}/api/ingest/runs`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ goal, task: 'bench', model: 'scripted', commands: [] }),
  });
  if (res.status !== 201) throw new Error(`create failed (${res.status}): ${await res.text()}`);
  return ((await res.json()) as IngestCreated).runId;
}

/** Node i under node floor((i-1)/4), stamped with the moment it is sent. */
function nodeItem(seq: number, ts: number): IngestOpInput {
  const i = seq - 1;
  if (i === 0) return { seq, op: 'node', id: 'n0', parent: null, ts };
  return { seq, op: 'node', id: `n${i}`, parent: `n${Math.floor((i - 1) / 4)}`, thought: `step ${i}`, score: 0.5, ts };
}

/** Writes `rate` events/s for PHASE_SECONDS into a new external run on `writer`; latencies seen by each follower. */
async function latencyAt(rate: number, writer: Instance, followers: Instance[]) {
  const runId = await createExternal(writer.base, `latency at ${rate}/s`);
  const latencies = new Map(followers.map((f) => [f.name, [] as number[]]));
  const streams = followers.map((f) =>
    follow(f.base, runId, (event, at) => {
      if (event.type === 'node.created') latencies.get(f.name)?.push(at - event.ts);
    }),
  );
  await sleep(500); // the followers are attached
  const tickMs = 50;
  const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
  const ticks = Math.round((PHASE_SECONDS * 1000) / tickMs);
  const start = performance.now();
  let seq = 1;
  for (let tick = 0; tick < ticks; tick++) {
    const ts = Date.now();
    const items = Array.from({ length: perTick }, () => nodeItem(seq++, ts));
    const res = await fetch(`${writer.base}/api/ingest/runs/${runId}/events`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(items),
    });
    if (!res.ok) throw new Error(`append failed (${res.status}): ${await res.text()}`);
    const wait = start + (tick + 1) * tickMs - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const sent = seq - 1;
  const achieved = sent / ((performance.now() - start) / 1000);
  for (let i = 0; i < 100 && followers.some((f) => (latencies.get(f.name)?.length ?? 0) < sent); i++) await sleep(100);
  for (const stream of streams) stream.stop();
  return { sent, achieved, latencies };
}

async function failover(database: string, env: Record<string, string>): Promise<number> {
  const a = await startInstance('fail-a', database, env);
  let b: Instance | null = null;
  try {
    // created while A is the only instance, so A claims it
    const { id } = await trpc<{ id: string }>(a.base, 'run.create', {
      taskId: 'open-goal',
      goal: 'Plan the failover drill of a team server',
      config: { maxTotalNodes: 400, maxDepth: 6, terminationConfidence: 1 },
      model: { provider: 'simulated', seed: 11, latencyMs: 100 },
    });
    b = await startInstance('fail-b', database, env);
    let resumedAt = 0;
    let events = 0;
    const stream = follow(b.base, id, (event, at) => {
      events++;
      if (event.type === 'run.resumed' && !resumedAt) resumedAt = at;
    });
    while (events < 30) await sleep(50); // B's stream follows A's search

    const killedAt = Date.now();
    await kill(a);
    while (!resumedAt) await sleep(20);
    stream.stop();
    await trpc(b.base, 'run.abort', { id }).catch(() => undefined);
    return resumedAt - killedAt;
  } finally {
    await kill(a);
    if (b) await kill(b);
  }
}

async function load(database: string) {
  const env = { ARBORIST_MAX_CONCURRENT_RUNS: '100' };
  const a = await startInstance('load-a', database, env);
  const b = await startInstance('load-b', database, env);
  try {
    const listLatencies: number[] = [];
    let loading = true;
    const poller = (async () => {
      for (let i = 0; loading; i++) {
        const base = i % 2 === 0 ? a.base : b.base;
        const started = performance.now();
        await trpc(base, 'run.list', { limit: 50 }, false);
        listLatencies.push(performance.now() - started);
        await sleep(200);
      }
    })();
    const started = performance.now();
    // created 20 at a time, as a team's people and scripts would, half on each instance
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = next++; i < LOAD_RUNS; i = next++) {
          const { id } = await trpc<{ id: string }>(i % 2 === 0 ? a.base : b.base, 'run.create', {
            taskId: 'open-goal',
            goal: `Load run ${i}: plan a small change`,
            config: { maxTotalNodes: 8, maxDepth: 3, terminationConfidence: 1 },
            model: { provider: 'simulated', seed: i + 1, latencyMs: 500 },
          });
          ids.push(id);
        }
      }),
    );
    const createdSeconds = (performance.now() - started) / 1000;
    const open = async (status: string) =>
      (await trpc<{ items: unknown[] }>(a.base, 'run.list', { limit: 1, status }, false)).items.length;
    while ((await open('queued')) + (await open('running')) > 0) await sleep(500);
    const seconds = (performance.now() - started) / 1000;
    loading = false;
    await poller;
    const statuses = new Map<string, number>();
    for (const id of ids) {
      const { status } = await trpc<{ status: string }>(a.base, 'run.byId', { id }, false);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    return { seconds, createdSeconds, statuses, listLatencies: listLatencies.sort((x, y) => x - y) };
  } finally {
    await kill(a);
    await kill(b);
  }
}

async function main() {
  console.log(`Arborist team server benchmark (node ${process.version}, ${os.cpus().length} cores, PostgreSQL 15)\n`);
  ensureBuild('the team server benchmark');
  const postgres = startPostgres(await freePort());
  const instances: Instance[] = [];
  try {
    if (PARTS.has('latency')) await latencyPart(postgres, instances);
    if (PARTS.has('failover')) await failoverPart(postgres);
    if (PARTS.has('load')) await loadPart(postgres);
  } finally {
    for (const instance of instances) await kill(instance);
    postgres.stop();
  }
}

async function latencyPart(postgres: PostgresCluster, instances: Instance[]) {
  const latencyDb = await postgres.createDatabase('latency');
  instances.push(await startInstance('a', latencyDb, {}), await startInstance('b', latencyDb, {}));
  const [a, b] = instances as [Instance, Instance];
  console.log(`1. event latency, written on A through the ingest API, each phase ${PHASE_SECONDS} s`);
  console.log('rate (events/s)   achieved   follower           p50 ms   p95 ms   received');
  for (const rate of [100, 1000]) {
    const { sent, achieved, latencies } = await latencyAt(rate, a, [b, a]);
    for (const [name, values] of latencies) {
      values.sort((x, y) => x - y);
      const who = name === 'b' ? 'B (other instance)' : 'A (same instance)';
      console.log(
        `${String(rate).padStart(15)} ${achieved.toFixed(0).padStart(10)}   ${who.padEnd(18)} ${String(percentile(values, 50)).padStart(6)} ${String(percentile(values, 95)).padStart(8)}   ${values.length}/${sent}`,
      );
    }
  }
  for (const instance of instances) await kill(instance);
}

async function failoverPart(postgres: PostgresCluster) {
  console.log('\n2. failover: kill -9 of the instance running a search -> run.resumed on the other');
  for (const [label, env] of [
    ['default lease (15 s, heartbeat 5 s)', {}],
    ['short lease (3 s, heartbeat 1 s)', { ARBORIST_LEASE_MS: '3000', ARBORIST_HEARTBEAT_MS: '1000' }],
  ] as const) {
    const ms = await failover(await postgres.createDatabase(`failover_${label.split(' ')[0]}`), env);
    console.log(`${label.padEnd(38)} ${(ms / 1000).toFixed(2)} s`);
  }
}

async function loadPart(postgres: PostgresCluster) {
  console.log(`\n3. load: ${LOAD_RUNS} runs (simulated model, 500 ms per call, 8 nodes each) across two instances`);
  const result = await load(await postgres.createDatabase('load'));
  console.log(`created in ${result.createdSeconds.toFixed(1)} s; all ended after ${result.seconds.toFixed(1)} s`);
  console.log(`statuses: ${[...result.statuses].map(([s, n]) => `${n} ${s}`).join(', ')}`);
  console.log(`runs finished per minute: ${((LOAD_RUNS / result.seconds) * 60).toFixed(0)}`);
  const l = result.listLatencies;
  console.log(
    `run.list (50 rows) during the load: p50 ${percentile(l, 50).toFixed(0)} ms, p95 ${percentile(l, 95).toFixed(0)} ms (${l.length} calls)`,
  );
}

void main();
