/**
 * `npm run bench:ui`: the run page's figures in a real browser at several run sizes, printed, never asserted.
 * For each size of BENCH_UI_SIZES (default 1k,10k,100k events), a finished run of about that many events is built by
 * the engine and stored through the import path (lib/harness/recorded-runs.ts), then:
 *   1. load, on fresh browser contexts (3 times, fewer when a load is slow): navigation start -> first node painted
 *      (a visible node card, or the first paint of a <canvas> in the canvas slot); -> usable (the header shows the
 *      final status and the final tree's node total, something is drawn and React Flow hides no node); -> history
 *      complete (the timeline at the last step); the longest main-thread task; the JS heap at usable and after a GC;
 *   2. frame times while dragging the canvas for 3 s, as loaded (at fit);
 *   3. frame times while zooming with the wheel from fit to a single card (zoom 1.5) around a card near the middle;
 *   4. jumping to 20 seeded random steps by clicking the timeline's scrubber where a person would, and 40 steps to the
 *      neighbouring step by an arrow key on it: from the input's timeStamp to its next paint (Event Timing: what INP
 *      is made of), to the second animation frame after the timeline shows that step (the frame after it is painted),
 *      and to the second frame after the canvas drew it (React Flow's root's data-drawn-seq: the canvas follows a seek
 *      in a deferred render); then the next paint of a key the page ignores, the floor under them on this machine;
 *   5. the same pan on a bare React Flow page drawing as many plain nodes (bare-flow-page.tsx, which bare-flow.ts
 *      bundles and serves on a loopback port of its own: the app's build does not ship it).
 * Before them, once: frame times for 5 s while a live run adds about 50 nodes/s (the simulated model's latency calibrated
 * to that rate against the node.created events of /api/runs/<id>/events.ndjson?follow=1). The table at the end
 * puts the sizes side by side, with each frame figure divided by the smallest size's (target <= 1.5) and our pan
 * divided by the bare page's.
 * Times are taken inside the page (performance.now(), a requestAnimationFrame loop installed by addInitScript); the
 * heap through CDP (Runtime.getHeapUsage). The DOM the bench reads is named in SELECTORS below, in one place, for
 * the day the page changes. The production server (next start) runs on BENCH_UI_PORT (3600) with its own temp
 * database; the browser is headless Chromium (CHROMIUM_PATH or /usr/bin/chromium) with --disable-gpu, so it
 * rasterises in software and shares the machine's cores with the server. Each size's pass is bounded (load, seek
 * and bare-page budgets below). BENCH_UI_PROFILE=<dir> adds one load and pan of the largest size under a Chromium
 * trace and a V8 CPU profile (and a live pass), writes them there and prints where the time went.
 * Not a test; builds the app first if there is no build.
 */
import { followRunEvents } from './follow';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { sleep } from '../contract/sleep';
import { startBareFlowServer } from './bare-flow';
import { percentile } from './percentile';
import { type BenchFigure, reportFigures } from './figures';
import {
  type FrameStats,
  type RunSize,
  ascending,
  frameStats,
  median,
  parseSizes,
  ratio,
  seekFractions,
} from './ui-figures';
import {
  TRACE_CATEGORIES,
  installRenderCounter,
  summariseCpuProfile,
  summariseRenders,
  summariseTrace,
} from './ui-profile';
import {
  BENCH_GOAL,
  type BenchServer,
  CHROMIUM_ARGS,
  ensureBuild,
  findChromium,
  type StoredRun,
  recordRun,
  startBenchServer,
} from '../harness/index';

/**
 * Everything the bench reads from the page. When the run page changes, adapt these and nothing else:
 * - nodeCard: a node drawn as a DOM card (counts as "a node painted" once its React Flow wrapper is visible);
 * - canvasSlot: where the tree is drawn; a <canvas> inside it that has pixels counts as "a node painted" too
 *   (a canvas layer for low zoom, an overview);
 * - flowNode / flowViewport / flowPane / flowRoot: React Flow's own elements (its hidden-until-measured wrappers,
 *   the transform that says where the view is, the pane a drag starts on, its box);
 * - runStatus / statTotal: the header's status badge and "explored a/total" total (the final tree is in when both
 *   say what the finished run says);
 * - timelinePosition / scrubber: the timeline's "step N / M" and the range input a person clicks to seek.
 */
const SELECTORS = {
  nodeCard: '[data-testid="thought-node"]',
  canvasSlot: '.run-canvas',
  flowNode: '.react-flow__node',
  flowViewport: '.react-flow__viewport',
  flowPane: '.react-flow__pane',
  flowRoot: '.react-flow',
  runStatus: '[data-testid="run-status"]',
  statTotal: '[data-testid="stat-total"]',
  timelinePosition: '[data-testid="timeline-position"]',
  /** Shown while a run's history is still arriving behind its latest tree. */
  timelineLoading: '[data-testid="timeline-loading"]',
  scrubber: '[data-testid="scrubber"]',
};
type Selectors = typeof SELECTORS;

const PORT = Number(process.env.BENCH_UI_PORT ?? 3600);
const VIEWPORT = { width: 1440, height: 900 };
const LOADS = 3;
/** No further load of a size once its loads have taken this long (a slow size gets one or two). */
const LOAD_BUDGET_MS = 100_000;
/** How long one load may take before the bench gives up on it; a page whose progress stalls this long is done too. */
const loadTimeoutMs = (events: number) => Math.min(300_000, 60_000 + events * 2);
const STALL_MS = 20_000;
const PAN_MS = 3_000;
const ZOOM_MS = 2_500;
/** A single card fills a good part of the view at this zoom (the run canvas allows up to 2). */
const CARD_ZOOM = 1.5;
const SEEKS = 20;
const NEIGHBOUR_SEEKS = 40;
const SEEK_BUDGET_MS = 90_000;
const SEEK_TIMEOUT_MS = 30_000;
const BARE_LOAD_TIMEOUT_MS = 90_000;
const LIVE_MS = 5_000;
const LIVE_TARGET_NODES_PER_S = 50;
/** The large live pass (BENCH_UI_PASSES=live-large): a run grown to this many nodes, then watched adding ~100/s. */
const LIVE_LARGE_NODES = Number(process.env.BENCH_UI_LIVE_LARGE_NODES ?? 16_000);
/**
 * Its model latency: ~100 nodes/s at that size on this machine. The small live pass's calibration does not carry over
 * (at 10 ms a deep run of 38k nodes was adding 312 nodes/s); the figure prints the rate it had.
 */
const LIVE_LARGE_LATENCY_MS = Number(process.env.BENCH_UI_LIVE_LARGE_LATENCY_MS ?? 35);
const LIVE_LARGE_GROW_MS = Number(process.env.BENCH_UI_LIVE_LARGE_GROW_S ?? 300) * 1000;
/** React Flow's wheel zoom: each pixel of deltaY scales by 2^0.002 (xyflow's wheelDelta, as d3-zoom's). */
const WHEEL_LOG2_PER_PIXEL = 0.002;

/**
 * BENCH_UI_PASSES=seek,... measures only some passes (live, pan, zoom, seek, bare; the loads always run): to iterate
 * on one figure. The table prints "-" for the rest. live-large (not in the default: it grows a run for minutes) is the
 * frame times of a page open on a live run of LIVE_LARGE_NODES nodes still adding ~100 a second.
 */
const PASSES = new Set((process.env.BENCH_UI_PASSES ?? 'live,pan,zoom,seek,bare').split(',').map((p) => p.trim()));

const benchStart = Date.now();
function progress(line: string) {
  const s = Math.round((Date.now() - benchStart) / 1000);
  console.log(`[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}] ${line}`);
}

// ---------------------------------------------------------------------------------------------------------------
// In the page

interface PageExpectation {
  /** The header's status and total once the finished run's final tree is in. */
  status: string;
  total: string;
  /** Events in the run: the timeline says "step events / events" once the whole history is there. */
  events: number;
}

