/**
 * `npm run bench:ingest`: the ingest API's figures, printed, never asserted.
 * 1. Events per second into an external run over HTTP: a client (real fetch) creates a run on the production server
 *    (next start, its own port and SQLite file, lib/harness) and sends node operations in batches of 500, each batch
 *    checked, folded and written in one transaction by the server; beside it, the internal append path: what the
 *    run manager's writer does with an engine's batch (fold, then events, node projection and run summary in one
 *    transaction: writeFoldedBatch), storing the very same events into another run of the same database, in batches
 *    of 500, in this process. The difference is what the ingest API adds: HTTP, JSON, validation, operations turned
 *    into events, the per-item retry records and the fold check. A third run takes the same items with 50 breakpoints
 *    that never hit (text patterns on every thought, plain and regular expressions, and score bounds): the cost of
 *    judging each event against the run's breakpoints (lib/server/ingest judges a client's events as it folds them).
 * 2. Latency from a client's send to the event on a watching page: headless Chromium open on /runs/<id>; the client
 *    fetches a batch of one new node, and the page's own clock notes when that node's card is in the DOM (one machine,
 *    one clock). p50, p95, max.
 * BENCH_INGEST_ITEMS sets how many items part 1 sends (default 20,000), BENCH_PORT the server's port (default 3141).
 * Not a test; builds the app first if there is no build.
 */
import os from 'node:os';
import { chromium } from 'playwright-core';
import type { Breakpoint } from '../contract/breakpoints';
import type { IngestAppended, IngestCreated, IngestOpInput } from '../contract/ingest';
import { CHROMIUM_ARGS, ensureBuild, findChromium, startBenchServer } from '../harness/index';
import {
  createPrismaClient,
  createRun,
  EventBus,
  foldTouched,
  listEvents,
  RunLog,
  silentLogger,
} from '../server/bench';
import { createEmptyTree, DEFAULT_TOT_CONFIG } from '../engine/index';
import { percentile } from './percentile';

const PORT = Number(process.env.BENCH_PORT ?? 3141);
const ITEMS = Number(process.env.BENCH_INGEST_ITEMS ?? 20_000);
const BATCH = 500;
const PROBES = 40;

const JSON_HEADERS = { 'content-type': 'application/json' };

async function createExternal(base: string, goal: string, breakpoints: Breakpoint[] = []): Promise<string> {
  const res = await fetch(`${base}/api/ingest/runs`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      goal,
      task: 'bench',
      model: 'scripted',
      commands: ['prune', 'pause'],
      ...(breakpoints.length > 0 && { breakpoints }),
    }),
  });
  if (res.status !== 201) throw new Error(`create failed (${res.status}): ${await res.text()}`);
  return ((await res.json()) as IngestCreated).runId;
}

async function send(base: string, runId: string, items: IngestOpInput[]): Promise<IngestAppended> {
  const res = await fetch(`${base}/api/ingest/runs/${runId}/events`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify(items),
  });
  if (!res.ok) throw new Error(`append failed (${res.status}): ${await res.text()}`);
  return (await res.json()) as IngestAppended;
}

/** A bushy tree: node i under node floor((i-1)/4), each with a short thought and a score. */
function nodeItem(seq: number): IngestOpInput {
  const i = seq - 1;
  if (i === 0) return { seq, op: 'node', id: 'n0', parent: null };
  return {
    seq,
    op: 'node',
    id: `n${i}`,
    parent: `n${Math.floor((i - 1) / 4)}`,
    thought: `step ${i}: combine two numbers of the state and carry on`,
    score: (i % 10) / 10,
  };
}

/** 50 breakpoints no event of the bench satisfies, judged against every event: the most a run may hold. */
function idleBreakpoints(): Breakpoint[] {
  return Array.from({ length: 50 }, (_, i): Breakpoint => {
    const id = `b${i}`;
    if (i % 5 === 0) return { id, enabled: true, condition: { kind: 'score-below', value: -1 } };
    if (i % 5 === 1) return { id, enabled: true, condition: { kind: 'score-above', value: 2 } };
    const regex = i % 2 === 0;
    const pattern = regex ? `carry on ${i}\\d+$` : `never said ${i}`;
    return {
      id,
      enabled: true,
      condition: { kind: 'text-match', field: 'thought', pattern, regex, caseSensitive: false },
    };
  });
}

/** Seconds to send ITEMS node operations in batches into a new external run. */
async function sendAll(base: string, runId: string): Promise<number> {
  const started = performance.now();
  for (let first = 1; first <= ITEMS; first += BATCH) {
    const items = Array.from({ length: Math.min(BATCH, ITEMS - first + 1) }, (_, i) => nodeItem(first + i));
    await send(base, runId, items);
  }
  return (performance.now() - started) / 1000;
}

