/**
 * `npm run bench:playback`: how long the run page takes to play a recorded run from its first step to its last, by
 * search step and by event, at the timeline's speeds. Printed, never asserted. A finished run of about
 * BENCH_PLAYBACK_EVENTS events (default 30,000) is built by the engine and stored through the import path
 * (lib/harness/recorded-runs.ts); the page is opened in headless Chromium, the history let in whole, then for each pass the timeline is
 * set to the unit and speed, scrubbed to step 0 and played until the play button shows again (the end). A pass is
 * stopped after BENCH_PLAYBACK_BUDGET_S seconds (default 180) and reported as the share it covered. While it plays, an
 * animation-frame loop in the page records the frame times and counts the steps drawn: distinct steps the timeline
 * showed, and distinct steps the canvas drew (its data-drawn-seq), per second (the player passes over steps it has no
 * time to draw, so the run's time alone says nothing of how many were seen).
 * BENCH_PLAYBACK_PASSES=event-10,step-2 plays only those passes (unit-speed).
 * The production server runs on BENCH_PLAYBACK_PORT (3610) with its own temp database. BENCH_PLAYBACK_PROFILE=<dir>
 * records each pass under a Chromium trace and a V8 CPU profile of the page, writes them there and prints where the
 * time went.
 * Not a test; builds the app first if there is no build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { summariseCpuProfile, summariseTrace, TRACE_CATEGORIES } from './ui-profile';
import { frameStats } from './ui-figures';
import { CHROMIUM_ARGS, ensureBuild, findChromium, recordRun, startBenchServer } from '../harness/index';

const PORT = Number(process.env.BENCH_PLAYBACK_PORT ?? 3610);
const EVENTS = Number(process.env.BENCH_PLAYBACK_EVENTS ?? 30_000);
const BUDGET_MS = Number(process.env.BENCH_PLAYBACK_BUDGET_S ?? 180) * 1000;
const PROFILE_DIR = process.env.BENCH_PLAYBACK_PROFILE ? path.resolve(process.env.BENCH_PLAYBACK_PROFILE) : null;
const PASSES: { unit: 'step' | 'event'; speed: string }[] = [
  { unit: 'step', speed: '10' },
  { unit: 'step', speed: '2' },
  { unit: 'event', speed: '10' },
];

async function main() {
  ensureBuild('the playback benchmark');
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
  const server = await startBenchServer(PORT);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const run = await recordRun(server, EVENTS, 'playback');
    console.log(`run of ${run.events} events, ${run.nodes} nodes (${run.via})`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // as source text: tsx names functions through an __name helper that the page does not have
    await page.addInitScript({ content: `var __name = (f) => f;\n(${installPlayRecorder.toString()})();` });
    await page.goto(`${server.base}/runs/${run.id}`);
    await page
      .getByTestId('timeline-position')
      .filter({ hasText: `${run.events} / ${run.events}` })
      .waitFor();
    await page.getByTestId('timeline-loading').waitFor({ state: 'detached', timeout: 120_000 });
    // BENCH_PLAYBACK_PASSES=event-10,step-2: only those (unit-speed)
    const only = process.env.BENCH_PLAYBACK_PASSES?.split(',').map((p) => p.trim());
    for (const pass of PASSES.filter((p) => !only || only.includes(`${p.unit}-${p.speed}`))) {
      await page.getByTestId('play-unit').selectOption(pass.unit);
      await page.getByLabel('Playback speed').selectOption(pass.speed);
      await page.getByTestId('scrubber').fill('0');
      await page.getByTestId('timeline-position').filter({ hasText: 'step 0 /' }).waitFor();
      const cdp = PROFILE_DIR ? await page.context().newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        await cdp.send('Profiler.start');
      }
      const t0 = performance.now();
      await page.evaluate(() => window.__play.start());
      await page.getByTestId('timeline-play').click();
      // the end as the page's own frame loop sees it, asked twice a second: Playwright's waitFor polls the DOM every
      // frame, and on a page of 5k nodes that was a third of each frame's time taken from the page being measured
      const ended = await page
        .waitForFunction(() => window.__play.ended(), null, { timeout: BUDGET_MS, polling: 500 })
        .then(() => true)
        .catch(() => false);
      const seconds = (performance.now() - t0) / 1000;
      const played = await page.evaluate(() => window.__play.stop());
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        const trace = await browser.stopTracing();
        await cdp.detach();
        const dir = PROFILE_DIR as string; // a session is opened only with a profile folder
        mkdirSync(dir, { recursive: true });
        const name = `playback-${pass.unit}-${pass.speed}x`;
        writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
        writeFileSync(path.join(dir, `${name}.trace.json`), trace);
        summariseTrace(trace, played.seconds * 1000, `${name}.trace.json`);
        summariseCpuProfile(profile, `${name}.cpuprofile`);
      }
      const frames = frameStats(played.frames);
      const drawn =
        `; steps drawn: ${(played.shown / played.seconds).toFixed(0)}/s by the timeline, ` +
        `${(played.drawn / played.seconds).toFixed(0)}/s by the canvas (target >= 60); frames median ` +
        `${frames.median.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms (target < 20)`;
      if (ended) {
        console.log(`by ${pass.unit} at ${pass.speed}x: the whole run in ${seconds.toFixed(1)} s${drawn}`);
        continue;
      }
      await page.getByTestId('timeline-play').click(); // pause
      const at = Number(await page.getByTestId('timeline-position').locator('b').textContent());
      console.log(
        `by ${pass.unit} at ${pass.speed}x: stopped after ${seconds.toFixed(0)} s at step ${at} of ${run.events} ` +
          `(${((100 * at) / run.events).toFixed(1)}%; the whole run would take ~${((seconds * run.events) / Math.max(at, 1) / 60).toFixed(1)} min)${drawn}`,
      );
    }
  } finally {
    await browser.close();
    server.stop();
  }
}

declare global {
  interface Window {
    __play: {
      start: () => void;
      /** The play button says play again (the end, or a pause). */
      ended: () => boolean;
      stop: () => { frames: number[]; shown: number; drawn: number; seconds: number };
    };
  }
}

/** In the page before its scripts: one animation-frame loop recording frame times and the steps shown and drawn. */
function installPlayRecorder() {
  let recording = false;
  let since = 0;
  let last = 0;
  let frames: number[] = [];
  let shown = new Set<string>();
  let drawn = new Set<string>();
  // seen playing since start(), and stopped since
  let seenPlaying = false;
  let stopped = false;
  const tick = (t: number) => {
    if (recording) {
      if (last) frames.push(t - last);
      last = t;
      const position = document.querySelector('[data-testid="timeline-position"] b')?.textContent;
      if (position) shown.add(position);
      const seq = (document.querySelector('.react-flow') as HTMLElement | null)?.dataset.drawnSeq;
      if (seq) drawn.add(seq);
      const playing = document.querySelector('[data-testid="timeline-play"]')?.textContent !== '▶ play';
      if (playing) seenPlaying = true;
      else if (seenPlaying) stopped = true;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  window.__play = {
    start: () => {
      recording = true;
      since = performance.now();
      last = 0;
      frames = [];
      shown = new Set();
      drawn = new Set();
      seenPlaying = false;
      stopped = false;
    },
    ended: () => stopped,
    stop: () => {
      recording = false;
      return { frames, shown: shown.size, drawn: drawn.size, seconds: (performance.now() - since) / 1000 };
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