interface PageBenchConfig {
  sel: Selectors;
  /** What counts as a node painted: a run page's node card, or the bare page's React Flow node. */
  paintSelector: string;
  expect: PageExpectation | null;
}

interface PageBench {
  watchLoad: boolean;
  firstPaint: number | null;
  firstPaintBy: 'node' | 'canvas' | null;
  usable: number | null;
  history: number | null;
  progress: string;
  lastChange: number;
  recording: boolean;
  prevFrame: number;
  frames: number[];
  transform: string;
  transformChanges: number;
  /** Recorded frames that began with some node hidden by React Flow (it hides a node until it has measured it). */
  hiddenFrames: number;
  longTasks: { start: number; duration: number }[];
  lastPointerDown: number;
  lastKeyDown: number;
  /** A seek being watched: armed by the bench, given its step by the scrubber's input event. */
  seek: {
    start: number;
    step: number | null;
    seenAt: number | null;
    framesAfter: number;
    end: number | null;
    /** When the canvas (its data-drawn-seq) drew the step, plus one frame for its paint. */
    drawnAt: number | null;
    drawnFramesAfter: number;
    drawn: number | null;
  } | null;
  /** Event Timing entries of 16 ms or more (the browser's input-to-next-paint, what INP is made of). */
  /** Event Timing entries of 16 ms or more: when, how long to the next paint, when its handlers started and ended. */
  slowEvents: { start: number; duration: number; processingStart: number; processingEnd: number }[];
}

declare global {
  interface Window {
    __bench: PageBench;
  }
}

