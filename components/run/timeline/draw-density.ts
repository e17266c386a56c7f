// Paints the timeline's density on its canvas: per pixel column a small stacked histogram of the events by kind
// (lib/store's MomentDensity columns and stackHeights), then on top backtracks and a person's commands as tall lines
// and the selected node's events as a tick along the top edge. Breakpoint hits are not drawn here (HitMarks.tsx).
// Not responsible for when to draw or for the hover (TimelineMarks.tsx), nor for counting (lib/store).
import { DENSITY_KINDS, densitySlot, stackHeights, type DensityColumns, type MomentKind } from '@/lib/store/index';

/** Each kind's colour, a CSS variable of the theme (app/globals.css), read by densityColours. */
const COLORS: Record<MomentKind, string> = {
  expansion: '--st-running',
  prune: '--st-dropped',
  backtrack: '--st-pruned',
  verified: '--st-verified',
  failed: '--st-failed',
  command: '--best',
  step: '--border-strong',
  other: '--border',
};
/** Rare moments a person looks for, drawn the whole height over the histogram so no stack can hide them. */
const TALL: readonly MomentKind[] = ['backtrack', 'command'];
const SELECTED = '--focus';
/** The band along the top kept for the selected node's ticks, so they never sit on a bar. */
const TICK = 3;

/** One column's x on the canvas: a 1 px border each side, as the hit markers assume (`calc(1px + ...)`). */
export const COLUMN_X0 = 1;

/** The colours the density is drawn in, as the theme has them now. */
export interface DensityColours {
  kinds: Record<MomentKind, string>;
  selected: string;
}

/**
 * Reads the theme's colours for the density. Its caller reads them again when the theme changes, not per draw: a
 * computed style read while the page has changed since the last frame makes the browser restyle the page there and then.
 */
export function densityColours(el: Element): DensityColours {
  const style = getComputedStyle(el);
  const color = (name: string) => style.getPropertyValue(name).trim() || '#888';
  const kinds = {} as Record<MomentKind, string>;
  for (const kind of DENSITY_KINDS) kinds[kind] = color(COLORS[kind]);
  return { kinds, selected: color(SELECTED) };
}

export function drawDensity(
  el: HTMLCanvasElement,
  size: { width: number; height: number },
  colours: DensityColours,
  columns: DensityColumns,
  selectedSeqColumns: Uint8Array | null,
): void {
  const { width, height } = size;
  const ratio = window.devicePixelRatio || 1;
  el.width = Math.max(1, Math.floor(width * ratio));
  el.height = Math.max(1, Math.floor(height * ratio));
  const ctx = el.getContext('2d');
  if (!ctx || width === 0) return;
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, width, height);
  const K = DENSITY_KINDS.length;
  const w = columns.width;
  const barMax = height - TICK - 1;
  const heights = new Float32Array(w * K);
  const segment = new Float32Array(K);
  for (let x = 0; x < w; x++) heights.set(stackHeights(columns.counts, x * K, columns.busiest, barMax, segment), x * K);
  // stacked bottom-up in DENSITY_KINDS order: one fill colour per kind, not per column
  const base = new Float32Array(w);
  DENSITY_KINDS.forEach((kind, k) => {
    ctx.fillStyle = colours.kinds[kind];
    for (let x = 0; x < w; x++) {
      const h = heights[x * K + k] as number;
      if (h <= 0) continue;
      const b = base[x] as number;
      ctx.fillRect(x + COLUMN_X0, height - b - h, 1, h);
      base[x] = b + h;
    }
  });
  for (const kind of TALL) {
    ctx.fillStyle = colours.kinds[kind];
    const slot = densitySlot(kind);
    for (let x = 0; x < w; x++)
      if ((columns.counts[x * K + slot] as number) > 0) ctx.fillRect(x + COLUMN_X0, 0, 1.5, height);
  }
  if (selectedSeqColumns) {
    ctx.fillStyle = colours.selected;
    for (let x = 0; x < w; x++) if (selectedSeqColumns[x]) ctx.fillRect(x + COLUMN_X0 - 0.5, 0, 2, TICK);
  }
}
