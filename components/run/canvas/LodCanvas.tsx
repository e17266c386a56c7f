'use client';
/**
 * The far-zoom level of the canvas: when text would be too small to read, React Flow gets no nodes at all and this
 * one <canvas> draws every item as a box coloured by status, darker across as much of its width as its score,
 * the hidden nodes of folds and summaries as cells, edges as elbow lines, the best path, the selection and search
 * hits outlined. It redraws (once per animation frame at most) only when the viewport, the selection, the hits,
 * the theme or the scene changes, and draws only what is in view, batched by colour.
 * For tests it writes what it drew on itself: data-level (card | pill | shape) and data-drawn (JSON: status -> how
 * many nodes were drawn in that colour, the hidden ones of folds and summaries included), and data-draw-ms, how long
 * the last frame's drawing took (for benchmarks to print; never asserted).
 * Not responsible for hit-testing clicks (RunCanvas, through scene.ts) nor for the DOM levels (the node cards).
 */
import { useStoreApi } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  edgeInRect,
  itemInRect,
  levelOf,
  type CanvasElements,
  type Rect,
  type Scene,
  type SceneItem,
} from '@/lib/layout/index';
import { usePageViewApi } from '../page/PageViewContext';
import { useRunStoreApi } from '../page/RunStoreContext';

/** Above this many hidden nodes a fold draws one bar per status (its share of the width), not one cell per node. */
const MAX_CELLS = 48;

const COLOUR_VARS = [
  '--st-pending',
  '--st-running',
  '--st-completed',
  '--st-verified',
  '--st-failed',
  '--st-pruned',
  '--st-dropped',
  '--text-2',
  '--best',
  '--focus',
  '--lod-hit',
  '--border-strong',
  '--surface',
] as const;
type Colours = Record<(typeof COLOUR_VARS)[number], string>;

function readColours(el: Element): Colours {
  const style = getComputedStyle(el);
  const out = {} as Colours;
  for (const v of COLOUR_VARS) out[v] = style.getPropertyValue(v).trim() || '#888';
  return out;
}

const colourOf = (c: Colours, status: string) =>
  status === 'root' ? c['--text-2'] : c[`--st-${status}` as keyof Colours];

interface Marks {
  selected: string | null;
  hits: ReadonlySet<string>;
  active: string | null;
}

type Rects = Map<string, number[]>;
const push = (m: Rects, key: string, x: number, y: number, w: number, h: number) => {
  let list = m.get(key);
  if (!list) m.set(key, (list = []));
  list.push(x, y, w, h);
};
function fillRects(ctx: CanvasRenderingContext2D, m: Rects, colourFor: (key: string) => string) {
  for (const [key, r] of m) {
    ctx.fillStyle = colourFor(key);
    ctx.beginPath();
    for (let i = 0; i < r.length; i += 4)
      ctx.rect(r[i] as number, r[i + 1] as number, r[i + 2] as number, r[i + 3] as number);
    ctx.fill();
  }
}