/** Installed before any page script: one requestAnimationFrame loop that watches the page and records frames. */
function installPageBench(config: PageBenchConfig) {
  const { sel, expect } = config;
  const b: PageBench = {
    watchLoad: true,
    firstPaint: null,
    firstPaintBy: null,
    usable: null,
    history: null,
    progress: '',
    lastChange: 0,
    recording: false,
    prevFrame: 0,
    frames: [],
    transform: '',
    transformChanges: 0,
    hiddenFrames: 0,
    longTasks: [],
    lastPointerDown: NaN,
    lastKeyDown: NaN,
    seek: null,
    slowEvents: [],
  };
  window.__bench = b;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing
  }
  try {
    // 16 ms is the lowest threshold Event Timing allows: an input with no entry was painted within 16 ms
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[])
        b.slowEvents.push({
          start: e.startTime,
          duration: e.duration,
          processingStart: e.processingStart,
          processingEnd: e.processingEnd,
        });
    }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
  } catch {
    // no event timing
  }
  // the time the input happened (its timeStamp), not when a busy page got round to it
  window.addEventListener('pointerdown', (e) => (b.lastPointerDown = e.timeStamp), true);
  window.addEventListener('keydown', (e) => (b.lastKeyDown = e.timeStamp), true);
  // before React's own handler: the step the browser put in the slider where the person clicked
  window.addEventListener(
    'input',
    (e) => {
      const target = e.target as HTMLInputElement | null;
      if (b.seek && b.seek.step === null && target?.matches?.(sel.scrubber)) {
        b.seek.step = Math.min(Number(target.value), Number(target.max));
        // a click on the track, or an arrow key on the focused slider
        b.seek.start = Math.max(b.lastPointerDown || 0, b.lastKeyDown || 0);
      }
    },
    true,
  );
  // whitespace collapsed and thousands separators dropped ("12,286" and "12 286" read as 12286)
  const text = (selector: string) =>
    (document.querySelector(selector)?.textContent ?? '')
      .replace(/(\d)[,\u00a0\u202f](?=\d{3}\b)/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
  // React Flow renders a node hidden until it has measured it: a node counts once its wrapper is visible.
  const visible = (el: Element) =>
    (el.closest(sel.flowNode) as HTMLElement | null)?.style.visibility !== 'hidden' && el.getClientRects().length > 0;
  let scratch: CanvasRenderingContext2D | null = null;
  const painted = (canvas: HTMLCanvasElement) => {
    if (canvas.width === 0 || canvas.height === 0) return false;
    try {
      scratch ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      if (!scratch) return false;
      scratch.canvas.width = 16;
      scratch.canvas.height = 16;
      scratch.drawImage(canvas, 0, 0, 16, 16);
      const pixels = scratch.getImageData(0, 0, 16, 16).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
    } catch {
      // a canvas that cannot be read back counts once it has a size
      return true;
    }
    return false;
  };
  const tick = (t: number) => {
    const now = performance.now();
    if (b.recording) {
      if (b.prevFrame) b.frames.push(t - b.prevFrame);
      b.prevFrame = t;
      const transform = (document.querySelector(sel.flowViewport) as HTMLElement | null)?.style.transform ?? '';
      if (transform !== b.transform) {
        b.transform = transform;
        b.transformChanges++;
      }
      if (document.querySelector(`${sel.flowNode}[style*="visibility: hidden"]`)) b.hiddenFrames++;
    }
    const seek = b.seek;
    if (seek && seek.step !== null && seek.end === null) {
      if (seek.seenAt === null) {
        if (` ${text(sel.timelinePosition)}`.includes(` ${seek.step} /`)) seek.seenAt = now;
      } else if (seek.end === null && ++seek.framesAfter >= 2) {
        // the frame that showed the step has been painted
        seek.end = now;
      }
    }
    if (seek && seek.step !== null && seek.drawn === null) {
      if (seek.drawnAt === null) {
        const drawnSeq = (document.querySelector(sel.flowRoot) as HTMLElement | null)?.dataset.drawnSeq;
        if (drawnSeq === String(seek.step)) seek.drawnAt = now;
      } else if (++seek.drawnFramesAfter >= 2) seek.drawn = now;
    }
    if (b.watchLoad) {
      const nodes = document.querySelectorAll(config.paintSelector);
      const status = text(sel.runStatus);
      const total = text(sel.statTotal);
      const position = text(sel.timelinePosition);
      const signature = `${nodes.length}|${status}|${total}|${position}`;
      if (signature !== b.progress) {
        b.progress = signature;
        b.lastChange = now;
      }
      if (b.firstPaint === null) {
        for (const node of nodes) {
          if (visible(node)) {
            b.firstPaint = now;
            b.firstPaintBy = 'node';
            break;
          }
        }
      }
      if (b.firstPaint === null) {
        for (const canvas of document.querySelectorAll(`${sel.canvasSlot} canvas`)) {
          if (painted(canvas as HTMLCanvasElement)) {
            b.firstPaint = now;
            b.firstPaintBy = 'canvas';
            break;
          }
        }
      }
      if (expect) {
        if (
          b.history === null &&
          position.includes(`step ${expect.events} / ${expect.events}`) &&
          !document.querySelector(sel.timelineLoading)
        )
          b.history = now;
        if (
          b.usable === null &&
          b.firstPaint !== null &&
          status.toLowerCase().includes(expect.status) &&
          total === expect.total &&
          !document.querySelector(`${sel.flowNode}[style*="visibility: hidden"]`)
        ) {
          b.usable = now;
        }
        if (b.usable !== null && b.history !== null) b.watchLoad = false;
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function startRecording(page: Page) {
  await page.evaluate((sel) => {
    const b = window.__bench;
    b.frames = [];
    b.prevFrame = 0;
    b.transformChanges = 0;
    b.hiddenFrames = 0;
    b.transform = (document.querySelector(sel.flowViewport) as HTMLElement | null)?.style.transform ?? '';
    b.recording = true;
  }, SELECTORS);
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

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '-');
const ms1 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)}` : '-');
const times = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '-');

// ---------------------------------------------------------------------------------------------------------------
// The server side: runs and their events

/**
 * Follows a run's live events over HTTP and keeps the timestamp of every node.created. `count(from, to)` counts
 * those that fall in [from, to] (Date.now() times: one machine, one clock).
 */
function followNodes(server: BenchServer, runId: string) {
  const created: number[] = [];
  const following = followRunEvents(server.base, runId, (event) => {
    if (event.type === 'node.created') created.push(event.ts);
  });
  return {
    count: (from: number, to: number) => created.filter((t) => t >= from && t <= to).length,
    stop: () => following.stop(),
  };
}

/** The live run: the engine's own strategy (beam), as deep as bench:ui has always grown it, never stopping early. */
const LIVE_CONFIG = { maxDepth: 12, terminationConfidence: 1, confidenceThreshold: 0 };
/** A live probe or pass that takes longer than this (the page or the server fell behind) is given up on. */
const LIVE_BOUND_MS = 60_000;

async function createLiveRun(server: BenchServer, latencyMs: number, config: object = LIVE_CONFIG): Promise<string> {
  const { id } = await server.post<{ id: string }>('run.create', {
    taskId: 'open-goal',
    goal: BENCH_GOAL,
    config: { ...config, maxTotalNodes: 100_000 },
    model: { provider: 'simulated', seed: 11, latencyMs },
  });
  return id;
}

// ---------------------------------------------------------------------------------------------------------------
// The browser side

/** Set when the page's canvas slot has no height of its own (see canvasHeight). */
let canvasStyle: string | null = null;
const CANVAS_FALLBACK_STYLE = `${SELECTORS.canvasSlot} { position: absolute; inset: 0; }`;

interface Opened {
  context: BrowserContext;
  page: Page;
}

async function newPage(
  browser: Browser,
  expect: PageExpectation | null,
  options: { countRenders?: boolean; paintSelector?: string } = {},
): Promise<Opened> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const config: PageBenchConfig = {
    sel: SELECTORS,
    paintSelector: options.paintSelector ?? SELECTORS.nodeCard,
    expect,
  };
  // as source text: tsx names functions through an __name helper that the page does not have
  await page.addInitScript({
    content: `var __name = (f) => f;\n(${installPageBench.toString()})(${JSON.stringify(config)});`,
  });
  if (options.countRenders)
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

async function openPage(browser: Browser, url: string, expect: PageExpectation | null): Promise<Opened> {
  const opened = await newPage(browser, expect);
  await opened.page.goto(url, { waitUntil: 'commit' });
  return opened;
}

/** The height of React Flow's box on the run page once a node is painted (0: the canvas has no room). */
async function canvasHeight(browser: Browser, url: string): Promise<number> {
  const { context, page } = await openPage(browser, url, null);
  try {
    await page.waitForFunction(() => window.__bench.firstPaint !== null, null, { timeout: 120_000, polling: 100 });
    return await page.evaluate((sel) => document.querySelector(sel.flowRoot)?.clientHeight ?? 0, SELECTORS);
  } finally {
    await context.close();
  }
}

interface Load {
  firstPaint: number;
  firstPaintBy: string;
  usable: number | null;
  history: number | null;
  /** Navigation -> the first node painted, the history complete, and no long task for SETTLE_QUIET_MS after. */
  settled: number | null;
  /** When the page was given up on (timeout or stalled), else null. */
  gaveUp: string | null;
  nodesOnPage: number;
  longestTask: number;
  blocking: number;
  heapUsed: number;
  heapAfterGc: number;
}

/** A page is settled once this long has passed with no long task (issue 32's "open" figure). */
const SETTLE_QUIET_MS = 3_000;

/**
 * Waits until the page is usable and its history complete, stalls for STALL_MS, or `timeoutMs` passes; then until
 * it has settled (no long task for SETTLE_QUIET_MS).
 */
async function waitLoaded(page: Page, timeoutMs: number): Promise<Load> {
  let gaveUp: string | null = null;
  try {
    await page.waitForFunction(
      (stall) => {
        const b = window.__bench;
        return !b.watchLoad || (b.lastChange > 0 && performance.now() - b.lastChange > stall);
      },
      STALL_MS,
      { timeout: timeoutMs, polling: 250 },
    );
  } catch {
    gaveUp = `not usable after ${Math.round(timeoutMs / 1000)} s`;
  }
  const state = await page.evaluate(
    ({ sel }) => {
      const b = window.__bench;
      const end = b.usable ?? performance.now();
      const longTasks = b.longTasks.filter((t) => t.start <= end);
      return {
        watchLoad: b.watchLoad,
        firstPaint: b.firstPaint ?? NaN,
        firstPaintBy: b.firstPaintBy ?? '-',
        usable: b.usable,
        history: b.history,
        lastChange: b.lastChange,
        nodesOnPage: document.querySelectorAll(sel.nodeCard).length,
        longestTask: Math.max(0, ...longTasks.map((t) => t.duration)),
        blocking: longTasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
      };
    },
    { sel: SELECTORS },
  );
  // a page too busy to answer the poll may have become usable meanwhile: that is its figure
  if (state.usable !== null) gaveUp = null;
  else if (!gaveUp) gaveUp = `stalled: nothing changed for ${STALL_MS / 1000} s`;
  // settled, as the issue that asked for it counts: the first node painted and the history complete, and then no
  // long task for SETTLE_QUIET_MS; the figure is when that quiet began (bounded: a page that never settles says so)
  const settled = await page
    .waitForFunction(
      (quiet) => {
        const b = window.__bench;
        if (b.firstPaint === null || b.history === null) return null;
        const from = Math.max(b.firstPaint, b.history, ...b.longTasks.map((t) => t.start + t.duration));
        return performance.now() - from >= quiet ? from : null;
      },
      SETTLE_QUIET_MS,
      { timeout: SETTLE_QUIET_MS + 20_000, polling: 250 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(() => null);
  // a page still loading its history is usable already: stop watching so the frames measured next are clean
  await page.evaluate(() => (window.__bench.watchLoad = false));
  const cdp = await page.context().newCDPSession(page);
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.send('HeapProfiler.collectGarbage');
  const after = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return { ...state, settled, gaveUp, heapUsed: usedSize, heapAfterGc: after.usedSize };
}

/** A point over the bare pane (no card, edge or control on top) near the middle of the canvas. */
async function panePoint(page: Page): Promise<{ x: number; y: number }> {
  const point = await page.evaluate((sel) => {
    const pane = document.querySelector(sel.flowPane);
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
  }, SELECTORS);
  if (!point) throw new Error('no bare pane to drag');
  return point;
}

type MouseType = 'mousePressed' | 'mouseMoved' | 'mouseReleased' | 'mouseWheel';

/**
 * Drags the pane in a figure of eight for `durationMs`: mouse down, a move every 16 ms, mouse up. The moves go
 * through CDP's Input.dispatchMouseEvent without waiting for each to be handled, as a real mouse keeps moving
 * whatever the page does (Playwright's mouse.move waits, so a slow page would get a few moves a second); the
 * renderer coalesces what piles up to one move per frame.
 */
async function pan(page: Page, durationMs: number, from?: { x: number; y: number }) {
  const { x, y } = from ?? (await panePoint(page));
  const cdp = await page.context().newCDPSession(page);
  const mouse = (type: MouseType, px: number, py: number) =>
    cdp.send('Input.dispatchMouseEvent', {
      type,
      x: px,
      y: py,
      button: 'left',
      buttons: type === 'mouseReleased' ? 0 : 1,
      clickCount: 1,
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

/** The view's zoom, from React Flow's viewport transform (1 when there is none). */
async function currentZoom(page: Page): Promise<number> {
  return page.evaluate((sel) => {
    const transform = (document.querySelector(sel.flowViewport) as HTMLElement | null)?.style.transform ?? '';
    const match = /scale\(([\d.e+-]+)\)/.exec(transform);
    return match ? Number(match[1]) : 1;
  }, SELECTORS);
}

/** Presses the page's own "zoom to fit" key and waits until the view has stopped moving. */
async function fitView(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('f');
  let last = '';
  let stableSince = Date.now();
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const transform = await page.evaluate(
      (sel) => (document.querySelector(sel.flowViewport) as HTMLElement | null)?.style.transform ?? '',
      SELECTORS,
    );
    if (transform !== last) {
      last = transform;
      stableSince = Date.now();
    } else if (Date.now() - stableSince > 500) return;
    await sleep(50);
  }
}

/**
 * Zooms with the mouse wheel from the current view to CARD_ZOOM in `durationMs`, around the node card nearest the
 * middle of the canvas (the middle itself when no card is in the page): a wheel event every 16 ms, sent without
 * waiting, each of the share of deltaY that gets there (React Flow scales by 2^(0.002 per pixel)).
 */
async function zoomToCard(page: Page, durationMs: number) {
  const target = await page.evaluate((sel) => {
    const pane = document.querySelector(sel.flowPane)?.getBoundingClientRect();
    if (!pane) return null;
    const cx = pane.left + pane.width / 2;
    const cy = pane.top + pane.height / 2;
    let best: { x: number; y: number; d: number } | null = null;
    for (const card of document.querySelectorAll(sel.nodeCard)) {
      const r = card.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < pane.left || x > pane.right || y < pane.top || y > pane.bottom) continue;
      const d = (x - cx) ** 2 + (y - cy) ** 2;
      if (!best || d < best.d) best = { x, y, d };
    }
    return best ? { x: best.x, y: best.y, onCard: true } : { x: cx, y: cy, onCard: false };
  }, SELECTORS);
  if (!target) throw new Error('no pane to zoom');
  const fromZoom = await currentZoom(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: target.x, y: target.y });
  /** Wheels from `zoom` to CARD_ZOOM in `ms`: a wheel event every 16 ms, each a share of the deltaY. */
  const wheel = async (zoom: number, ms: number) => {
    const totalDelta = -Math.log2(CARD_ZOOM / zoom) / WHEEL_LOG2_PER_PIXEL;
    const steps = Math.max(1, Math.round(ms / 16));
    const started = Date.now();
    const sent: Promise<unknown>[] = [];
    for (let i = 0; i < steps; i++) {
      sent.push(
        cdp.send('Input.dispatchMouseEvent', {
          type: 'mouseWheel',
          x: target.x,
          y: target.y,
          deltaX: 0,
          deltaY: totalDelta / steps,
        }),
      );
      await sleep(Math.max(0, (i + 1) * 16 - (Date.now() - started)));
    }
    await Promise.all(sent);
  };
  /** The zoom once the view has stopped moving (a slow page is still applying the wheel), or after 3 s. */
  const settled = async () => {
    let zoom = await currentZoom(page);
    for (let stableSince = Date.now(), until = Date.now() + 3_000; Date.now() < until;) {
      await sleep(50);
      const now = await currentZoom(page);
      if (now !== zoom) {
        zoom = now;
        stableSince = Date.now();
      } else if (Date.now() - stableSince > 300) break;
    }
    return zoom;
  };
  await startRecording(page);
  const t0 = Date.now();
  await wheel(fromZoom, durationMs);
  let zoom = await settled();
  // a busy page loses some of the wheel: a person keeps scrolling until the card is big enough (bounded)
  while (zoom < CARD_ZOOM * 0.95 && Date.now() - t0 < 3 * durationMs) {
    await wheel(zoom, 500);
    zoom = await settled();
  }
  const recorded = await stopRecording(page);
  await cdp.detach();
  return { ...recorded, fromZoom, toZoom: zoom, onCard: target.onCard };
}

interface Seeks {
  /** Input -> the frame after the timeline shows the step (two animation frames after it is in the DOM). */
  times: number[];
  /** Input -> the frame after the canvas drew the step (its deferred build included). */
  drawn: number[];
  /** Input -> next paint per Event Timing (its entries are 16 ms or more: an input without one counts as 8). */
  nextPaint: number[];
  /**
   * Of the seeks whose next paint took 16 ms or more, where the time went: the input waiting for the main thread,
   * its handlers running (React's synchronous render and commit of the seek), and from their end to the paint.
   */
  split: { waited: number; handlers: number; toPaint: number }[];
  /** Seeks that did not show their step within SEEK_TIMEOUT_MS, or clicks that moved nothing. */
  failed: number;
  skipped: number;
  note: string | null;
}

/**
 * Times `count` seeks made by `act(i)` (a click on the scrubber, or a key on it), each in the page from the input's
 * timeStamp to the second animation frame after the timeline shows the step the slider got, within SEEK_BUDGET_MS.
 */
/** What a seek pass gives on a page without a scrubber: `skipped` seeks, none taken. */
function noScrubber(skipped: number): Seeks {
  return { times: [], drawn: [], nextPaint: [], split: [], failed: 0, skipped, note: 'no scrubber on the page' };
}

async function timedSeeks(page: Page, count: number, act: (i: number) => Promise<void>): Promise<Seeks> {
  const result: Seeks = { times: [], drawn: [], nextPaint: [], split: [], failed: 0, skipped: 0, note: null };
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    if (Date.now() - t0 > SEEK_BUDGET_MS) {
      result.skipped = count - i;
      result.note = `seek budget of ${SEEK_BUDGET_MS / 1000} s spent`;
      break;
    }
    await page.evaluate(() => {
      window.__bench.seek = {
        start: NaN,
        step: null,
        seenAt: null,
        framesAfter: 0,
        end: null,
        drawnAt: null,
        drawnFramesAfter: 0,
        drawn: null,
      };
    });
    await act(i);
    try {
      await page.waitForFunction(() => window.__bench.seek?.end != null && window.__bench.seek.drawn != null, null, {
        timeout: SEEK_TIMEOUT_MS,
        polling: 16,
      });
      // the input's own Event Timing entries (keydown, pointerdown, input: the same timeStamp), if any was slow
      await sleep(50);
      const { seek, slow } = await page.evaluate(() => {
        const seek = window.__bench.seek;
        const start = seek?.start ?? NaN;
        const slow = window.__bench.slowEvents.filter((e) => Math.abs(e.start - start) < 1);
        return { seek, slow };
      });
      if (seek && seek.end !== null && seek.drawn !== null && Number.isFinite(seek.start)) {
        result.times.push(seek.end - seek.start);
        result.drawn.push(seek.drawn - seek.start);
        result.nextPaint.push(slow.length ? Math.max(...slow.map((e) => e.duration)) : 8);
        if (slow.length) {
          const first = Math.min(...slow.map((e) => e.processingStart));
          const last = Math.max(...slow.map((e) => e.processingEnd));
          const painted = Math.max(...slow.map((e) => e.start + e.duration));
          const handlers = slow.reduce((sum, e) => sum + (e.processingEnd - e.processingStart), 0);
          result.split.push({ waited: first - seek.start, handlers, toPaint: painted - last });
        }
      } else result.failed++;
    } catch {
      result.failed++;
    }
  }
  await page.evaluate(() => (window.__bench.seek = null));
  return result;
}

/**
 * The floor under every input's next paint on this machine: a key the page does nothing with (Shift alone), pressed
 * NEIGHBOUR_SEEKS times on the page's body, its Event Timing durations (8: under 16 ms, no entry). What a seek costs
 * beyond this is the page's work; the floor itself is the browser's frame (headless, software rasterised).
 */
async function idleKeys(page: Page): Promise<number[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const cdp = await page.context().newCDPSession(page);
  const durations: number[] = [];
  for (let i = 0; i < NEIGHBOUR_SEEKS; i++) {
    const common = { key: 'Shift', code: 'ShiftLeft', windowsVirtualKeyCode: 16, nativeVirtualKeyCode: 16 };
    await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...common });
    const at = await page.evaluate(() => window.__bench.lastKeyDown);
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
    await sleep(120);
    const slow = await page.evaluate(
      (start) => window.__bench.slowEvents.filter((e) => Math.abs(e.start - start) < 1).map((e) => e.duration),
      at,
    );
    durations.push(slow.length ? Math.max(...slow) : 8);
  }
  await cdp.detach();
  return durations;
}

/**
 * Jumps to SEEKS seeded random steps the way a person does: a click on the timeline's scrubber (the browser moves
 * the slider there and fires input).
 */
async function jumpAround(page: Page): Promise<Seeks> {
  const box = await page
    .locator(SELECTORS.scrubber)
    .first()
    .boundingBox()
    .catch(() => null);
  if (!box) return noScrubber(SEEKS);
  const cdp = await page.context().newCDPSession(page);
  const fractions = seekFractions(SEEKS);
  const result = await timedSeeks(page, fractions.length, async (i) => {
    // the thumb is ~16 px: keep clicks on the track inside it
    const x = box.x + 8 + (fractions[i] as number) * (box.width - 16);
    const y = box.y + box.height / 2;
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    for (const type of ['mousePressed', 'mouseReleased'] as const) {
      await cdp.send('Input.dispatchMouseEvent', {
        type,
        x,
        y,
        button: 'left',
        buttons: type === 'mousePressed' ? 1 : 0,
        clickCount: 1,
      });
    }
  });
  await cdp.detach();
  return result;
}

/**
 * Steps NEIGHBOUR_SEEKS times to the neighbouring step with an arrow key on the focused scrubber (one event each,
 * as a person reading a run step by step does), towards the longer side of the run from where the slider is.
 */
async function stepAround(page: Page): Promise<Seeks> {
  const scrubber = page.locator(SELECTORS.scrubber).first();
  const at = await scrubber
    .evaluate((el) => ({ value: Number((el as HTMLInputElement).value), max: Number((el as HTMLInputElement).max) }))
    .catch(() => null);
  if (!at) return noScrubber(NEIGHBOUR_SEEKS);
  await scrubber.focus();
  const key = at.value < at.max / 2 ? { key: 'ArrowRight', code: 39 } : { key: 'ArrowLeft', code: 37 };
  const cdp = await page.context().newCDPSession(page);
  const result = await timedSeeks(page, NEIGHBOUR_SEEKS, async () => {
    const common = { key: key.key, code: key.key, windowsVirtualKeyCode: key.code, nativeVirtualKeyCode: key.code };
    await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...common });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
  });
  await cdp.detach();
  return result;
}

interface Profiling {
  browser: Browser;
  dir: string;
}

/**
 * Runs `work` under a V8 CPU profile of the page and (unless `trace` is false: a minutes-long load's trace runs to
 * gigabytes) a Chromium trace, writes both and prints their summaries.
 */
async function profiled<T>(
  profiling: Profiling,
  page: Page,
  name: string,
  work: () => Promise<T>,
  { trace: withTrace = true } = {},
): Promise<T> {
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
  if (withTrace) await profiling.browser.startTracing(page, { categories: TRACE_CATEGORIES });
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  const result = await work();
  const windowMs = Date.now() - t0;
  const { profile } = await cdp.send('Profiler.stop');
  const trace = withTrace ? await profiling.browser.stopTracing() : null;
  await cdp.detach();
  writeFileSync(path.join(profiling.dir, `${name}.cpuprofile`), JSON.stringify(profile));
  if (trace) {
    writeFileSync(path.join(profiling.dir, `${name}.trace.json`), trace);
    summariseTrace(trace, windowMs, `${name}.trace.json`);
  }
  summariseCpuProfile(profile, `${name}.cpuprofile`);
  const { renders, cards } = await page.evaluate(
    (sel) => ({ renders: window.__renders, cards: document.querySelectorAll(sel.nodeCard).length }),
    SELECTORS,
  );
  summariseRenders(renders, cards, `${name}: React renders (a DevTools hook counting)`);
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// One size

interface SizeFigures {
  size: RunSize;
  run: StoredRun;
  loads: Load[];
  pan: (FrameStats & { seconds: number; moved: number; cardsInPage: number }) | null;
  zoom: (FrameStats & { fromZoom: number; toZoom: number; onCard: boolean }) | null;
  seeks: Seeks | null;
  steps: Seeks | null;
  /** Event Timing of a key the page ignores: the floor under the seeks' next paint. */
  idle: number[] | null;
  bare: (FrameStats & { nodesDrawn: number; loadMs: number }) | null;
  bareNote: string | null;
  seconds: number;
}

/** The bare React Flow page with `n` plain nodes (served from `bareBase`): loaded (bounded), then panned as the run page is. */
async function barePan(browser: Browser, bareBase: string, n: number) {
  const opened = await newPage(browser, null, { paintSelector: SELECTORS.flowNode });
  try {
    await opened.page.goto(`${bareBase}/?n=${n}`, { waitUntil: 'commit' });
    // drawn: the first node painted and no node left hidden for measuring, or the count stopped changing
    await opened.page.waitForFunction(
      (sel) => {
        const b = window.__bench;
        return (
          b.firstPaint !== null &&
          (!document.querySelector(`${sel.flowNode}[style*="visibility: hidden"]`) ||
            performance.now() - b.lastChange > 5_000)
        );
      },
      SELECTORS,
      { timeout: BARE_LOAD_TIMEOUT_MS, polling: 250 },
    );
    const { loadMs, nodesDrawn } = await opened.page.evaluate((sel) => {
      window.__bench.watchLoad = false;
      return { loadMs: performance.now(), nodesDrawn: document.querySelectorAll(sel.flowNode).length };
    }, SELECTORS);
    await sleep(500);
    const panned = await pan(opened.page, PAN_MS);
    return { ...frameStats(panned.frames), nodesDrawn, loadMs };
  } finally {
    await opened.context.close();
  }
}

async function measureSize(
  browser: Browser,
  server: BenchServer,
  bareBase: string,
  size: RunSize,
  first: boolean,
): Promise<SizeFigures> {
  const t0 = Date.now();
  progress(`${size.label}: building a run of about ${size.events.toLocaleString('en-US')} events with the engine…`);
  const run = await recordRun(server, size.events, size.label);
  progress(
    `${size.label}: run ${run.id}: ${run.events} events, ${run.nodes} nodes (${run.explored} executed), ` +
      `${mb(run.bytes)} export; built in ${ms(run.buildMs)}, stored via ${run.via} in ${ms(run.importMs)}`,
  );
  const url = `${server.base}/runs/${run.id}`;
  if (first) {
    const height = await canvasHeight(browser, url);
    if (height < 100) {
      canvasStyle = CANVAS_FALLBACK_STYLE;
      progress(
        `note: React Flow's box is ${height} px high on this build's run page (its slot has no size); the bench ` +
          `gives it the page body with \`${CANVAS_FALLBACK_STYLE}\` so there is a canvas to paint`,
      );
    }
  }
  const expect: PageExpectation = { status: 'finished', total: String(run.total), events: run.events };
  const loads: Load[] = [];
  let page: Opened | null = null;
  const loadsStarted = Date.now();
  for (let i = 0; i < LOADS; i++) {
    if (i > 0 && Date.now() - loadsStarted > LOAD_BUDGET_MS) {
      progress(`${size.label}: ${i} load(s) took over ${LOAD_BUDGET_MS / 1000} s: no more loads of this size`);
      break;
    }
    await page?.context.close();
    page = await openPage(browser, url, expect);
    const load = await waitLoaded(page.page, loadTimeoutMs(size.events));
    loads.push(load);
    progress(
      `${size.label}: load ${i + 1}: first node painted ${ms(load.firstPaint)} (${load.firstPaintBy}), usable ` +
        `${ms(load.usable ?? NaN)}, history complete ${ms(load.history ?? NaN)}, settled ${ms(load.settled ?? NaN)}, ` +
        `${load.nodesOnPage} cards in the ` +
        `page, longest task ${ms(load.longestTask)}, heap ${mb(load.heapUsed)} (${mb(load.heapAfterGc)} after GC)` +
        (load.gaveUp ? `; ${load.gaveUp}` : ''),
    );
  }
  const figures: SizeFigures = {
    size,
    run,
    loads,
    pan: null,
    zoom: null,
    seeks: null,
    steps: null,
    idle: null,
    bare: null,
    bareNote: null,
    seconds: 0,
  };
  if (page && loads.at(-1)?.firstPaint !== undefined && Number.isFinite(loads.at(-1)?.firstPaint)) {
    try {
      await sleep(500);
      if (PASSES.has('pan')) {
        const cardsInPage = await page.page.evaluate(
          (sel) => document.querySelectorAll(sel.nodeCard).length,
          SELECTORS,
        );
        const panned = await pan(page.page, PAN_MS);
        figures.pan = {
          ...frameStats(panned.frames),
          seconds: panned.seconds,
          moved: panned.transformChanges,
          cardsInPage,
        };
        progress(
          `${size.label}: pan: ${panned.moves} moves in ${panned.seconds.toFixed(1)} s, the view moved in ` +
            `${panned.transformChanges} of ${panned.frames.length} frames; median ${ms1(figures.pan.median)} ms, p95 ${ms1(figures.pan.p95)} ms`,
        );
      }
      if (PASSES.has('zoom')) {
        await fitView(page.page);
        const zoomed = await zoomToCard(page.page, ZOOM_MS);
        figures.zoom = {
          ...frameStats(zoomed.frames),
          fromZoom: zoomed.fromZoom,
          toZoom: zoomed.toZoom,
          onCard: zoomed.onCard,
        };
        progress(
          `${size.label}: zoom ${zoomed.fromZoom.toFixed(3)} -> ${zoomed.toZoom.toFixed(2)} around ` +
            `${zoomed.onCard ? 'a card' : 'the middle (no card in the page)'} in ${zoomed.frames.length} frames; ` +
            `median ${ms1(figures.zoom.median)} ms, p95 ${ms1(figures.zoom.p95)} ms`,
        );
      }
      if (PASSES.has('seek')) {
        const printSeeks = (what: string, seeks: Seeks) => {
          const spread = (xs: number[]) =>
            `median ${ms(median(xs))}, p95 ${ms(percentile(ascending(xs), 95))}, max ${ms(xs.length ? Math.max(...xs) : NaN)}`;
          progress(
            `${size.label}: ${seeks.times.length} ${what}: input -> next paint (Event Timing) ${spread(seeks.nextPaint)}` +
              (seeks.split.length
                ? ` (the ${seeks.split.length} of 16 ms or more, medians: waited for the main thread ` +
                  `${ms1(median(seeks.split.map((x) => x.waited)))} ms, handlers ` +
                  `${ms1(median(seeks.split.map((x) => x.handlers)))} ms, then to the paint ` +
                  `${ms1(median(seeks.split.map((x) => x.toPaint)))} ms)`
                : '') +
              `; -> the timeline's step painted ${spread(seeks.times)}; -> the canvas drew it ${spread(seeks.drawn)}` +
              (seeks.failed ? `; ${seeks.failed} never showed their step` : '') +
              (seeks.note ? `; ${seeks.note}` : ''),
          );
        };
        figures.seeks = await jumpAround(page.page);
        printSeeks('jumps (a click on the scrubber)', figures.seeks);
        figures.steps = await stepAround(page.page);
        printSeeks('steps to a neighbouring step (arrow key)', figures.steps);
        figures.idle = await idleKeys(page.page);
        progress(
          `${size.label}: a key the page ignores (Shift), input -> next paint: median ${ms(median(figures.idle))}, ` +
            `p95 ${ms(percentile(ascending(figures.idle), 95))} (8: under 16 ms)`,
        );
      }
    } catch (error) {
      progress(`${size.label}: stopped measuring this page: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  await page?.context.close();
  if (PASSES.has('bare'))
    try {
      figures.bare = await barePan(browser, bareBase, run.nodes);
      progress(
        `${size.label}: bare React Flow, ${run.nodes} plain nodes (${figures.bare.nodesDrawn} in the page after ` +
          `${ms(figures.bare.loadMs)}): pan median ${ms1(figures.bare.median)} ms, p95 ${ms1(figures.bare.p95)} ms`,
      );
    } catch (error) {
      figures.bareNote = (error as Error).message.split('\n')[0] ?? 'failed';
      progress(`${size.label}: bare React Flow page: ${figures.bareNote}`);
    }
  figures.seconds = (Date.now() - t0) / 1000;
  progress(`${size.label}: done in ${figures.seconds.toFixed(0)} s`);
  return figures;
}

// ---------------------------------------------------------------------------------------------------------------
// The live run

/**
 * Starts a live run with the model at `latency` ms, opens its page at once and, once the first node is painted,
 * records frames for `windowMs` while counting the node.created events of that window.
 */
async function liveRun(
  server: BenchServer,
  browser: Browser,
  latency: number,
  windowMs: number,
  profiling: Profiling | null = null,
) {
  const id = await createLiveRun(server, latency);
  const follow = followNodes(server, id);
  const { context, page } = await newPage(browser, null, { countRenders: profiling !== null });
  try {
    await page.goto(`${server.base}/runs/${id}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__bench.firstPaint !== null, null, { timeout: 60_000, polling: 100 });
    await page.evaluate(() => (window.__bench.watchLoad = false));
    const cards = () => page.evaluate((sel) => document.querySelectorAll(sel.nodeCard).length, SELECTORS);
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
    return { frames: recorded.frames, seconds, created, nodesPerSecond: created / seconds, cardsBefore, cardsAfter };
  } finally {
    await context.close();
    await follow.stop();
    await server.post('run.abort', { id }).catch(() => undefined);
  }
}

