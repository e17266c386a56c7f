/**
 * The browser half of `npx tsx lib/bench/overview.ts`: builds a synthetic tree with the engine's reduce, then times
 * the overview's work the way the page does it (icicle, colours, drawing the cells on a canvas at the screen's
 * density, drawing the marks, hit-tests). Bundled by the runner and run in a bare Chromium page; figures are
 * returned, never asserted. Not part of the app.
 */
import type { ExplorationEvent } from '../contract/events';
import { fold } from '../engine/index';
import {
  cellColours,
  computeIcicle,
  drawCells,
  drawMarks,
  icicleCellAt,
  palette,
  prepare,
  rowHeight,
} from '../layout/index';

/** A ToT-shaped random tree: breadth-first, each node 0..5 children, scores and statuses varied. */
function syntheticTree(size: number) {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const events: ExplorationEvent[] = [];
  const queue: number[] = [];
  const add = (parent: number | null) => {
    const i = events.length;
    const composite = rand();
    events.push({
      runId: 'bench',
      seq: i + 1,
      ts: 0,
      type: 'node.created',
      payload: {
        nodeId: `n${i}`,
        parentId: parent === null ? null : `n${parent}`,
        branch: parent === null ? null : { thought: `idea ${i}`, proposedAction: { type: 'response', content: '' } },
        score:
          parent === null
            ? null
            : {
                confidence: composite,
                progress: composite,
                novelty: composite,
                composite,
                reasoning: '',
                fallback: false,
              },
      },
    });
    queue.push(i);
  };
  add(null);
  while (events.length < size && queue.length > 0) {
    const parent = queue.shift()!;
    const k = Math.floor(rand() * 6);
    for (let c = 0; c < k && events.length < size; c++) add(parent);
    if (queue.length === 0 && events.length < size) add(parent);
  }
  const tree = fold(events);
  // statuses as a finished run has them (bench only: a real run gets them from its events)
  const statuses = ['completed', 'failed', 'pending', 'completed', 'pruned'] as const;
  for (const id of tree.nodeOrder) {
    const node = tree.nodes[id]!;
    node.status = statuses[Math.floor(rand() * statuses.length)]!;
    node.usage = { inputTokens: Math.floor(rand() * 900), outputTokens: 40, cost: rand() * 0.001, unpricedCalls: 0 };
  }
  return tree;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(runs: number, f: () => void): number {
  const ms: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function bench(size: number) {
  const tree = syntheticTree(size);
  const canvas = document.createElement('canvas');
  document.body.append(canvas);
  const style = getComputedStyle(document.documentElement);
  const result: Record<string, number | string> = { nodes: tree.nodeOrder.length };
  let layout = computeIcicle(tree);
  result.rows = layout.rows.length;
  result.icicleMs = time(7, () => (layout = computeIcicle(tree)));
  let colours = cellColours(layout, 'status');
  result.statusColoursMs = time(7, () => (colours = cellColours(layout, 'status')));
  result.costColoursMs = time(7, () => cellColours(layout, 'cost'));
  for (const [name, w, h] of [
    ['small', 232, 96],
    ['large', 704, 330],
  ] as const) {
    let drawn = 0;
    result[`${name}CellsMs`] = time(9, () => {
      const ctx = prepare(canvas, w, h, 2)!;
      drawn = drawCells(ctx, layout, w, h, colours.bucket, palette(style, 'status'), 2);
      ctx.getImageData(0, 0, 1, 1); // wait for the pixels, not just the commands
    });
    result[`${name}Rects`] = drawn;
    const hits = Array.from({ length: 500 }, (_, k) => Math.floor((k * layout.ids.length) / 500));
    result[`${name}MarksMs`] = time(9, () => {
      const ctx = prepare(canvas, w, h, 2)!;
      drawMarks(
        ctx,
        layout,
        w,
        h,
        {
          view: { d0: 2, x0: [0.2, 0.25, 0.3], x1: [0.4, 0.35, 0.32] },
          hits,
          active: hits[3]!,
          selected: 5,
          hovered: 9,
        },
        { view: '#2563eb', hit: '#000', active: '#7c3aed', selected: '#2563eb', hovered: '#000' },
      );
      ctx.getImageData(0, 0, 1, 1);
    });
    if (name === 'large') {
      const rowH = rowHeight(layout, h);
      const t = performance.now();
      for (let k = 0; k < 10_000; k++) icicleCellAt(layout, (k * 0.6180339) % 1, Math.floor(((k * 7) % h) / rowH));
      result.hitTestUs = (((performance.now() - t) / 10_000) * 1000).toFixed(2);
    }
  }
  canvas.remove();
  return result;
}

(window as unknown as { benchOverview: typeof bench }).benchOverview = bench;
