/**
 * `npm run bench:sdk`: the TypeScript SDK's figures on the production server (next start, its own port and SQLite
 * file, lib/harness), printed, never asserted.
 * 1. Items per second through the SDK: a program calls run.node() for BENCH_SDK_ITEMS nodes (default 20,000) as fast
 *    as it can, then finish(); from the first call to finish() resolved (everything stored), with the default batching
 *    (200 items or 250 ms) and with batches of 1,000.
 * 2. Latency from run.node() to the node on a watching page (its header's node count; headless Chromium, one machine, one clock), with the
 *    default flush interval (250 ms: what batching costs a live viewer) and with 20 ms. p50, p95, max.
 * 3. Steering round trip: a person's prune (the tRPC mutation the page sends) until the SDK has applied it in the
 *    program (built-in handling, long poll), and until its acknowledgement is stored. p50, p95, max.
 * BENCH_PORT sets the server's port (default 3145). Not a test; builds the app first if there is no build.
 * Not responsible for the ingest API's own figures over raw HTTP (bench:ingest).
 */
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ensureBuild, findChromium, startBenchServer } from '../harness/index';
import { Arborist, BUILTIN_COMMANDS, type ArboristRun } from '../sdk/index';
import { percentile } from './percentile';

const PORT = Number(process.env.BENCH_PORT ?? 3145);
const ITEMS = Number(process.env.BENCH_SDK_ITEMS ?? 20_000);
const PROBES = 30;
const PRUNES = 20;

function grow(run: ArboristRun, count: number): void {
  run.node('n0', null);
  for (let i = 1; i < count; i++) {
    run.node(`n${i}`, `n${Math.floor((i - 1) / 4)}`, {
      thought: `step ${i}: combine two numbers of the state and carry on`,
      score: (i % 10) / 10,
    });
  }
}

async function throughput(base: string, batchSize?: number) {
  // a burst of calls faster than any server: the buffer holds all of it (the default 10,000 would drop the rest)
  const run = new Arborist({ server: base, batchSize, maxBufferedItems: ITEMS }).startRun({
    goal: 'sdk throughput',
    task: 'bench',
  });
  const started = performance.now();
  grow(run, ITEMS);
  const callsMs = performance.now() - started;
  const summary = await run.finish({ timeoutMs: 600_000 });
  const seconds = (performance.now() - started) / 1000;
  if (!summary.finished || summary.stats.dropped > 0) {
    throw new Error(`the run did not finish whole: ${JSON.stringify(summary.stats)}`);
  }
  return { seconds, callsMs, stats: summary.stats };
}

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50)} ms   p95 ${percentile(sorted, 95)} ms   max ${sorted.at(-1)} ms`;
};

async function pageLatency(base: string, flushIntervalMs: number): Promise<number[]> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
  const run = new Arborist({ server: base, flushIntervalMs }).startRun({ goal: 'sdk latency', task: 'bench' });
  run.node('root', null);
  const info = await run.ready;
  if (!info) throw new Error('the server did not create the run');
  await run.flush();
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const latencies: number[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(info.url);
    await page.getByTestId('thought-node').first().waitFor();
    for (let i = 0; i < PROBES; i++) {
      // the header's node count: the page's store has the node (a long chain's cards leave the DOM at far zoom)
      const seen = page.waitForFunction(
        (count) =>
          document.querySelector('[data-testid="stat-total"]')?.textContent === String(count) ? Date.now() : false,
        i + 1,
        { polling: 'raf', timeout: 30_000 },
      );
      const calledAt = Date.now();
      run.node(`p${i}`, i === 0 ? 'root' : `p${i - 1}`, { thought: `probe ${i}`, score: 0.5 });
      latencies.push(((await (await seen).jsonValue()) as number) - calledAt);
    }
  } finally {
    await browser.close();
    await run.finish();
  }
  return latencies;
}

async function steering(base: string) {
  const applied = new Map<string, number>();
  const run: ArboristRun = new Arborist({ server: base, flushIntervalMs: 20 }).startRun({
    goal: 'sdk steering',
    task: 'bench',
    commands: BUILTIN_COMMANDS,
    onCommand: (command) => {
      run.applyBuiltin(command);
      applied.set(command.nodeId ?? '', Date.now());
    },
  });
  run.node('n0', null);
  for (let i = 1; i <= PRUNES; i++) run.node(`n${i}`, 'n0', { thought: `branch ${i}` }); // siblings: each its own prune
  const info = await run.ready;
  if (!info) throw new Error('the server did not create the run');
  await run.flush();
  const toApplied: number[] = [];
  const toStored: number[] = [];
  for (let i = 1; i <= PRUNES; i++) {
    const nodeId = `n${i}`;
    const sentAt = Date.now();
    const res = await fetch(`${base}/api/trpc/node.prune`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-arborist-actor': 'bench' },
      body: JSON.stringify({ json: { runId: info.runId, nodeId } }),
    });
    if (!res.ok) throw new Error(`prune ${nodeId} failed (${res.status}): ${await res.text()}`);
    while (!applied.has(nodeId)) await new Promise((resolve) => setTimeout(resolve, 1));
    toApplied.push(applied.get(nodeId)! - sentAt);
    await run.flush(); // the ack (and the steer.prune before it) stored
    toStored.push(Date.now() - sentAt);
  }
  await run.finish();
  return { toApplied, toStored };
}

async function main() {
  console.log(`Arborist TypeScript SDK benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  ensureBuild('the SDK benchmark');
  const server = await startBenchServer(PORT);
  try {
    console.log(`${ITEMS} run.node() calls, then finish(): until everything is stored`);
    console.log('batching                     calls ms   seconds     items/s   requests');
    for (const [label, batchSize] of [
      ['default (200 / 250 ms)', undefined],
      ['batches of 1,000', 1_000],
    ] as const) {
      const t = await throughput(server.base, batchSize);
      const requests = Math.ceil(ITEMS / (batchSize ?? 200));
      console.log(
        `${label.padEnd(26)} ${t.callsMs.toFixed(0).padStart(10)} ${t.seconds.toFixed(2).padStart(9)} ` +
          `${(t.stats.sent / t.seconds).toFixed(0).padStart(11)} ${`>=${requests}`.padStart(10)}`,
      );
    }

    console.log(`\nrun.node() -> the node counted on a watching page (Chromium, ${PROBES} nodes one at a time)`);
    for (const interval of [250, 20]) {
      console.log(`flushIntervalMs ${String(interval).padStart(3)}: ${ms(await pageLatency(server.base, interval))}`);
    }

    const s = await steering(server.base);
    console.log(
      `\na person's prune (node.prune mutation) -> applied in the program (${PRUNES} prunes, built-in handling)`,
    );
    console.log(`applied:              ${ms(s.toApplied)}`);
    console.log(`acknowledged, stored: ${ms(s.toStored)}`);
  } finally {
    server.stop();
  }
}

void main();
