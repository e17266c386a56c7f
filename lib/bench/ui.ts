/**
 * `npm run bench:ui`: the run page's figures in a real browser, printed, never asserted.
 * 1. Loading a recorded run of about 1,000 nodes: navigation start -> first node card painted, and -> every card of
 *    the final tree rendered by React Flow (as many [data-testid=thought-node] as the tidy layout places, all
 *    visible, or the count stopped changing), over 5 fresh pages; median and max.
 * 2. Frame times while dragging the canvas of that run for 3 s (1440x900): median, p95, max, frames over 50 ms.
 * 3. Frame times for 5 s while a live run adds about 50 nodes per second (the simulated model's latency calibrated
 *    to that rate against the node.created events of /api/runs/<id>/events.ndjson?follow=1).
 * Times are taken inside the page (performance.now(), a requestAnimationFrame loop installed by addInitScript).
 * The production server (next start) runs on port 3600 with its own temp database; the browser is headless
 * Chromium (CHROMIUM_PATH or /usr/bin/chromium) with --disable-gpu, so it rasterises in software and shares the
 * machine's cores with the server. BENCH_UI_PROFILE=<dir> adds one more pass of each (load, pan, live) under a
 * Chromium performance trace and a V8 CPU profile, writes them there and prints where the time went.
 * Not a test; builds the app first if there is no build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { ExplorationEvent } from '../engine/events';
import { fold } from '../engine/tree';
import type { RunRecord } from '../server/repositories/runs';
import { type BenchServer, ensureBuild, percentile, startBenchServer } from './server-process';
import {
  TRACE_CATEGORIES,
  installRenderCounter,
  summariseCpuProfile,
  summariseRenders,
  summariseTrace,
} from './ui-profile';
import { CHROMIUM_ARGS, findChromium } from '../../e2e/chromium';

const PORT = Number(process.env.BENCH_UI_PORT ?? 3600);
const VIEWPORT = { width: 1440, height: 900 };
const LOADS = 5;
const PAN_MS = 3_000;
const LIVE_MS = 5_000;
const LIVE_TARGET_NODES_PER_S = 50;
/**
 * maxTotalNodes caps the nodes *executed*. A beam search of this config grows whole levels (765 nodes, then 1,533),
 * so the recorded run searches best-first, which grows about two nodes per executed one: 510 make ~1,000.
 */