/** Draws the scene for the viewport; returns how many nodes it drew per status. */
function draw(
  ctx: CanvasRenderingContext2D,
  scene: Scene,
  view: { tx: number; ty: number; zoom: number; width: number; height: number; dpr: number },
  c: Colours,
  marks: Marks,
): Record<string, number> {
  const { tx, ty, zoom, dpr } = view;
  const counts: Record<string, number> = {};
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
  const rect: Rect = { x: -tx / zoom, y: -ty / zoom, width: view.width / zoom, height: view.height / zoom };
  const px = 1 / zoom; // one screen pixel in flow units

  // edges: one path for the plain ones, one for the best path
  const lines = [
    { best: false, colour: c['--border-strong'], width: 1.25 * px },
    { best: true, colour: c['--best'], width: 3 * px },
  ];
  for (const line of lines) {
    ctx.beginPath();
    for (const e of scene.edges) {
      if (e.best !== line.best || !edgeInRect(e, rect)) continue;
      ctx.moveTo(e.x1, e.y1);
      if (scene.orientation === 'tb') {
        const ym = (e.y1 + e.y2) / 2;
        ctx.lineTo(e.x1, ym);
        ctx.lineTo(e.x2, ym);
      } else {
        const xm = (e.x1 + e.x2) / 2;
        ctx.lineTo(xm, e.y1);
        ctx.lineTo(xm, e.y2);
      }
      ctx.lineTo(e.x2, e.y2);
    }
    ctx.strokeStyle = line.colour;
    ctx.lineWidth = line.width;
    ctx.stroke();
  }

  // boxes: a light fill per status, then the score (or the hidden cells) in full colour
  const light: Rects = new Map();
  const strong: Rects = new Map();
  const visible: SceneItem[] = [];
  const gap = Math.min(6, 2 * px);
  for (const item of scene.items) {
    if (!itemInRect(item, rect)) continue;
    visible.push(item);
    const key = `${item.status}${item.faint ? '|faint' : ''}`;
    push(light, key, item.x, item.y, CARD_WIDTH, CARD_HEIGHT);
    if (item.nodeId) counts[item.status] = (counts[item.status] ?? 0) + 1;
    if (item.cells.length === 0) {
      if (item.score !== null) push(strong, key, item.x, item.y, CARD_WIDTH * item.score, CARD_HEIGHT);
      continue;
    }
    for (const cell of item.cells) counts[cell.status] = (counts[cell.status] ?? 0) + 1;
    const inner = { x: item.x + gap, y: item.y + gap, w: CARD_WIDTH - 2 * gap, h: CARD_HEIGHT - 2 * gap };
    if (item.cells.length <= MAX_CELLS) {
      // one cell per hidden node, as tall as its score
      const w = inner.w / item.cells.length;
      item.cells.forEach((cell, i) => {
        const h = inner.h * (0.25 + 0.75 * (cell.score ?? 0));
        push(strong, cell.status, inner.x + i * w, inner.y + inner.h - h, Math.max(w - px, px), h);
      });
    } else {
      const byStatus = new Map<string, number>();
      for (const cell of item.cells) byStatus.set(cell.status, (byStatus.get(cell.status) ?? 0) + 1);
      let x = inner.x;
      for (const [status, n] of byStatus) {
        const w = (inner.w * n) / item.cells.length;
        push(strong, status, x, inner.y, w, inner.h);
        x += w;
      }
    }
  }
  ctx.globalAlpha = 0.28;
  fillRects(ctx, light, (key) => colourOf(c, key.split('|')[0] as string));
  ctx.globalAlpha = 1;
  fillRects(ctx, strong, (key) => colourOf(c, key.split('|')[0] as string));
  // faint items: wash them out with the surface colour
  ctx.globalAlpha = 0.55;
  ctx.fillStyle = c['--surface'];
  ctx.beginPath();
  for (const item of visible) if (item.faint) ctx.rect(item.x, item.y, CARD_WIDTH, CARD_HEIGHT);
  ctx.fill();
  ctx.globalAlpha = 1;

  // outlines: best path, search hits, the active hit and the selection, each at least a couple of screen pixels
  const outline = (ids: (item: SceneItem) => boolean, colour: string, width: number, grow: number) => {
    ctx.beginPath();
    for (const item of visible) {
      if (ids(item)) ctx.rect(item.x - grow, item.y - grow, CARD_WIDTH + 2 * grow, CARD_HEIGHT + 2 * grow);
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    ctx.stroke();
  };
  outline((i) => i.best, c['--best'], 2 * px, 1.5 * px);
  if (marks.hits.size > 0) outline((i) => marks.hits.has(i.id), c['--lod-hit'], 2.5 * px, 3 * px);
  if (marks.active) outline((i) => i.id === marks.active, c['--lod-hit'], 4 * px, 5 * px);
  if (marks.selected) outline((i) => i.id === marks.selected, c['--focus'], 3 * px, 4 * px);
  return counts;
}

/** `elements.scene` is read only while the far level is drawn: it is built on first read (canvas-elements.ts). */
export function LodCanvas({ elements }: { elements: Pick<CanvasElements, 'scene' | 'itemOf'> }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const flowStore = useStoreApi();
  const runStore = useRunStoreApi();
  const pageView = usePageViewApi();
  // kept across scenes, read again only when the theme changes: a computed style read after the page changed makes
  // the browser restyle it there and then, and a live run brings a new scene every frame
  const colourCache = useRef<Colours | null>(null);

  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const { itemOf } = elements;
    const colours = () => (colourCache.current ??= readColours(canvas));
    let frame = 0;
    let cleared = false;
    const render = () => {
      frame = 0;
      const { transform, width, height } = flowStore.getState();
      const [tx, ty, zoom] = transform;
      const level = levelOf(zoom);
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
        canvas.width = Math.round(width * dpr);
        canvas.height = Math.round(height * dpr);
        canvas.style.width = `${width}px`;
        canvas.style.height = `${height}px`;
        cleared = false;
      }
      canvas.dataset.level = level;
      if (level !== 'shape') {
        if (!cleared) {
          ctx.setTransform(1, 0, 0, 1, 0, 0);
          ctx.clearRect(0, 0, canvas.width, canvas.height);
          canvas.dataset.drawn = '{}';
          cleared = true;
        }
        return;
      }
      cleared = false;
      const started = performance.now();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      const { selectedNodeId } = runStore.getState();
      const { search } = pageView.getState();
      const itemsOf = (ids: Iterable<string>) => {
        const out = new Set<string>();
        for (const id of ids) {
          const item = itemOf.get(id);
          if (item) out.add(item);
        }
        return out;
      };
      const activeHit = search.active >= 0 ? search.hits[search.active] : undefined;
      const counts = draw(ctx, elements.scene, { tx, ty, zoom, width, height, dpr }, colours(), {
        selected: selectedNodeId ? (itemOf.get(selectedNodeId) ?? null) : null,
        hits: itemsOf(search.hitSet),
        active: activeHit ? (itemOf.get(activeHit) ?? null) : null,
      });
      canvas.dataset.drawn = JSON.stringify(counts);
      canvas.dataset.drawMs = (performance.now() - started).toFixed(2);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(render);
    };
    schedule();
    const unsubscribe = [
      flowStore.subscribe((s, prev) => {
        if (s.transform !== prev.transform || s.width !== prev.width || s.height !== prev.height) schedule();
      }),
      runStore.subscribe((s, prev) => {
        if (s.selectedNodeId !== prev.selectedNodeId) schedule();
      }),
      pageView.subscribe((s, prev) => {
        if (s.search !== prev.search) schedule();
      }),
    ];
    // the theme (light or dark) changes the colours
    const retheme = () => {
      colourCache.current = null;
      cleared = false;
      schedule();
    };
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', retheme);
    const observer = new MutationObserver(retheme);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      unsubscribe.forEach((u) => u());
      media.removeEventListener('change', retheme);
      observer.disconnect();
    };
  }, [elements, flowStore, runStore, pageView]);

  return <canvas ref={ref} className="canvas-lod" data-testid="canvas-lod" aria-hidden="true" />;
}