/**
 * The large live pass: a run at LIVE_LARGE_LATENCY_MS, grown with no page open
 * until it has LIVE_LARGE_NODES nodes or LIVE_LARGE_GROW_MS (BENCH_UI_LIVE_LARGE_GROW_S) has passed; then the page is opened on it, given until it is usable and its history is in,
 * and its frames recorded for LIVE_MS while the run goes on.
 */
async function liveLargeRun(server: BenchServer, browser: Browser, latency: number, profiling: Profiling | null) {
  // deeper than the small live run: at maxDepth 12 this search ends at 12,286 nodes
  const id = await createLiveRun(server, latency, { ...LIVE_CONFIG, maxDepth: 40 });
  // a search may end or slow down before it is that big: the page is opened on what the run has when the growing
  // time is spent, and the figure says how big it was and how fast it still grew
  const grownBy = Date.now() + LIVE_LARGE_GROW_MS;
  // the run's own count, not a follower's: a busy server's stream falls behind
  const nodes = async () => (await server.query<{ totalNodes: number }>('run.byId', { id })).totalNodes;
  try {
    while ((await nodes()) < LIVE_LARGE_NODES && Date.now() < grownBy) await sleep(1_000);
    const { context, page } = await newPage(browser, null);
    try {
      await page.goto(`${server.base}/runs/${id}`, { waitUntil: 'commit' });
      // a live run's history is in when the timeline no longer says it is loading
      await page.waitForFunction(
        (loading) => window.__bench.firstPaint !== null && !document.querySelector(loading),
        SELECTORS.timelineLoading,
        { timeout: 120_000, polling: 250 },
      );
      await sleep(1_000);
      await page.evaluate(() => (window.__bench.watchLoad = false));
      // what the page draws the run with: DOM cards (and at which zoom level) or the far level's one canvas
      const drawn = () =>
        page.evaluate(
          (sel) =>
            `${document.querySelectorAll('.react-flow__node').length} React Flow nodes (${document.querySelectorAll(sel.nodeCard).length} cards) at the ${document.querySelector('.react-flow')?.getAttribute('data-level')} level`,
          SELECTORS,
        );
      const drawnBefore = await drawn();
      const nodesAtStart = await nodes();
      const from = Date.now();
      const record = async () => {
        await startRecording(page);
        await sleep(LIVE_MS);
        return stopRecording(page);
      };
      const recorded = profiling ? await profiled(profiling, page, 'live-large', record) : await record();
      const nodesAtEnd = await nodes();
      progress(`large live run: ${drawnBefore} before the window, ${await drawn()} after`);
      return {
        stats: frameStats(recorded.frames),
        nodesAtStart,
        nodesPerSecond: (nodesAtEnd - nodesAtStart) / ((Date.now() - from) / 1000),
      };
    } finally {
      await context.close();
    }
  } finally {
    await server.post('run.abort', { id }).catch(() => undefined);
  }
}

