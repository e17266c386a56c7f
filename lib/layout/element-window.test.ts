import type { Edge } from '@xyflow/react';
import { describe, expect, it } from 'vitest';
import { elementsInWindow, viewRect, windowAround, windowServes } from './element-window';
import type { RunFlowNode } from './flow-types';

const card = (id: string, x: number, y: number): RunFlowNode => ({
  id,
  position: { x, y },
  type: 'thought',
  data: { nodeId: id },
});
const edge = (source: string, target: string): Edge => ({ id: `e:${source}:${target}`, source, target });

describe('elementsInWindow', () => {
  // a root over a child in view and one 50,000 px to the right; a grandchild far below the right one
  const nodes = [card('root', 0, 0), card('near', 100, 300), card('right', 50_000, 300), card('deep', 50_000, 9_000)];
  const positions = new Map(nodes.map((n) => [n.id, n.position]));
  const edges = [edge('root', 'near'), edge('root', 'right'), edge('right', 'deep')];
  const window = { x: -500, y: -500, width: 2_000, height: 1_500 };

  it('hands React Flow what is in the window, in the given order, and not what is far from it', () => {
    const shown = elementsInWindow(nodes, edges, positions, window);
    expect(shown.edges.map((e) => e.id)).toEqual(['e:root:near', 'e:root:right']);
    expect(shown.nodes.map((n) => n.id)).toEqual(['root', 'near', 'right']);
  });

  it('keeps a line that crosses the window between two ends outside it, with both ends', () => {
    // a view between root and right, above neither: only the edge's box meets it
    const between = { x: 20_000, y: 0, width: 2_000, height: 1_000 };
    const shown = elementsInWindow(nodes, edges, positions, between);
    expect(shown.edges.map((e) => e.id)).toEqual(['e:root:right']);
    expect(shown.nodes.map((n) => n.id)).toEqual(['root', 'right']);
  });

  it('hands everything when the window holds the whole tree', () => {
    const all = elementsInWindow(nodes, edges, positions, { x: -1, y: -1, width: 60_000, height: 10_000 });
    expect(all.nodes).toHaveLength(4);
    expect(all.edges).toHaveLength(3);
  });
});

describe('the window around the view', () => {
  const view = viewRect({ x: -1_000, y: -500, zoom: 0.5 }, 1280, 720);

  it('is what the pane shows in flow coordinates, grown by a pane on every side', () => {
    expect(view).toEqual({ x: 2_000, y: 1_000, width: 2_560, height: 1_440 });
    expect(windowAround(view)).toEqual({ x: -560, y: -440, width: 7_680, height: 4_320 });
  });

  it('serves a pan that stays inside it, and not one that leaves it', () => {
    const window = windowAround(view);
    expect(windowServes(window, { ...view, x: view.x + view.width * 0.9 })).toBe(true);
    expect(windowServes(window, { ...view, x: view.x + view.width * 1.1 })).toBe(false);
    expect(windowServes(window, { ...view, y: view.y - view.height * 1.1 })).toBe(false);
  });

  it('is narrowed again once the view has zoomed far into it, and widened when it zooms out', () => {
    const window = windowAround(view);
    const zoomedIn = (factor: number) =>
      viewRect({ x: -1_000 * factor, y: -500 * factor, zoom: 0.5 * factor }, 1280, 720);
    expect(windowServes(window, zoomedIn(1.5))).toBe(true);
    expect(windowServes(window, zoomedIn(2.5))).toBe(false);
    expect(windowServes(window, viewRect({ x: 0, y: 0, zoom: 0.1 }, 1280, 720))).toBe(false);
  });
});
