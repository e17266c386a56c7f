/**
 * `npm run bench:views`: what one step costs the run page's whole-tree views, without a browser, printed, never
 * asserted. For finished runs of about BENCH_VIEWS_SIZES events (default 1k,10k,100k; built by the engine as bench:ui
 * builds them), read into a run store, then 30 jumps to random steps and 30 steps to the neighbouring step, each
 * timed per part: the store's seek, the canvas model's layout (through the page's memo, built on every step: which
 * items are shown, their positions, kept when the shape shown has not changed, and which item stands for each node), React Flow's elements (the near zoom levels), the far level's scene, the subtree rollups and the
 * overview's icicle. Medians, and beside each size its ratio to the smallest.
 * Not a test, and not the page: React, style and paint are bench:ui's.
 */
import { type CanvasModel, canvasViewOf, computeIcicle, createCanvasModelMemo, rollupsFor } from '../layout/index';
import { searchEvents } from '../harness/index';
import { createRunStore } from '../store/index';
import { median, parseSizes } from './ui-figures';

const PARTS = ['seek', 'layout', 'flow elements', 'scene', 'rollups', 'icicle'] as const;
type Part = (typeof PARTS)[number];
const STEPS = 30;

function timed(times: Record<Part, number[]>, part: Part, work: () => unknown) {
  const t0 = performance.now();
  work();
  times[part].push(performance.now() - t0);
}

async function main() {
  const sizes = parseSizes(process.env.BENCH_VIEWS_SIZES);
  const rows: { label: string; jump: Record<Part, number>; step: Record<Part, number> }[] = [];
  for (const size of sizes) {
    const { events } = await searchEvents(size.events);
    const store = createRunStore('bench');
    store.getState().receiveMany(events);
    store.getState().flush();
    const measure = (next: (seq: number) => number) => {
      // the page's memo: a step that changes no shape keeps its placement
      const memo = createCanvasModelMemo();
      const times = Object.fromEntries(PARTS.map((p) => [p, [] as number[]])) as Record<Part, number[]>;
      let seq = Math.floor(events.length / 2);
      for (let i = 0; i < STEPS; i++) {
        seq = next(seq);
        timed(times, 'seek', () => store.getState().seek(seq));
        const s = store.getState();
        let model: CanvasModel | null = null;
        timed(times, 'layout', () => {
          model = memo(s.tree, s.version, canvasViewOf(s, null, { orientation: 'tb', mode: 'tree' }));
        });
        const built = model as unknown as CanvasModel;
        timed(times, 'flow elements', () => built.nodes);
        timed(times, 'scene', () => built.scene);
        timed(times, 'rollups', () => rollupsFor(s.tree));
        timed(times, 'icicle', () => computeIcicle(s.tree));
      }
      return Object.fromEntries(PARTS.map((p) => [p, median(times[p])])) as Record<Part, number>;
    };
    // seeded by position, not by chance: the same steps on every run of the bench
    let k = 0;
    const jump = measure(() => 1 + Math.floor((((++k * 7919) % 997) / 997) * events.length));
    const step = measure((seq) => Math.min(events.length, seq + 1));
    rows.push({
      label: `${size.label} (${events.length} events, ${store.getState().tree.nodeOrder.length} nodes)`,
      jump,
      step,
    });
  }
  const base = rows[0];
  for (const kind of ['jump', 'step'] as const) {
    console.log(
      `\n${kind === 'jump' ? 'a jump to a random step' : 'a step to the neighbouring step'}: median ms (x the smallest size)`,
    );
    console.log(`${'size'.padEnd(42)}${PARTS.map((p) => p.padStart(15)).join('')}`);
    for (const row of rows) {
      const cells = PARTS.map((p) => {
        const v = row[kind][p];
        const r = base ? v / Math.max(base[kind][p], 0.01) : NaN;
        return `${v.toFixed(1)} (${r.toFixed(0)}x)`.padStart(15);
      });
      console.log(`${row.label.padEnd(42)}${cells.join('')}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