/** `work`, or an error once LIVE_BOUND_MS has passed (the work goes on in the background until its page closes). */
async function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: gave up after ${LIVE_BOUND_MS / 1000} s`)), LIVE_BOUND_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
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
  for (let i = 0; i < 4; i++) {
    const { nodesPerSecond } = await bounded(liveRun(server, browser, latency, 2_000), `probe at ${latency} ms`);
    probes.push(`${latency} ms: ${nodesPerSecond.toFixed(0)}/s`);
    if (Math.abs(nodesPerSecond - target) / target < 0.1) break;
    const next = Math.max(0, Math.round((latency * nodesPerSecond) / target));
    if (next === latency) break;
    latency = next;
  }
  return { latency, probes };
}

// ---------------------------------------------------------------------------------------------------------------
// The table

function printTable(all: SizeFigures[], live: { stats: FrameStats; rate: number; latency: number } | null) {
  const col = 22;
  const rule = '-'.repeat(48 + col * all.length);
  const row = (label: string, cells: string[]) =>
    console.log(`${label.padEnd(48)}${cells.map((c) => c.padStart(col)).join('')}`);
  const pair = (a: number, b: number, unit = ' ms', digits = 1) =>
    Number.isFinite(a) || Number.isFinite(b)
      ? `${Number.isFinite(a) ? a.toFixed(digits) : '-'} / ${Number.isFinite(b) ? b.toFixed(digits) : '-'}${unit}`
      : '-';
  const loadFigure = (f: SizeFigures, pick: (l: Load) => number | null) => {
    const xs = f.loads.map(pick).filter((x): x is number => x !== null && Number.isFinite(x));
    const missing = f.loads.length - xs.length;
    return xs.length === 0
      ? missing
        ? `never (${f.loads.length})`
        : '-'
      : `${ms(median(xs))} (${xs.length}${missing ? `, ${missing} never` : ''})`;
  };
  const base = all[0] as SizeFigures;
  console.log(rule);
  row(
    'figure',
    all.map((f) => f.size.label),
  );
  console.log(rule);
  row(
    'events / nodes in the tree',
    all.map((f) => `${f.run.events} / ${f.run.nodes}`),
  );
  row(
    'export file, stored via',
    all.map((f) => `${mb(f.run.bytes)} ${f.run.via.startsWith('POST') ? 'POST' : 'importRun'}`),
  );
  row(
    'load: nav -> first node painted (median, n)',
    all.map((f) => loadFigure(f, (l) => l.firstPaint)),
  );
  row(
    'load: nav -> usable (median, n)',
    all.map((f) => loadFigure(f, (l) => l.usable)),
  );
  row(
    'load: nav -> history complete (median, n)',
    all.map((f) => loadFigure(f, (l) => l.history)),
  );
  row(
    'load: settled (no long task for 3 s after; median, n)',
    all.map((f) => loadFigure(f, (l) => l.settled)),
  );
  const settledOf = (f: SizeFigures | undefined) =>
    median((f?.loads ?? []).map((l) => l.settled ?? NaN).filter(Number.isFinite));
  row(
    `load: settled vs ${all[0]?.size.label ?? '-'} (target <= 1.5)`,
    all.map((f) => {
      const r = ratio(settledOf(f), settledOf(all[0]));
      return Number.isFinite(r) ? `${r.toFixed(2)}x` : '-';
    }),
  );
  row(
    'load: longest task (median)',
    all.map((f) => ms(median(f.loads.map((l) => l.longestTask)))),
  );
  row(
    'JS heap at usable / after GC (median)',
    all.map((f) =>
      pair(
        median(f.loads.map((l) => l.heapUsed / 1048576)),
        median(f.loads.map((l) => l.heapAfterGc / 1048576)),
        ' MB',
        0,
      ),
    ),
  );
  row(
    'pan frames median / p95',
    all.map((f) => pair(f.pan?.median ?? NaN, f.pan?.p95 ?? NaN)),
  );
  row(
    'zoom fit -> card frames median / p95',
    all.map((f) => pair(f.zoom?.median ?? NaN, f.zoom?.p95 ?? NaN)),
  );
  row(
    `zoom reached (the card's zoom is ${CARD_ZOOM})`,
    all.map((f) => (f.zoom ? `${f.zoom.fromZoom.toFixed(2)} -> ${f.zoom.toZoom.toFixed(2)}` : '-')),
  );
  const seekCell = (xs: number[] | undefined, count: number) =>
    pair(median(xs ?? []), percentile(ascending(xs ?? []), 95), ' ms', 0) +
    (xs && xs.length < count ? ` (${xs.length})` : '');
  row(
    'jump: input -> next paint med / p95 (< 50)',
    all.map((f) => seekCell(f.seeks?.nextPaint, SEEKS)),
  );
  row(
    'jump: input -> canvas drew it med / p95',
    all.map((f) => seekCell(f.seeks?.drawn, SEEKS)),
  );
  row(
    'step: input -> next paint med / p95 (< 16)',
    all.map((f) => seekCell(f.steps?.nextPaint, NEIGHBOUR_SEEKS)),
  );
  row(
    'step: input -> canvas drew it med / p95',
    all.map((f) => seekCell(f.steps?.drawn, NEIGHBOUR_SEEKS)),
  );
  row(
    'an ignored key: input -> next paint med / p95',
    all.map((f) => seekCell(f.idle ?? undefined, NEIGHBOUR_SEEKS)),
  );
  row(
    `jump / step drawn p95 vs ${base.size.label}`,
    all.map((f) =>
      pair(
        ratio(p95Of(f.seeks?.drawn), p95Of(base.seeks?.drawn)),
        ratio(p95Of(f.steps?.drawn), p95Of(base.steps?.drawn)),
        'x',
        2,
      ),
    ),
  );
  row(
    'bare React Flow pan median / p95',
    all.map((f) => pair(f.bare?.median ?? NaN, f.bare?.p95 ?? NaN)),
  );
  row(
    'our pan / bare pan, median / p95',
    all.map((f) =>
      pair(ratio(f.pan?.median ?? NaN, f.bare?.median ?? NaN), ratio(f.pan?.p95 ?? NaN, f.bare?.p95 ?? NaN), 'x', 2),
    ),
  );
  row(
    `pan vs ${base.size.label}, median / p95 (target <= 1.5)`,
    all.map((f) =>
      pair(
        ratio(f.pan?.median ?? NaN, base.pan?.median ?? NaN),
        ratio(f.pan?.p95 ?? NaN, base.pan?.p95 ?? NaN),
        'x',
        2,
      ),
    ),
  );
  row(
    `zoom vs ${base.size.label}, median / p95 (target <= 1.5)`,
    all.map((f) =>
      pair(
        ratio(f.zoom?.median ?? NaN, base.zoom?.median ?? NaN),
        ratio(f.zoom?.p95 ?? NaN, base.zoom?.p95 ?? NaN),
        'x',
        2,
      ),
    ),
  );
  row(
    'time the size took',
    all.map((f) => `${f.seconds.toFixed(0)} s`),
  );
  console.log(rule);
  if (live) {
    console.log(
      `live run at ${live.rate.toFixed(0)} nodes/s (model ${live.latency} ms${live.rate < 25 ? ': the machine could not keep up' : ''}): frames median ${ms1(live.stats.median)} ms, ` +
        `p95 ${ms1(live.stats.p95)} ms, max ${ms1(live.stats.max)} ms, ${live.stats.long} of ${live.stats.frames} over 50 ms`,
    );
  }
  const last = all.at(-1) as SizeFigures;
  if (all.length > 1) {
    console.log(
      `frame time at ${last.size.label} / at ${base.size.label}: pan p95 ${times(ratio(last.pan?.p95 ?? NaN, base.pan?.p95 ?? NaN))}, ` +
        `zoom p95 ${times(ratio(last.zoom?.p95 ?? NaN, base.zoom?.p95 ?? NaN))} (target <= 1.5)`,
    );
  }
}

