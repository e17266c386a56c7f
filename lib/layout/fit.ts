/**
 * How the canvas frames things, as arithmetic: the box around some nodes of a published layout, what a view shows
 * (in flow coordinates), and the viewport that shows a box in a canvas of a given size (the whole tree at up to zoom
 * 1, with room left at the top for the canvas toolbar and at the left for the zoom buttons). Pure; the canvas's hook
 * that applies it is components/run/canvas/fit.ts.
 * Not responsible for where items go (place.ts) nor for moving the view (React Flow, through the hook).
 */
import type { CanvasLayout } from './canvas-layout';
import { CARD_HEIGHT, CARD_WIDTH } from './place';
import { CARD_MIN_ZOOM } from './lod';
import type { Rect } from './scene';
import type { Position } from './tidy';

// left: clear of the zoom buttons in the bottom-left corner
const PAD = { top: 56, right: 24, bottom: 24, left: 56 };
/** Low enough that fit shows every item of a tree of thousands (as shapes a few pixels wide). */
export const MIN_ZOOM = 0.001;

/** How close to the pane's edge a card's centre may come and still count as in view (screen pixels). */
const VIEW_MARGIN = 60;
/** The least zoom follow-live shows the newest activity at: pills, a few words readable. */
const FOLLOW_ZOOM = 0.55;
/** A follow or reveal move animates when the card is at most this many panes away; farther, the view cuts to it. */
const FOLLOW_GLIDE_PANES = 1.5;
/** How long a follow or reveal move glides. */
export const FOLLOW_GLIDE_MS = 250;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a width x height pane shows at `viewport`, in flow coordinates. */
export function viewRect(viewport: Viewport, width: number, height: number): Rect {
  return {
    x: -viewport.x / viewport.zoom,
    y: -viewport.y / viewport.zoom,
    width: width / viewport.zoom,
    height: height / viewport.zoom,
  };
}

/** The viewport that shows `box` whole and centred in a width x height pane, zoom clamped to [minZoom, maxZoom]. */
export function viewportFor(box: Box, width: number, height: number, maxZoom = 1, minZoom = MIN_ZOOM) {
  const w = Math.max(1, width - PAD.left - PAD.right);
  const h = Math.max(1, height - PAD.top - PAD.bottom);
  const zoom = Math.min(maxZoom, Math.max(minZoom, Math.min(w / Math.max(box.width, 1), h / Math.max(box.height, 1))));
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  return { x: PAD.left + w / 2 - cx * zoom, y: PAD.top + h / 2 - cy * zoom, zoom };
}

/**
 * The whole-tree fit: viewportFor, except that a tree which fits at card zoom once the bottom and side margins are
 * given up is shown at card zoom (still below the toolbar). A fit a hair under card zoom would draw every card as a
 * pill, whose text is sized for far zoom and reads at 27 px.
 */
export function fitViewport(box: Box, width: number, height: number) {
  const fitted = viewportFor(box, width, height);
  if (fitted.zoom >= CARD_MIN_ZOOM) return fitted;
  const roomBelowToolbar = height - PAD.top;
  const tight = Math.min(width / Math.max(box.width, 1), roomBelowToolbar / Math.max(box.height, 1));
  if (tight < CARD_MIN_ZOOM) return fitted;
  const zoom = Math.min(tight, CARD_MIN_ZOOM + 0.001); // a hair above the threshold, so rounding keeps cards
  return {
    x: width / 2 - (box.x + box.width / 2) * zoom,
    y: PAD.top + roomBelowToolbar / 2 - (box.y + box.height / 2) * zoom,
    zoom,
  };
}

/** The box around the items standing for `nodeIds` (every item when nodeIds is null). */
export function boxOf(layout: CanvasLayout, nodeIds: readonly string[] | null): Box | null {
  const items = nodeIds
    ? nodeIds.map((id) => layout.itemOf.get(id)).filter((i): i is string => i !== undefined)
    : [...layout.positions.keys()];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const id of items) {
    const p = layout.positions.get(id);
    if (!p) continue;
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x + layout.itemWidth);
    maxY = Math.max(maxY, p.y + layout.itemHeight);
  }
  return minX === Infinity ? null : { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** The screen position of a card's centre (`at`: its top-left in flow units). */
function centreOnScreen(at: Position, view: Viewport) {
  return { x: (at.x + CARD_WIDTH / 2) * view.zoom + view.x, y: (at.y + CARD_HEIGHT / 2) * view.zoom + view.y };
}

/** Whether the card at `at` has its centre inside a width x height pane, VIEW_MARGIN clear of its edges. */
export function cardInView(at: Position, view: Viewport, width: number, height: number): boolean {
  const c = centreOnScreen(at, view);
  return c.x >= VIEW_MARGIN && c.y >= VIEW_MARGIN && c.x <= width - VIEW_MARGIN && c.y <= height - VIEW_MARGIN;
}

/**
 * Where the view goes to bring a card (at `at`) into sight, or null to stay: it stays while the card is in view at
 * `leastZoom` or closer; else it centres the card at that zoom or the view's own if closer, gliding (duration
 * FOLLOW_GLIDE_MS, to be run linearly) when the card is near and cutting (duration 0) when it is panes away. A glide
 * across a tree thousands of cards wide passes over thousands of them (each put in the page and taken out again for
 * one frame), and nobody can read a view that flies: the cut shows where the card is at once. The zoom is kept or
 * raised, never lowered, so moves asked for one after another (a person walking the tree with the arrow keys) do not
 * drift out.
 */
export function revealViewport(
  at: Position,
  view: Viewport,
  width: number,
  height: number,
  leastZoom = 0,
): (Viewport & { duration: number }) | null {
  const zoom = Math.max(view.zoom, leastZoom);
  if (zoom === view.zoom && cardInView(at, view, width, height)) return null;
  const c = centreOnScreen(at, view);
  const panes = Math.max(
    Math.abs(c.x - width / 2) / Math.max(width, 1),
    Math.abs(c.y - height / 2) / Math.max(height, 1),
  );
  const near = zoom === view.zoom && panes <= FOLLOW_GLIDE_PANES;
  return {
    x: width / 2 - (at.x + CARD_WIDTH / 2) * zoom,
    y: height / 2 - (at.y + CARD_HEIGHT / 2) * zoom,
    zoom,
    duration: near ? FOLLOW_GLIDE_MS : 0,
  };
}

/** Follow live: revealViewport for the newest activity, shown at a zoom where pills read (FOLLOW_ZOOM) or closer. */
export const followViewport = (at: Position, view: Viewport, width: number, height: number) =>
  revealViewport(at, view, width, height, FOLLOW_ZOOM);
