/**
 * `npx tsx lib/bench/overview.ts`: how long the overview takes to compute and draw at 10k and 100k nodes, in
 * Chromium (CHROMIUM_PATH or the system's, software rendering, like bench:ui). Bundles overview-page.ts with esbuild
 * into a bare page and prints medians. Figures are printed, never asserted.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../harness/index';

async function main() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium: set CHROMIUM_PATH');
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'overview-page.ts')],
    bundle: true,
    format: 'iife',
    write: false,
    tsconfig: path.join(import.meta.dirname, '../../tsconfig.json'),
  });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    for (const size of [10_000, 100_000]) {
      const figures = await page.evaluate(
        (n) => (window as never as { benchOverview(n: number): object }).benchOverview(n),
        size,
      );
      const f = figures as Record<string, number | string>;
      const ms = (k: string) => `${Number(f[k]).toFixed(1)} ms`;
      console.log(
        `${f.nodes} nodes, ${f.rows} rows: icicle ${ms('icicleMs')}, colours ${ms('statusColoursMs')} (status) ` +
          `${ms('costColoursMs')} (cost); cells small 232x96 ${ms('smallCellsMs')} (${f.smallRects} rects), ` +
          `large 704x330 ${ms('largeCellsMs')} (${f.largeRects} rects); marks with 500 hits ${ms('smallMarksMs')} / ` +
          `${ms('largeMarksMs')}; hit test ${f.hitTestUs} µs (medians, devicePixelRatio 2)`,
      );
    }
  } finally {
    await browser.close();
  }
}

void main();
