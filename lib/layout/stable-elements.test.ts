import { describe, expect, it } from 'vitest';
import type { RunFlowNode } from './flow-types';
import { createElementCache, stabilize } from './stable-elements';

const node = (id: string, x: number, selected = false): RunFlowNode => ({
  id,
  type: 'thought',
  position: { x, y: 0 },
  selected,
  data: { nodeId: id },
});

describe('stabilize', () => {
  it('hands back last frame’s objects for unchanged nodes and edges, new ones for changed', () => {
    const cache = createElementCache();
    const first = stabilize(cache, [node('a', 0), node('b', 10)], [{ id: 'e', source: 'a', target: 'b' }]);
    const second = stabilize(
      cache,
      [node('a', 0), node('b', 20), node('c', 30)],
      [{ id: 'e', source: 'a', target: 'b' }],
    );
    expect(second.nodes[0]).toBe(first.nodes[0]);
    expect(second.nodes[1]).not.toBe(first.nodes[1]);
    expect(second.edges[0]).toBe(first.edges[0]);
    const third = stabilize(cache, [node('a', 0, true)], []);
    expect(third.nodes[0]).not.toBe(second.nodes[0]); // selection changed
    expect(cache.nodes.size).toBe(1); // removed elements are forgotten
  });
});

describe('stabilize, for a node that moved', () => {
  it('carries the size React Flow measured, so the card is not measured again', () => {
    const cache = createElementCache();
    stabilize(cache, [node('a', 0)], []);
    const moved = stabilize(cache, [node('a', 40)], [], () => ({ width: 232, height: 88 }));
    expect(moved.nodes[0]?.measured).toEqual({ width: 232, height: 88 });
    const unmeasured = stabilize(cache, [node('a', 80)], [], () => undefined);
    expect(unmeasured.nodes[0]?.measured).toBeUndefined();
  });
});
