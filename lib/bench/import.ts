/**
 * `npm run bench:import`: does a big import stall the server? Figures printed, never asserted.
 * Builds a ~48 MB Tree-of-Thoughts log (the paper authors' 5 GPT-4 games from shared data, repeated, with running
 * token totals that keep rising, just under the 50 MB import limit), starts the real production server (next start,
 * its own port and SQLite file, lib/harness), and measures run.list latency: a real tRPC HTTP GET every ~50 ms,
 * first idle, then while the log is POSTed to /api/runs/import. Prints p50/p95/max of both, the import's own wall
 * time and how many runs it stored. Target (printed, not asserted): p95 under 100 ms during the import.
 * BENCH_IMPORT_MB sets the file's size, BENCH_PORT the server's port (default 3141).
 * Not a test; builds the app first if there is no build.
 */
import os from 'node:os';
import { sleep } from '../contract/sleep';
import { type BenchServer, bigTotLog, ensureBuild, startBenchServer } from '../harness/index';
import { percentile } from './percentile';

const PORT = Number(process.env.BENCH_PORT ?? 3141);
const TARGET_MB = Number(process.env.BENCH_IMPORT_MB ?? 48);
const LIST_EVERY_MS = 50;
const IDLE_MS = 5_000;

/** run.list's first page over HTTP, timed, every LIST_EVERY_MS until `until` resolves; the latencies in ms. */
async function pollList(server: BenchServer, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const url = `${server.base}/api/trpc/run.list?input=${encodeURIComponent(JSON.stringify({ json: { limit: 50 } }))}`;
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`run.list answered ${res.status}`);
    const took = performance.now() - started;
    latencies.push(took);
    await sleep(Math.max(0, LIST_EVERY_MS - took));
  }
  return latencies;
}

function line(label: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (p: number) => `${percentile(sorted, p).toFixed(1)} ms`;
  return `${label.padEnd(22)} n=${String(sorted.length).padStart(4)}  p50 ${ms(50)}  p95 ${ms(95)}  max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
}

async function main() {
  ensureBuild('bench:import');
  const body = bigTotLog(TARGET_MB);
  const mb = (Buffer.byteLength(body) / (1024 * 1024)).toFixed(1);
  console.log(`\nbench:import — ${os.cpus().length} cores, a ${mb} MB ToT log, run.list every ${LIST_EVERY_MS} ms`);
  const server = await startBenchServer(PORT);
  try {
    // warm the route and the list once, then measure idle
    await server.query('run.list', { limit: 50 });
    const idle = await pollList(server, sleep(IDLE_MS));
    console.log(line('run.list idle', idle));

    const started = performance.now();
    const importing = fetch(`${server.base}/api/runs/import?name=bench.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { runs?: unknown[]; error?: string } }));
    const during = await pollList(server, importing);
    const result = await importing;
    const wall = (performance.now() - started) / 1000;
    console.log(line('run.list during import', during));
    console.log(
      `import: HTTP ${result.status}, ${result.body.runs?.length ?? 0} runs in ${wall.toFixed(1)} s` +
        (result.body.error ? ` (${result.body.error})` : ''),
    );
    const p95 = percentile(
      [...during].sort((a, b) => a - b),
      95,
    );
    console.log(
      `target: run.list p95 < 100 ms during the import — ${p95 < 100 ? 'met' : 'not met'} (${p95.toFixed(1)} ms)`,
    );
  } finally {
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