const p95Of = (xs: number[] | undefined) => percentile(ascending(xs ?? []), 95);

/** bench:ui's headline figures for `npm run bench`'s summary: frame times held flat with size, and the live run's frames. */
function reportUiFigures(all: SizeFigures[], live: { stats: FrameStats; rate: number } | null) {
  const base = all[0];
  const last = all.at(-1);
  const figures: BenchFigure[] = [];
  if (base && last && all.length > 1) {
    const flat = { op: '<=', value: 1.5 } as const;
    const sizes = `${last.size.label} / ${base.size.label}`;
    const pan = ratio(last.pan?.p95 ?? NaN, base.pan?.p95 ?? NaN);
    const zoom = ratio(last.zoom?.p95 ?? NaN, base.zoom?.p95 ?? NaN);
    if (Number.isFinite(pan))
      figures.push({ name: `run page pan frame p95, ${sizes}`, value: pan, unit: 'x', goal: flat });
    if (Number.isFinite(zoom))
      figures.push({ name: `run page zoom frame p95, ${sizes}`, value: zoom, unit: 'x', goal: flat });
  }
  for (const f of all) {
    const seekFigures = [
      { what: 'jump', seeks: f.seeks, goal: 50 },
      { what: 'neighbour step', seeks: f.steps, goal: 16 },
    ];
    for (const { what, seeks, goal } of seekFigures) {
      const nextPaint = p95Of(seeks?.nextPaint);
      const drawn = p95Of(seeks?.drawn);
      if (Number.isFinite(nextPaint))
        figures.push({
          name: `run page ${what} p95, input -> next paint, ${f.size.label}`,
          value: nextPaint,
          unit: 'ms',
          goal: { op: '<', value: goal },
        });
      if (Number.isFinite(drawn))
        figures.push({
          name: `run page ${what} p95, input -> canvas drawn, ${f.size.label}`,
          value: drawn,
          unit: 'ms',
        });
    }
  }
  const usable = last?.loads.map((load) => load.usable).filter((ms): ms is number => ms !== null) ?? [];
  if (last && usable.length) {
    figures.push({
      name: `run page load until usable, ${last.size.label}`,
      value: median(usable),
      unit: 'ms',
      note: 'median',
    });
  }
  if (live) {
    figures.push({
      name: 'live run frame p95',
      value: live.stats.p95,
      unit: 'ms',
      note: `${live.rate.toFixed(0)} nodes/s arriving`,
    });
  }
  reportFigures('ui', figures);
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const sizes = parseSizes(process.env.BENCH_UI_SIZES);
  ensureBuild('the UI benchmark');
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
  const profileDir = process.env.BENCH_UI_PROFILE ? path.resolve(process.env.BENCH_UI_PROFILE) : null;
  if (profileDir) mkdirSync(profileDir, { recursive: true });

  const server = await startBenchServer(PORT, { ARBORIST_MAX_CONCURRENT_RUNS: '4' });
  const bare = await startBareFlowServer();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    const header =
      `Arborist UI benchmark: headless Chromium ${browser.version()} with --disable-gpu (software rendering) on ` +
      `${os.cpus().length} cores shared with the server (next start on :${PORT}), ${VIEWPORT.width}x${VIEWPORT.height}`;
    console.log(
      `${header}; sizes ${sizes.map((s) => s.label).join(', ')}; load average ${os.loadavg()[0]?.toFixed(1)} at the start\n`,
    );

    // first, while the server has nothing else on its hands (after the 100k run it is still collecting garbage)
    progress('live run: calibrating the model latency for ~50 nodes/s…');
    let live: { stats: FrameStats; rate: number; latency: number } | null = null;
    if (PASSES.has('live'))
      try {
        const { latency, probes } = await calibrate(server, browser, LIVE_TARGET_NODES_PER_S);
        progress(`live run: model latency ${latency} ms (${probes.join(', ')})`);
        const measured = await bounded(liveRun(server, browser, latency, LIVE_MS), 'live pass');
        live = { stats: frameStats(measured.frames), rate: measured.nodesPerSecond, latency };
        progress(
          `live run: ${measured.created} nodes created in ${measured.seconds.toFixed(1)} s; cards on the page ` +
            `${measured.cardsBefore} -> ${measured.cardsAfter}`,
        );
      } catch (error) {
        progress(`live run: no figure (${(error as Error).message.split('\n')[0]})`);
      }

    if (PASSES.has('live-large'))
      try {
        const latency = LIVE_LARGE_LATENCY_MS;
        progress(`large live run: model latency ${latency} ms; growing a run to ${LIVE_LARGE_NODES} nodes…`);
        const large = await liveLargeRun(server, browser, latency, profileDir ? { browser, dir: profileDir } : null);
        progress(
          `large live run: the page open on ${large.nodesAtStart} nodes, the run adding ` +
            `${large.nodesPerSecond.toFixed(0)} nodes/s: frames median ${ms1(large.stats.median)} ms, p95 ` +
            `${ms1(large.stats.p95)} ms (target < 20), max ${ms1(large.stats.max)} ms, ${large.stats.long} of ` +
            `${large.stats.frames} over 50 ms`,
        );
      } catch (error) {
        progress(`large live run: no figure (${(error as Error).message.split('\n')[0]})`);
      }

    const all: SizeFigures[] = [];
    for (const [i, size] of sizes.entries()) all.push(await measureSize(browser, server, bare.base, size, i === 0));

    console.log(`\n${header}; load average ${os.loadavg()[0]?.toFixed(1)} at the end`);
    printTable(all, live);
    reportUiFigures(all, live);

    if (profileDir) {
      const largest = all.at(-1) as SizeFigures;
      console.log(
        `\nprofiles: one more load, pan and seeks of the ${largest.size.label} run and a live pass under a trace and a CPU ` +
          `profile (their overhead included), in ${profileDir}`,
      );
      const profiling = { browser, dir: profileDir };
      const expect = { status: 'finished', total: String(largest.run.total), events: largest.run.events };
      const again = await newPage(browser, expect, { countRenders: true });
      const load = await profiled(
        profiling,
        again.page,
        `load-${largest.size.label}`,
        async () => {
          await again.page.goto(`${server.base}/runs/${largest.run.id}`, { waitUntil: 'commit' });
          return waitLoaded(again.page, loadTimeoutMs(largest.size.events));
        },
        { trace: (largest.loads[0]?.usable ?? Infinity) < 20_000 },
      );
      console.log(`  (this load: usable ${ms(load.usable ?? NaN)}${load.gaveUp ? `, ${load.gaveUp}` : ''})`);
      await sleep(1_000);
      const from = await panePoint(again.page); // its hit tests are not part of the pan
      await profiled(profiling, again.page, `pan-${largest.size.label}`, () => pan(again.page, PAN_MS, from));
      await profiled(profiling, again.page, `seek-${largest.size.label}`, async () => {
        const jumps = await jumpAround(again.page);
        const steps = await stepAround(again.page);
        console.log(
          `  (under the profiler: jumps median ${ms(median(jumps.times))}, steps median ${ms(median(steps.times))})`,
        );
      });
      await again.context.close();
      if (live) await bounded(liveRun(server, browser, live.latency, LIVE_MS, profiling), 'profiled live pass');
    }
    progress('done');
  } finally {
    await browser?.close().catch(() => undefined);
    await bare.close();
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
