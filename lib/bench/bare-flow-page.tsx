/**
 * The browser half of bench:ui's bare React Flow page (served by bare-flow.ts, never by the app): n plain default
 * nodes (`?n=`) on a grid as wide as it is high, fitted into view, and nothing else, so the bench can pan it the way
 * it pans a run and print what the run canvas costs beyond the library's own drawing of as many nodes. It keeps only
 * the run canvas's settings that change what the library draws (only visible elements, the same minimum zoom) and
 * React Flow's own stylesheet, as the app's layout imports it.
 * Not a component of the product, and not responsible for measuring (lib/bench/ui.ts does, from outside).
 */
import '@xyflow/react/dist/style.css';
import { ReactFlow, type Node } from '@xyflow/react';
import { createRoot } from 'react-dom/client';

const GAP_X = 190;
const GAP_Y = 70;
/** Far above any run the bench draws; keeps a stray URL from asking the browser for millions of nodes. */
const MAX_NODES = 200_000;

function gridNodes(count: number): Node[] {
  const columns = Math.max(1, Math.ceil(Math.sqrt(count * (GAP_Y / GAP_X) * 1.6)));
  return Array.from({ length: count }, (_, i) => ({
    id: String(i),
    position: { x: (i % columns) * GAP_X, y: Math.floor(i / columns) * GAP_Y },
    data: { label: `node ${i}` },
  }));
}

function BareFlow({ nodes }: { nodes: Node[] }) {
  return (
    <div style={{ position: 'fixed', inset: 0 }} data-testid="bare-flow" data-count={nodes.length}>
      <ReactFlow defaultNodes={nodes} defaultEdges={[]} fitView onlyRenderVisibleElements minZoom={0.05} />
    </div>
  );
}

const n = new URLSearchParams(window.location.search).get('n');
const count = Math.min(MAX_NODES, Math.max(0, Math.floor(Number(n ?? 100)) || 0));
createRoot(document.getElementById('root') as HTMLElement).render(<BareFlow nodes={gridNodes(count)} />);
