/**
 * The part of the canvas React Flow is handed at the near zoom levels: a window around the view, one pane wide on
 * every side of it, and the items and lines that fall in it (canvas-elements.ts builds their elements, `within`).
 * React Flow adopts every node it is given on each change of the list (its lookup, its edge index), whatever it then
 * draws, so a live tree of 16k items cost that much work on every step for the dozen cards on screen. The window
 * moves only when the view leaves it (or zooms far into it), so a pan within it re-renders nothing.
 * Pure; the canvas's hook that follows the viewport is components/run/canvas/useElementWindow.ts.
 * Not responsible for what React Flow then draws of them (its onlyRenderVisibleElements) nor for the far level
 * (LodCanvas draws only what is in view by itself).
 */
import { CARD_HEIGHT, CARD_WIDTH } from './place';
import type { Rect } from './scene';
import type { Position } from './tidy';

/** A window this many times wider than the view is too coarse: zoomed that far in, it is narrowed again. */
const MAX_WINDOW_TO_VIEW = 6;

/** The window for a view: the view with one view's width and height added on every side. */
export function windowAround(view: Rect): Rect {
  return { x: view.x - view.width, y: view.y - view.height, width: view.width * 3, height: view.height * 3 };
}

/** Whether `window` still serves `view`: holds it whole, and is not so much bigger that it hands out too much. */
export function windowServes(window: Rect, view: Rect): boolean {
  return (
    view.x >= window.x &&
    view.y >= window.y &&
    view.x + view.width <= window.x + window.width &&
    view.y + view.height <= window.y + window.height &&
    window.width <= view.width * MAX_WINDOW_TO_VIEW
  );
}

const boxMeets = (x0: number, y0: number, x1: number, y1: number, r: Rect) =>
  x1 >= r.x && x0 <= r.x + r.width && y1 >= r.y && y0 <= r.y + r.height;

/**
 * The items and the lines that fall in `window`, the items in `positions`' order (React Flow stacks nodes so). A line
 * is kept when the box between its two ends meets the window, and then both its ends are kept too, so a line that
 * crosses the view from far away is still drawn, and never to a node React Flow does not have.
 */
export function pickInWindow<L extends readonly [string, string, ...unknown[]]>(
  positions: ReadonlyMap<string, Position>,
  links: Iterable<L>,
  window: Rect,
): { itemIds: string[]; links: L[] } {
  const needed = new Set<string>();
  const kept: L[] = [];
  for (const link of links) {
    const a = positions.get(link[0]);
    const b = positions.get(link[1]);
    if (!a || !b) continue;
    const meets = boxMeets(
      Math.min(a.x, b.x),
      Math.min(a.y, b.y),
      Math.max(a.x, b.x) + CARD_WIDTH,
      Math.max(a.y, b.y) + CARD_HEIGHT,
      window,
    );
    if (!meets) continue;
    kept.push(link);
    needed.add(link[0]);
    needed.add(link[1]);
  }
  const itemIds: string[] = [];
  for (const [id, p] of positions) {
    if (needed.has(id) || boxMeets(p.x, p.y, p.x + CARD_WIDTH, p.y + CARD_HEIGHT, window)) itemIds.push(id);
  }
  return { itemIds, links: kept };
}