async function throughput(base: string, databaseFile: string) {
  const runId = await createExternal(base, 'ingest throughput');
  const httpSeconds = await sendAll(base, runId);
  const judged = await createExternal(base, 'ingest throughput, 50 breakpoints', idleBreakpoints());
  const breakpointSeconds = await sendAll(base, judged);

  // the same events, through the internal append path, into another run of the same database
  const prisma = createPrismaClient(databaseFile);
  try {
    // the whole log (run.queued and run.started too, so the copy folds as the run did); the figure counts the rest
    const all = await listEvents(prisma, runId);
    const events = all.slice(2);
    const copyId = `${runId}-internal`;
    await createRun(prisma, {
      id: copyId,
      taskId: 'bench',
      goal: 'internal append',
      modelId: 'scripted',
      modelLabel: 'scripted',
      config: DEFAULT_TOT_CONFIG,
    });
    const renumbered = all.map((e) => ({ ...e, runId: copyId }));
    const tree = createEmptyTree(copyId);
    const runLog = new RunLog({ prisma, bus: new EventBus(), log: silentLogger });
    const internalStart = performance.now();
    for (let start = 0; start < renumbered.length; start += BATCH) {
      const batch = renumbered.slice(start, start + BATCH);
      const nodes = foldTouched(tree, batch);
      await runLog.commit(copyId, tree, batch, nodes);
    }
    const internalSeconds = (performance.now() - internalStart) / 1000;
    return { events: events.length, httpSeconds, breakpointSeconds, internalSeconds };
  } finally {
    await prisma.$disconnect();
  }
}

/** Probes per watched run: a chain this deep stays in a 1280x720 view (the canvas draws only what is in view). */
const PROBES_PER_RUN = 5;

async function pageLatency(base: string): Promise<number[]> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const latencies: number[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    for (let round = 0; latencies.length < PROBES; round++) {
      const runId = await createExternal(base, `ingest latency ${round}`);
      await send(base, runId, [{ seq: 1, op: 'node', id: 'root', parent: null }]);
      await page.goto(`${base}/runs/${runId}`);
      await page.getByTestId('thought-node').first().waitFor();
      for (let i = 0; i < PROBES_PER_RUN && latencies.length < PROBES; i++) {
        const text = `probe ${round}.${i} of the latency bench`;
        // the page notes, by its own clock, when the card is in the DOM; the client notes when it sent
        const seen = page.waitForFunction(
          (wanted) =>
            [...document.querySelectorAll('[data-testid="thought-node"]')].some((n) => n.textContent?.includes(wanted))
              ? Date.now()
              : false,
          text,
          { polling: 'raf', timeout: 30_000 },
        );
        const sentAt = Date.now();
        // each probe under the last, so the newest node is where a follower of the run looks
        await send(base, runId, [
          { seq: i + 2, op: 'node', id: `p${i}`, parent: i === 0 ? 'root' : `p${i - 1}`, thought: text, score: 0.5 },
        ]);
        const shownAt = (await (await seen).jsonValue()) as number;
        latencies.push(shownAt - sentAt);
      }
    }
  } finally {
    await browser.close();
  }
  return latencies.sort((a, b) => a - b);
}

async function main() {
  console.log(`Arborist ingest benchmark (node ${process.version}, ${os.cpus().length} cores)\n`);
  ensureBuild('the ingest benchmark');
  const server = await startBenchServer(PORT);
  try {
    const t = await throughput(server.base, server.databaseFile);
    console.log(`events into one run, batches of ${BATCH} (${t.events} events)`);
    console.log('path                               seconds     events/s');
    const row = (name: string, seconds: number) =>
      console.log(
        `${name.padEnd(32)} ${seconds.toFixed(2).padStart(9)} ${(t.events / seconds).toFixed(0).padStart(12)}`,
      );
    row('HTTP (ingest API, node ops)', t.httpSeconds);
    row('HTTP, 50 breakpoints judged', t.breakpointSeconds);
    row('internal (run manager writer)', t.internalSeconds);
    console.log(`ratio HTTP / internal: ${(t.internalSeconds / t.httpSeconds).toFixed(2)}`);

    const latencies = await pageLatency(server.base);
    console.log(`\nclient send -> node on a watching page (Chromium, ${latencies.length} sends of one node)`);
    console.log(
      `p50 ${percentile(latencies, 50)} ms   p95 ${percentile(latencies, 95)} ms   max ${latencies.at(-1)} ms`,
    );
  } finally {
    server.stop();
  }
}

void main();
