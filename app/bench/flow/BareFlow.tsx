'use client';
// The bench's bare React Flow page (see page.tsx): plain default nodes on a grid as wide as it is high, fitted into
// view. It keeps only the run canvas's settings that change what the library draws (only visible elements, the same
// minimum zoom) so that the two pan figures differ by what our canvas adds. Not a component of the product.
import { ReactFlow, type Node } from '@xyflow/react';
import { useMemo } from 'react';

const GAP_X = 190;
const GAP_Y = 70;

export function BareFlow({ count }: { count: number }) {
  const nodes = useMemo<Node[]>(() => {
    const columns = Math.max(1, Math.ceil(Math.sqrt(count * (GAP_Y / GAP_X) * 1.6)));
    return Array.from({ length: count }, (_, i) => ({
      id: String(i),
      position: { x: (i % columns) * GAP_X, y: Math.floor(i / columns) * GAP_Y },
      data: { label: `node ${i}` },
    }));
  }, [count]);
  return (
    <div style={{ position: 'fixed', inset: 0 }} data-testid="bare-flow" data-count={count}>
      <ReactFlow defaultNodes={nodes} defaultEdges={[]} fitView onlyRenderVisibleElements minZoom={0.05} />
    </div>
  );
}
