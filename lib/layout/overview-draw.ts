/**
 * Draws the overview on 2D canvases: the cells (a base layer, redrawn when the tree, the colouring, the size or the
 * theme changes) and the marks (an overlay: the view's rectangle, search hits, the nodes people discussed, the
 * selected and hovered node, redrawn when those move). Both are devicePixelRatio aware. The cells are filled one path per colour, so a frame
 * is a handful of fill calls whatever the tree's size; sub-pixel cells are culled by forEachDrawnCell.
 * React-free (the bench drives it in a bare page). Not responsible for geometry (lib/layout/icicle.ts) or for
 * choosing colours (overview-colours.ts). Drawn by components/run/overview/Overview.tsx and bench:overview.
 */
import { forEachDrawnCell, type IcicleLayout, type ViewExtent } from './icicle';

/** Prepares a canvas for drawing in CSS pixels at the screen's density. */
export function prepare(canvas: HTMLCanvasElement, width: number, height: number, dpr: number) {
  const w = Math.max(1, Math.round(width * dpr));
  const h = Math.max(1, Math.round(height * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** Height of a depth row in CSS pixels (rows share the height equally). */
export function rowHeight(layout: IcicleLayout, height: number): number {
  return height / Math.max(1, layout.rows.length);
}

/**
 * Draws every cell; returns how many rectangles it drew (the culled count, exposed for tests). Rectangles are
 * collected per colour, then each colour's are filled in one batch with edges snapped to device pixels: axis-aligned
 * whole-pixel rectangles take the rasteriser's fast path (one Path2D of thousands of fractional rectangles took
 * 50-100 ms to rasterise in software Chromium, these take a few).
 */
export function drawCells(
  ctx: CanvasRenderingContext2D,
  layout: IcicleLayout,
  width: number,
  height: number,
  bucket: Uint8Array,
  colours: readonly string[],
  dpr = 1,
): number {
  const rowH = rowHeight(layout, height);
  const snap = (v: number) => Math.round(v * dpr) / dpr;
  const batches = colours.map(() => [] as number[]);
  const gapY = rowH >= 6 ? 1 : 0;
  let drawn = 0;
  let lastPixelRow = -1;
  for (let d = 0; d < layout.rows.length; d++) {
    const y = d * rowH;
    // rows thinner than a pixel: one row per pixel row (the one above covers its descendants' spans)
    if (rowH < 1) {
      if (Math.floor(y) === lastPixelRow) continue;
      lastPixelRow = Math.floor(y);
    }
    const y0 = snap(y);
    const y1 = Math.max(y0 + 1 / dpr, snap(y + rowH - gapY));
    forEachDrawnCell(layout, d, width, (cell, px0, px1) => {
      const x0 = snap(px0);
      // a hairline between cells wide enough to spare it
      const x1 = Math.max(x0 + 1 / dpr, snap(px1 - px0 >= 4 ? px1 - 1 : px1));
      batches[bucket[cell] ?? 0]?.push(x0, y0, x1 - x0, y1 - y0);
      drawn++;
    });
  }
  batches.forEach((rects, k) => {
    if (rects.length === 0) return;
    ctx.fillStyle = colours[k] as string;
    for (let r = 0; r < rects.length; r += 4) ctx.fillRect(rects[r]!, rects[r + 1]!, rects[r + 2]!, rects[r + 3]!);
  });
  return drawn;
}

export interface Marks {
  view: ViewExtent | null;
  hits: readonly number[];
  /** Cells of nodes with comments or labels: a corner mark each. */
  discussed?: readonly number[];
  active: number;
  selected: number;
  hovered: number;
}

export interface MarkColours {
  view: string;
  hit: string;
  discussed?: string;
  /** Drawn round a discussed cell's corner, so it stands out on any status colour (the page's surface). */
  discussedHalo?: string;
  active: string;
  selected: string;
  hovered: string;
}

/** Outlines a cell, at least 3 px wide so a sub-pixel cell's mark still shows. */
function cellRect(layout: IcicleLayout, cell: number, width: number, rowH: number) {
  const x0 = layout.x0[cell]! * width;
  const w = Math.max(3, layout.x1[cell]! * width - x0);
  const x = Math.min(x0, width - w);
  return { x, y: layout.depth[cell]! * rowH, w, h: Math.max(3, rowH) };
}

export function drawMarks(
  ctx: CanvasRenderingContext2D,
  layout: IcicleLayout,
  width: number,
  height: number,
  marks: Marks,
  colours: MarkColours,
): void {
  const rowH = rowHeight(layout, height);
  if (marks.view) {
    // one stepped outline: down the left edges of the rows in view, back up the right edges
    const { d0, x0, x1 } = marks.view;
    const outline = new Path2D();
    const rows = x0.length;
    for (let r = 0; r < rows; r++) {
      const x = Math.min(x0[r]! * width, width - 4);
      outline.lineTo(x, (d0 + r) * rowH);
      outline.lineTo(x, (d0 + r + 1) * rowH);
    }
    for (let r = rows - 1; r >= 0; r--) {
      const x = Math.max(x1[r]! * width, x0[r]! * width + 4);
      outline.lineTo(x, (d0 + r + 1) * rowH);
      outline.lineTo(x, (d0 + r) * rowH);
    }
    outline.closePath();
    ctx.globalAlpha = 0.16;
    ctx.fillStyle = colours.view;
    ctx.fill(outline);
    ctx.globalAlpha = 1;
    ctx.lineWidth = 2;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = colours.view;
    ctx.stroke(outline);
  }
  if (marks.hits.length > 0) {
    // every hit: a frame round the cell and a tick above it, visible however narrow the cell; whole-pixel fills
    // (the rasteriser's fast path) so thousands of hits cost a few milliseconds
    ctx.fillStyle = colours.hit;
    for (const cell of marks.hits) {
      const r = cellRect(layout, cell, width, rowH);
      const x = Math.round(r.x);
      const y = Math.round(r.y);
      const w = Math.round(r.w);
      const h = Math.round(r.h);
      ctx.fillRect(x, y, w, 1);
      ctx.fillRect(x, y + h - 1, w, 1);
      ctx.fillRect(x, y, 1, h);
      ctx.fillRect(x + w - 1, y, 1, h);
      ctx.fillRect(x + Math.floor(w / 2) - 1, Math.max(0, y - 3), 2, 3);
    }
  }
  if (marks.discussed && marks.discussed.length > 0) {
    // a folded corner at each discussed cell's top right, as large as the cell allows (4 to 9 px), edged in the
    // page's surface colour so it reads on every status colour
    const corner = (x: number, y: number, size: number) => {
      ctx.beginPath();
      ctx.moveTo(x - size, y);
      ctx.lineTo(x, y);
      ctx.lineTo(x, y + size);
      ctx.closePath();
      ctx.fill();
    };
    for (const cell of marks.discussed) {
      const r = cellRect(layout, cell, width, rowH);
      const size = Math.max(4, Math.min(9, r.w / 2, r.h / 2));
      if (colours.discussedHalo) {
        ctx.fillStyle = colours.discussedHalo;
        corner(r.x + r.w, r.y, size + 2.5);
      }
      ctx.fillStyle = colours.discussed ?? colours.hit;
      corner(r.x + r.w, r.y, size);
    }
  }
  const outline = (cell: number, colour: string, lineWidth: number) => {
    if (cell < 0) return;
    const r = cellRect(layout, cell, width, rowH);
    ctx.lineWidth = lineWidth;
    ctx.strokeStyle = colour;
    ctx.strokeRect(r.x + lineWidth / 2, r.y + lineWidth / 2, r.w - lineWidth, r.h - lineWidth);
  };
  outline(marks.hovered, colours.hovered, 1);
  outline(marks.active, colours.active, 2);
  outline(marks.selected, colours.selected, 2);
}
