'use client';
// The tree on a React Flow canvas: the tidy layout of the folded tree, edges parent to child, the best path drawn
// strong. Node components read their own nodes; this component only places them.
import { Background, Controls, MiniMap, ReactFlow, type Edge } from '@xyflow/react';
import { useMemo } from 'react';
import { pathTo } from '@/lib/engine/tree';
import { DEFAULT_LAYOUT, layoutTree } from '@/lib/layout/tidy';
import { useRunStore } from './RunStoreContext';
import type { RunFlowNode } from './flow-types';
import { ThoughtNodeCard } from './ThoughtNodeCard';

const nodeTypes = { thought: ThoughtNodeCard };

export function RunCanvas() {
  const version = useRunStore((s) => s.version);
  const tree = useRunStore((s) => s.tree);
  const select = useRunStore((s) => s.select);
  const selectedNodeId = useRunStore((s) => s.selectedNodeId);

  const { nodes, edges } = useMemo(() => {
    void version; // the tree is updated in place; version says when
    const flowNodes: RunFlowNode[] = [];
    const flowEdges: Edge[] = [];
    if (!tree.rootId) return { nodes: flowNodes, edges: flowEdges };
    const positions = layoutTree(tree.nodes, tree.rootId);
    const best = new Set(tree.bestNodeId ? pathTo(tree, tree.bestNodeId).map((n) => n.id) : []);
    for (const [id, p] of positions) {
      flowNodes.push({
        id,
        type: 'thought',
        position: { x: p.x - DEFAULT_LAYOUT.nodeWidth / 2, y: p.y },
        data: { nodeId: id },
        selected: id === selectedNodeId,
        draggable: false,
      });
      const parentId = tree.nodes[id]?.parentId;
      if (parentId) {
        const onBest = best.has(id) && best.has(parentId);
        flowEdges.push({
          id: `${parentId}-${id}`,
          source: parentId,
          target: id,
          type: 'smoothstep',
          style: onBest ? { stroke: 'var(--best)', strokeWidth: 2.5 } : { stroke: 'var(--border-strong)' },
        });
      }
    }
    return { nodes: flowNodes, edges: flowEdges };
  }, [tree, version, selectedNodeId]);

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      onNodeClick={(_, node) => select(node.id)}
      onPaneClick={() => select(null)}
      nodesConnectable={false}
      nodesDraggable={false}
      fitView
      fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
      minZoom={0.05}
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={24} size={1} />
      <MiniMap pannable zoomable nodeStrokeWidth={3} />
      <Controls showInteractive={false} />
    </ReactFlow>
  );
}
