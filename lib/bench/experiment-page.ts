/**
 * `npm run bench:experiment-page`: how long the experiment page takes to open with 300 cells, in headless Chromium
 * against the built app (`next start` on a fresh database), printed, never asserted. The experiment is made through
 * the app's own API (the shipped Game of 24 puzzles 900-999 x 3 configurations on the simulated model, latency 0)
 * and run to the end first; then the page is opened ROUNDS times in a fresh tab each, timed from navigation to the
 * moment every one of its 300 grid cells is drawn and the figures' table is there, and to when the main thread has
 * had no long task for 1 s (settled). Beside it, the same for the runs list, the page a person knows.
 * Not a test; not responsible for the server-side figures (bench:experiments).
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, ensureBuild, findChromium, freePort, startBenchServer } from '../harness/index';
import { reportFigures } from './figures';
import { median } from './percentile';

const ROUNDS = 7;
const QUIET_MS = 1_000;

interface PageTiming {
  /** Navigation start to the page's content drawn (the cells, or the runs list's rows). */
  drawnMs: number;
  /** Navigation start to the end of the last long task before QUIET_MS without one. */
  settledMs: number;
}

async function timePage(browser: Browser, url: string, drawn: string, count: number): Promise<PageTiming> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: { start: number; end: number }[] };
      w.__longTasks = [];
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, end: e.startTime + e.duration });
        }).observe({ type: 'longtask', buffered: true });
      } catch {
        // no long task timing in this browser
      }
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      ([selector, n]) => document.querySelectorAll(selector as string).length >= (n as number),
      [drawn, count] as const,
      { timeout: 60_000, polling: 'raf' },
    );
    const drawnMs = await page.evaluate(() => performance.now());
    // settled: no long task for QUIET_MS
    for (;;) {
      const { now, lastEnd } = await page.evaluate(() => {
        const tasks = (window as unknown as { __longTasks: { end: number }[] }).__longTasks;
        return { now: performance.now(), lastEnd: tasks.length ? Math.max(...tasks.map((t) => t.end)) : 0 };
      });
      if (now - Math.max(lastEnd, drawnMs) >= QUIET_MS) return { drawnMs, settledMs: Math.max(lastEnd, drawnMs) };
      await page.waitForTimeout(100);
    }
  } finally {
    await page.close();
  }
}

async function main() {
  ensureBuild('bench:experiment-page');
  const server = await startBenchServer(await freePort(), { ARBORIST_MAX_CONCURRENT_RUNS: '4' });
  let browser: Browser | null = null;
  try {
    const dataset = await server.post<{ id: string; itemCount: number }>('dataset.create', {
      name: 'game24:900-999',
      taskId: 'game24',
      shipped: 'game24:900-999',
    });
    const { id } = await server.post<{ id: string }>('experiment.create', {
      name: 'bench: page',
      taskId: 'game24',
      datasetId: dataset.id,
      configurations: [1, 3, 5].map((b) => ({
        label: `b${b}`,
        config: { beamWidth: b, branchFactor: b },
        model: { provider: 'simulated', seed: 1, latencyMs: 0 },
      })),
    });
    const cells = dataset.itemCount * 3;
    for (;;) {
      const view = await server.query<{ status: string; progress: { done: number } }>('experiment.byId', { id });
      if (view.status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const executablePath = findChromium();
    if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium');
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
    // one visit first, not counted: the server compiles nothing (a build), but its first reads warm the database
    await timePage(browser, `${server.base}/experiments/${id}`, '[data-testid="grid-cell"]', cells);
    const experiment: PageTiming[] = [];
    const runsList: PageTiming[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      experiment.push(await timePage(browser, `${server.base}/experiments/${id}`, '[data-testid="grid-cell"]', cells));
      runsList.push(await timePage(browser, `${server.base}/`, '[data-testid="run-row"]', 20));
    }
    const med = (xs: PageTiming[], key: keyof PageTiming) => median(xs.map((x) => x[key]));
    console.log(
      `experiment page, ${cells} cells (${dataset.itemCount} puzzles x 3 configurations), headless Chromium, ` +
        `${ROUNDS} rounds (medians):\n` +
        `  every cell drawn   ${med(experiment, 'drawnMs').toFixed(0).padStart(6)} ms\n` +
        `  settled            ${med(experiment, 'settledMs').toFixed(0).padStart(6)} ms (no long task for ${QUIET_MS} ms after)\n` +
        `the runs list (its first 20 rows of the ${cells} runs), beside it:\n` +
        `  rows drawn         ${med(runsList, 'drawnMs').toFixed(0).padStart(6)} ms\n` +
        `  settled            ${med(runsList, 'settledMs').toFixed(0).padStart(6)} ms`,
    );
    reportFigures('experiments', [
      { name: `experiment page, ${cells} cells: drawn`, value: Math.round(med(experiment, 'drawnMs')), unit: 'ms' },
      { name: `experiment page, ${cells} cells: settled`, value: Math.round(med(experiment, 'settledMs')), unit: 'ms' },
      { name: 'runs list: settled (beside it)', value: Math.round(med(runsList, 'settledMs')), unit: 'ms' },
    ]);
  } finally {
    await browser?.close();
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