const RECORDED = { maxTotalNodes: 510, explorationStrategy: 'best-first' } as const;
const GOAL = 'Reduce the p99 latency of the checkout API';
const CONFIG = { maxDepth: 12, terminationConfidence: 1, confidenceThreshold: 0 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// In the page

interface PageBench {
  /** Events the run has: the tree is complete when the timeline says all of them are applied (0: first card only). */
  expected: number;
  watchLoad: boolean;
  firstCard: number | null;
  allCards: number | null;
  count: number;
  lastChange: number;
  recording: boolean;
  prevFrame: number;
  frames: number[];
  transform: string;
  transformChanges: number;
  /** Recorded frames that began with some node hidden by React Flow (it hides a node until it has measured it). */
  hiddenFrames: number;
  longTasks: { start: number; duration: number }[];
}

declare global {
  interface Window {
    __bench: PageBench;
  }
}

/** Installed before any page script: one requestAnimationFrame loop that watches the cards and records frames. */
function installPageBench(expected: number) {
  const b: PageBench = {
    expected,
    watchLoad: true,
    firstCard: null,
    allCards: null,
    count: 0,
    lastChange: 0,
    recording: false,
    prevFrame: 0,
    frames: [],
    transform: '',
    transformChanges: 0,
    hiddenFrames: 0,
    longTasks: [],
  };
  window.__bench = b;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing
  }
  // React Flow renders a node hidden until it has measured it: a card counts once its wrapper is visible.
  const visible = (card: Element) =>
    (card.closest('.react-flow__node') as HTMLElement | null)?.style.visibility !== 'hidden';
  const tick = (t: number) => {
    if (b.recording) {
      if (b.prevFrame) b.frames.push(t - b.prevFrame);
      b.prevFrame = t;
      const viewport = document.querySelector('.react-flow__viewport') as HTMLElement | null;
      const transform = viewport?.style.transform ?? '';
      if (transform !== b.transform) {
        b.transform = transform;
        b.transformChanges++;
      }
      if (document.querySelector('.react-flow__node[style*="visibility: hidden"]')) b.hiddenFrames++;
    }
    if (b.watchLoad) {
      const now = performance.now();
      const cards = document.querySelectorAll('[data-testid="thought-node"]');
      if (cards.length !== b.count) {
        b.count = cards.length;
        b.lastChange = now;
      }
      if (b.firstCard === null) {
        for (const card of cards) {
          if (visible(card)) {
            b.firstCard = now;
            break;
          }
        }
      }
      // the canvas renders only the cards in view: the run is drawn when every event is applied and those are shown
      const position = document.querySelector('[data-testid="timeline-position"]')?.textContent ?? '';
      if (
        b.firstCard !== null &&
        b.expected > 0 &&
        position.replace(/\s+/g, ' ').includes(`step ${b.expected} / ${b.expected}`)
      ) {
        let all = true;
        for (const card of cards) {
          if (!visible(card)) {
            all = false;
            break;
          }
        }
        if (all) {
          b.allCards = now;
          b.watchLoad = false;
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function startRecording(page: Page) {
  await page.evaluate(() => {
    const b = window.__bench;
    b.frames = [];
    b.prevFrame = 0;
    b.transformChanges = 0;
    b.hiddenFrames = 0;
    b.transform = (document.querySelector('.react-flow__viewport') as HTMLElement | null)?.style.transform ?? '';
    b.recording = true;
  });
}

async function stopRecording(page: Page) {
  return page.evaluate(() => {
    const b = window.__bench;
    b.recording = false;
    return { frames: b.frames.slice(), transformChanges: b.transformChanges, hiddenFrames: b.hiddenFrames };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Figures

interface FrameStats {
  frames: number;
  median: number;
  p95: number;
  max: number;
  long: number;
}

const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);

function frameStats(deltas: number[]): FrameStats {
  const sorted = ascending(deltas);
  return {
    frames: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? NaN,
    long: sorted.filter((d) => d > 50).length,
  };
}

const median = (xs: number[]) => percentile(ascending(xs), 50);
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '-');
const ms1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

// ---------------------------------------------------------------------------------------------------------------
// The server side: runs and their events

async function readEvents(server: BenchServer, runId: string): Promise<ExplorationEvent[]> {
  const res = await fetch(`${server.base}/api/runs/${runId}/events.ndjson`);
  if (!res.ok) throw new Error(`events.ndjson failed (${res.status})`);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExplorationEvent);
}

async function waitFinished(server: BenchServer, runId: string, timeoutMs: number): Promise<RunRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await server.query<RunRecord>('run.byId', { id: runId });
    if (run.status === 'finished' || run.status === 'failed') return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await sleep(250);
  }
}

/**
 * Follows a run's live events over HTTP and keeps the timestamp of every node.created. `count(from, to)` counts
 * those that fall in [from, to] (Date.now() times: one machine, one clock).
 */
function followNodes(server: BenchServer, runId: string) {
  const created: number[] = [];
  let started = 0;
  const controller = new AbortController();
  const done = (async () => {
    const res = await fetch(`${server.base}/api/runs/${runId}/events.ndjson?follow=1`, { signal: controller.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const event = JSON.parse(line) as ExplorationEvent;
        if (event.type === 'run.started') started = event.ts;
        if (event.type === 'node.created') created.push(event.ts);
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    started: () => started,
    count: (from: number, to: number) => created.filter((t) => t >= from && t <= to).length,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

async function createRun(
  server: BenchServer,
  config: { maxTotalNodes: number; explorationStrategy?: string },
  latencyMs: number,
): Promise<string> {
  const { id } = await server.post<{ id: string }>('run.create', {
    taskId: 'open-goal',
    goal: GOAL,
    config: { ...CONFIG, ...config },
    model: { provider: 'simulated', seed: 11, latencyMs },
  });
  return id;
}

// ---------------------------------------------------------------------------------------------------------------
// The browser side

/** Set when the page's canvas slot has no height of its own (see canvasHeight). */
let canvasStyle: string | null = null;
const CANVAS_FALLBACK_STYLE = '.run-canvas { position: absolute; inset: 0; }';

async function openPage(browser: Browser, url: string, expected: number) {
  const opened = await newPage(browser, expected);
  await opened.page.goto(url, { waitUntil: 'commit' });
  return opened;
}

async function newPage(browser: Browser, expected: number, countRenders = false) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  // as source text: tsx names functions through an __name helper that the page does not have
  await page.addInitScript({ content: `var __name = (f) => f;\n(${installPageBench.toString()})(${expected});` });
  if (countRenders)
    await page.addInitScript({ content: `var __name = (f) => f;\n(${installRenderCounter.toString()})();` });
  if (canvasStyle) {
    // into <head> as soon as it exists (hydration removes anything else added to <html>)
    const css = JSON.stringify(canvasStyle);
    await page.addInitScript({
      content: `{ const s = document.createElement('style'); s.textContent = ${css};
        const put = () => (document.head ? (document.head.append(s), true) : false);
        if (!put()) { const o = new MutationObserver(() => put() && o.disconnect()); o.observe(document, { childList: true, subtree: true }); } }`,
    });
  }
  return { context, page };
}

/** The height of React Flow's box on the run page once a card is there (0: the canvas has no room). */
async function canvasHeight(browser: Browser, url: string): Promise<number> {
  const { context, page } = await openPage(browser, url, 0);
  try {
    await page.waitForSelector('[data-testid="thought-node"]', { state: 'attached', timeout: 120_000 });
    return await page.evaluate(() => document.querySelector('.react-flow')?.clientHeight ?? 0);
  } finally {
    await context.close();
  }
}

/** Waits until every card is there and visible, or the count has not changed for 10 s. */
async function waitLoaded(page: Page) {
  await page.waitForFunction(
    () => {
      const b = window.__bench;
      return b.allCards !== null || (b.count > 0 && performance.now() - b.lastChange > 10_000);
    },
    null,
    { timeout: 180_000, polling: 200 },
  );
  return page.evaluate(() => {
    const b = window.__bench;
    const end = b.allCards ?? b.lastChange;
    const longTasks = b.longTasks.filter((t) => t.start <= end);
    return {
      firstCard: b.firstCard ?? NaN,
      allCards: b.allCards,
      lastChange: b.lastChange,
      count: b.count,
      longestTask: Math.max(0, ...longTasks.map((t) => t.duration)),
      blocking: longTasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
    };
  });
}

/** A point over the bare pane (no card, edge or control on top) near the middle of the canvas. */
async function panePoint(page: Page): Promise<{ x: number; y: number }> {
  const point = await page.evaluate(() => {
    const pane = document.querySelector('.react-flow__pane');
    if (!pane) return null;
    const r = pane.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    for (let radius = 0; radius < Math.min(r.width, r.height) / 2; radius += 10) {
      for (let a = 0; a < 16; a++) {
        const x = cx + radius * Math.cos((a * Math.PI) / 8);
        const y = cy + radius * Math.sin((a * Math.PI) / 8);
        if (document.elementFromPoint(x, y) === pane) return { x, y };
      }
    }
    return null;
  });
  if (!point) throw new Error('no bare pane to drag');
  return point;
}

/**
 * Drags the pane in a figure of eight for `durationMs`: mouse down, a move every 16 ms, mouse up. The moves go
 * through CDP's Input.dispatchMouseEvent without waiting for each to be handled, as a real mouse keeps moving
 * whatever the page does (Playwright's mouse.move waits, so a slow page would get a few moves a second); the
 * renderer coalesces what piles up to one move per frame.
 */
async function pan(page: Page, durationMs: number, from?: { x: number; y: number }) {
  const { x, y } = from ?? (await panePoint(page));
  const cdp = await page.context().newCDPSession(page);
  const mouse = (type: 'mousePressed' | 'mouseMoved' | 'mouseReleased', px: number, py: number) =>
    cdp.send('Input.dispatchMouseEvent', {
      type,
      x: px,
      y: py,
      button: 'left',
      buttons: type === 'mouseReleased' ? 0 : 1,
      clickCount: type === 'mouseMoved' ? 0 : 1,
    });
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  await mouse('mousePressed', x, y);
  await startRecording(page);
  const t0 = Date.now();
  const sent: Promise<unknown>[] = [];
  let at = { x, y };
  for (let t = 0; t < durationMs; t = Date.now() - t0) {
    const phase = (2 * Math.PI * t) / 1_500;
    at = { x: x + 220 * Math.sin(phase), y: y + 140 * Math.sin(2 * phase) };
    sent.push(mouse('mouseMoved', at.x, at.y));
    await sleep(16 - ((Date.now() - t0) % 16));
  }
  const recorded = await stopRecording(page);
  const seconds = (Date.now() - t0) / 1000;
  await Promise.all(sent);
  await mouse('mouseReleased', at.x, at.y);
  await cdp.detach();
  return { ...recorded, moves: sent.length, seconds };
}

interface Profiling {
  browser: Browser;
  dir: string;
}

/** Runs `work` under a Chromium trace and a V8 CPU profile of the page, writes both and prints their summaries. */
async function profiled<T>(profiling: Profiling, page: Page, name: string, work: () => Promise<T>): Promise<T> {
  await page.evaluate(() => {
    const r = window.__renders;
    if (r) {
      Object.assign(r, { commits: 0, cards: [], cardMounts: [], nodes: [], edges: [] });
      Object.assign(r, { nodeStyleWrites: 0, edgePathWrites: 0 });
    }
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await profiling.browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  const result = await work();
  const windowMs = Date.now() - t0;
  const { profile } = await cdp.send('Profiler.stop');
  const trace = await profiling.browser.stopTracing();
  await cdp.detach();
  writeFileSync(path.join(profiling.dir, `${name}.trace.json`), trace);
  writeFileSync(path.join(profiling.dir, `${name}.cpuprofile`), JSON.stringify(profile));
  summariseTrace(trace, windowMs, `${name}.trace.json`);
  summariseCpuProfile(profile, `${name}.cpuprofile`);
  const { renders, cards } = await page.evaluate(() => ({
    renders: window.__renders,
    cards: document.querySelectorAll('[data-testid="thought-node"]').length,
  }));
  summariseRenders(renders, cards, `${name}: React renders (a DevTools hook counting)`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// The live run

/**
 * Starts a live run with the model at `latency` ms, opens its page at once and, once the first card is painted,
 * records frames for `windowMs` while counting the node.created events of that window.
 */
async function liveRun(
  server: BenchServer,
  browser: Browser,
  latency: number,
  windowMs: number,
  profiling: Profiling | null = null,
) {
  const id = await createRun(server, { maxTotalNodes: 100_000 }, latency);
  const follow = followNodes(server, id);
  const { context, page } = await newPage(browser, 0, profiling !== null);
  try {
    await page.goto(`${server.base}/runs/${id}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__bench.firstCard !== null, null, { timeout: 60_000, polling: 100 });
    const firstCard = await page.evaluate(() => window.__bench.firstCard ?? NaN);
    const cards = () => page.evaluate(() => document.querySelectorAll('[data-testid="thought-node"]').length);
    const cardsBefore = await cards();
    const record = async () => {
      const from = Date.now();
      await startRecording(page);
      await sleep(windowMs);
      const recorded = await stopRecording(page);
      return { from, to: Date.now(), ...recorded };
    };
    const recorded = profiling ? await profiled(profiling, page, 'live', record) : await record();
    const cardsAfter = await cards();
    await sleep(300); // the stream's last events of the window
    const seconds = (recorded.to - recorded.from) / 1000;
    const created = follow.count(recorded.from, recorded.to);
    return {
      frames: recorded.frames,
      hiddenFrames: recorded.hiddenFrames,
      seconds,
      created,
      nodesPerSecond: created / seconds,
      firstCard,
      cardsBefore,
      cardsAfter,
      cardsPerSecond: (cardsAfter - cardsBefore) / seconds,
      behind: follow.count(0, recorded.to) - cardsAfter, // the root is a node.created too
    };
  } finally {
    await context.close();
    await follow.stop();
    await server.post('run.abort', { id }).catch(() => undefined);
  }
}

/**
 * The model latency that gives about `target` nodes/s *with the run page open* (the page and the server share the
 * cores): proportional steps from a guess, like bench:server does for events/s, each a fresh run and page
 * measured for 2 s.
 */
async function calibrate(server: BenchServer, browser: Browser, target: number) {
  let latency = 10;
  const probes: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { nodesPerSecond } = await liveRun(server, browser, latency, 2_000);
    probes.push(`${latency} ms: ${nodesPerSecond.toFixed(0)}/s`);
    if (Math.abs(nodesPerSecond - target) / target < 0.1) break;
    const next = Math.max(0, Math.round((latency * nodesPerSecond) / target));
    if (next === latency) break;
    latency = next;
  }
  return { latency, probes };
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  ensureBuild('the UI benchmark');
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
  const profileDir = process.env.BENCH_UI_PROFILE ? path.resolve(process.env.BENCH_UI_PROFILE) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const server = await startBenchServer(PORT, { ARBORIST_MAX_CONCURRENT_RUNS: '4' });
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const header =
      `Arborist UI benchmark: headless Chromium ${browser.version()} with --disable-gpu (software rendering) on ` +
      `${os.cpus().length} cores shared with the server (next start on :${PORT}), ${VIEWPORT.width}x${VIEWPORT.height}`;
    console.log(`${header}; load average ${os.loadavg()[0]?.toFixed(1)} at the start\n`);

    // 1. a recorded run of about 1,000 nodes
    const t0 = Date.now();
    const recordedId = await createRun(server, RECORDED, 0);
    const record = await waitFinished(server, recordedId, 300_000);
    const events = await readEvents(server, recordedId);
    const tree = fold(events);
    const nodes = Object.keys(tree.nodes).length;
    const expected = events.length;
    console.log(
      `recorded run ${recordedId}: ${record.status} in ${((Date.now() - t0) / 1000).toFixed(1)} s, ` +
        `${nodes} nodes (${record.exploredNodes} executed), ${events.length} events`,
    );

    const url = `${server.base}/runs/${recordedId}`;
    const height = await canvasHeight(browser, url);
    if (height < 100) {
      canvasStyle = CANVAS_FALLBACK_STYLE;
      console.log(
        `note: React Flow's box is ${height} px high on this build's run page (its slot, .run-canvas, has no size);\n` +
          `      the benchmark gives it the page body with \`${CANVAS_FALLBACK_STYLE}\` so there is a canvas to paint`,
      );
    }
    const loads: Awaited<ReturnType<typeof waitLoaded>>[] = [];
    let loaded: Awaited<ReturnType<typeof openPage>> | null = null;
    for (let i = 0; i < LOADS; i++) {
      loaded = await openPage(browser, url, expected);
      const load = await waitLoaded(loaded.page);
      loads.push(load);
      console.log(
        `  load ${i + 1}: first card ${ms(load.firstCard)}, ${load.count} cards ` +
          `${load.allCards === null ? 'stopped at' : 'all rendered at'} ${ms(load.allCards ?? load.lastChange)}, ` +
          `longest task ${ms(load.longestTask)}`,
      );
      if (i < LOADS - 1) await loaded.context.close();
    }
    const incomplete = loads.filter((l) => l.allCards === null);

    // 2. panning it (the last page loaded)
    if (!loaded) throw new Error('no page');
    await sleep(1_000);
    const panned = await pan(loaded.page, PAN_MS);
    await loaded.context.close();
    console.log(
      `  pan: ${panned.moves} mouse moves sent in ${panned.seconds.toFixed(1)} s; the viewport moved in ` +
        `${panned.transformChanges} of ${panned.frames.length} frames; ${panned.hiddenFrames} frames began with a card hidden`,
    );

    // 3. a live run at about 50 nodes/s
    const { latency, probes } = await calibrate(server, browser, LIVE_TARGET_NODES_PER_S);
    console.log(`live run: model latency ${latency} ms for ~${LIVE_TARGET_NODES_PER_S} nodes/s (${probes.join(', ')})`);
    const live = await liveRun(server, browser, latency, LIVE_MS);
    console.log(
      `  live: ${live.created} nodes created in ${live.seconds.toFixed(1)} s; cards on the page ${live.cardsBefore} -> ` +
        `${live.cardsAfter} (${live.cardsPerSecond.toFixed(0)}/s), ${live.behind} created but not on the page at the ` +
        `end; first card ${ms(live.firstCard)} after navigation; ${live.hiddenFrames} of ${live.frames.length} frames ` +
        `began with cards hidden (React Flow re-measuring them)`,
    );

    console.log(`\n${header}; load average ${os.loadavg()[0]?.toFixed(1)} at the end`);
    console.log(
      `recorded run: ${nodes} nodes, ${events.length} events; ${LOADS} loads, a fresh browser context each\n`,
    );
    const rule = '-'.repeat(100);
    console.log(
      `${'figure'.padEnd(52)} ${'n'.padStart(5)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)} ${'>50 ms'.padStart(7)}`,
    );
    console.log(rule);
    const loadRow = (label: string, xs: number[]) =>
      console.log(
        `${label.padEnd(52)} ${String(xs.length).padStart(5)} ${ms(median(xs)).padStart(8)} ${''.padStart(8)} ${ms(Math.max(...xs)).padStart(8)}`,
      );
    loadRow(
      'load: nav start -> first node card painted',
      loads.map((l) => l.firstCard),
    );
    loadRow(
      `load: nav start -> whole run drawn (${expected} events)${incomplete.length ? ` (${incomplete.length} stalled)` : ''}`,
      loads.map((l) => l.allCards ?? l.lastChange),
    );
    loadRow(
      'load: longest main-thread task',
      loads.map((l) => l.longestTask),
    );
    loadRow(
      'load: total blocking time',
      loads.map((l) => l.blocking),
    );
    const frameRow = (label: string, f: FrameStats) =>
      console.log(
        `${label.padEnd(52)} ${String(f.frames).padStart(5)} ${`${ms1(f.median)} ms`.padStart(8)} ${`${ms1(f.p95)} ms`.padStart(8)} ${`${ms1(f.max)} ms`.padStart(8)} ${String(f.long).padStart(7)}`,
      );
    frameRow(`frames: panning the recorded run, ${panned.seconds.toFixed(1)} s`, frameStats(panned.frames));
    frameRow(
      `frames: live run at ${live.nodesPerSecond.toFixed(0)} nodes/s (model ${latency} ms), ${live.seconds.toFixed(1)} s`,
      frameStats(live.frames),
    );
    console.log(rule);

    if (profileDir) {
      console.log(
        `\nprofiles: one more pass of each under a trace and a CPU profile (their overhead included), in ${profileDir}`,
      );
      const profiling = { browser, dir: profileDir };
      const again = await newPage(browser, expected, true);
      await profiled(profiling, again.page, 'load', async () => {
        await again.page.goto(url, { waitUntil: 'commit' });
        return waitLoaded(again.page);
      });
      await sleep(1_000);
      const from = await panePoint(again.page); // its hit tests are not part of the pan
      await profiled(profiling, again.page, 'pan', () => pan(again.page, PAN_MS, from));
      await again.context.close();
      await liveRun(server, browser, latency, LIVE_MS, profiling);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
