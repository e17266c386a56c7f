'use client';
// The tree on a React Flow canvas. What is shown comes from visibleTree (dead ends and dropped candidates folded),
// where it goes from the tidy layout; this component only places items, draws edges (the best path strong, the
// latest backtrack animated) and keeps the newest activity in view while "follow live" is on.
import { Background, Controls, MiniMap, ReactFlow, useReactFlow, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { pathTo } from '@/lib/engine/tree';
import { DEFAULT_LAYOUT, layoutTree } from '@/lib/layout/tidy';
import { visibleTree } from '@/lib/layout/visible-tree';
import { CanvasToolbar } from './CanvasToolbar';
import { DroppedCard, DroppedFoldCard, FoldCard } from './FoldCards';
import { NodeContextMenu } from './NodeContextMenu';
import { FIT_PADDING } from './fit';
import { useRunStore, useRunStoreApi } from './RunStoreContext';
import type { RunFlowNode } from './flow-types';
import { displayStatus } from './node-status';
import { createElementCache, stabilize } from './stable-elements';
import { ThoughtNodeCard } from './ThoughtNodeCard';
import type { RunCommands } from './useRunCommands';

const nodeTypes = { thought: ThoughtNodeCard, fold: FoldCard, droppedFold: DroppedFoldCard, dropped: DroppedCard };

export function RunCanvas({ commands, onFork }: { commands: RunCommands; onFork: (nodeId: string) => void }) {
  const store = useRunStoreApi();
  const version = useRunStore((s) => s.version);
  const tree = useRunStore((s) => s.tree);
  const selectedNodeId = useRunStore((s) => s.selectedNodeId);
  const bestNodeId = useRunStore((s) => s.bestNodeId);
  const lastBacktrack = useRunStore((s) => s.lastBacktrack);
  const foldDeadEnds = useRunStore((s) => s.foldDeadEnds);
  const showDropped = useRunStore((s) => s.showDropped);
  const openFolds = useRunStore((s) => s.openFolds);
  const followLive = useRunStore((s) => s.followLive);
  const flow = useReactFlow();
  const [menu, setMenu] = useState<{ nodeId: string; x: number; y: number } | null>(null);
  const [cache] = useState(createElementCache);

  const { nodes, edges, positions, itemOf } = useMemo(() => {
    void version; // the tree is updated in place; version says when
    const visible = visibleTree(tree, { foldDeadEnds, showDropped, openFolds, reveal: selectedNodeId });
    const flowNodes: RunFlowNode[] = [];
    const flowEdges: Edge[] = [];
    const itemOf = new Map<string, string>(); // node id -> the visible item standing for it
    if (!visible.rootId) return { nodes: flowNodes, edges: flowEdges, positions: new Map(), itemOf };
    const layoutInput = Object.fromEntries(
      Object.entries(visible.childIds).map(([id, childIds]) => [id, { id, childIds }]),
    );
    const positions = layoutTree(layoutInput, visible.rootId, DEFAULT_LAYOUT);
    const best = new Set(bestNodeId ? pathTo(tree, bestNodeId).map((n) => n.id) : []);
    for (const [id, p] of positions) {
      const item = visible.items.get(id);
      if (!item) continue;
      const position = { x: p.x - DEFAULT_LAYOUT.nodeWidth / 2, y: p.y };
      // initial sizes let fitView and the minimap place nodes before React Flow has measured them
      const common = {
        id,
        position,
        draggable: false,
        selected: id === selectedNodeId,
        initialWidth: DEFAULT_LAYOUT.nodeWidth,
        initialHeight: DEFAULT_LAYOUT.nodeHeight,
      };
      if (item.kind === 'node') {
        flowNodes.push({ ...common, type: 'thought', data: { nodeId: item.nodeId } });
        itemOf.set(item.nodeId, id);
      } else if (item.kind === 'dead-fold') {
        flowNodes.push({
          ...common,
          type: 'fold',
          data: { foldId: id, parentId: item.parentId, nodeIds: item.nodeIds, hidden: item.hidden },
        });
        for (const nodeId of item.nodeIds) itemOf.set(nodeId, id);
      } else if (item.kind === 'dropped-fold') {
        flowNodes.push({
          ...common,
          type: 'droppedFold',
          data: { foldId: id, parentId: item.parentId, count: item.count },
        });
      } else {
        flowNodes.push({ ...common, type: 'dropped', data: { parentId: item.parentId, index: item.index } });
      }
      for (const childId of visible.childIds[id] ?? []) {
        const onBest = best.has(id) && best.has(childId);
        const child = visible.items.get(childId);
        const faint = child?.kind === 'dropped' || child?.kind === 'dropped-fold';
        flowEdges.push({
          id: `e:${id}:${childId}`,
          source: id,
          target: childId,
          type: 'smoothstep',
          className: onBest ? 'edge-best' : faint ? 'edge-faint' : undefined,
        });
      }
    }
    if (lastBacktrack?.toId) {
      const from = itemOf.get(lastBacktrack.fromId);
      const to = itemOf.get(lastBacktrack.toId);
      if (from && to && from !== to) {
        flowEdges.push({
          id: `backtrack:${lastBacktrack.seq}`,
          source: from,
          target: to,
          type: 'default',
          animated: true,
          className: 'edge-backtrack',
          label: 'backtrack',
          labelBgPadding: [4, 2],
        });
      }
    }
    const measuredOf = (id: string) => flow.getInternalNode(id)?.measured;
    return { ...stabilize(cache, flowNodes, flowEdges, measuredOf), positions, itemOf };
  }, [tree, version, foldDeadEnds, showDropped, openFolds, selectedNodeId, bestNodeId, lastBacktrack, cache, flow]);

  // Follow live: keep the newest activity (the step running now, else the latest node) in view until the user pans.
  const activityId = useRunStore((s) => s.tree.inFlight?.entry.nodeId ?? s.tree.nodeOrder.at(-1) ?? null);
  const finished = useRunStore((s) => s.tree.status === 'finished');
  const fitted = useRef(false);
  useEffect(() => {
    if (nodes.length === 0) return;
    if (!fitted.current || (followLive && (finished || nodes.length <= 12))) {
      fitted.current = true;
      void flow.fitView({ padding: FIT_PADDING, maxZoom: 1, duration: finished ? 0 : 250 });
      return;
    }
    if (!followLive || !activityId) return;
    const item = itemOf.get(activityId);
    const p = item ? positions.get(item) : undefined;
    if (!p) return;
    const zoom = Math.max(flow.getZoom(), 0.55);
    void flow.setCenter(p.x, p.y + DEFAULT_LAYOUT.nodeHeight / 2, { zoom, duration: 250 });
  }, [activityId, nodes.length, finished, followLive, flow, itemOf, positions]);

  // A node selected from elsewhere (keyboard, event log, inspector) is brought into view if it is off screen.
  useEffect(() => {
    if (!selectedNodeId) return;
    const item = itemOf.get(selectedNodeId);
    const p = item ? positions.get(item) : undefined;
    if (!p) return;
    const { x, y, zoom } = flow.getViewport();
    const el = document.querySelector('.run-canvas');
    const width = el?.clientWidth ?? 0;
    const height = el?.clientHeight ?? 0;
    const sx = p.x * zoom + x;
    const sy = (p.y + DEFAULT_LAYOUT.nodeHeight / 2) * zoom + y;
    const margin = 60;
    if (sx < margin || sy < margin || sx > width - margin || sy > height - margin) {
      store.getState().setView({ followLive: false });
      void flow.setCenter(p.x, p.y + DEFAULT_LAYOUT.nodeHeight / 2, { zoom, duration: 250 });
    }
  }, [selectedNodeId, itemOf, positions, flow, store]);

  function onNodeClick(_: unknown, node: RunFlowNode) {
    setMenu(null);
    if (node.type === 'fold' || node.type === 'droppedFold') store.getState().toggleFold(node.id);
    else if (node.type === 'dropped') store.getState().select(node.data.parentId);
    else store.getState().select(node.id);
  }

  return (
    <>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodeClick={onNodeClick}
        onNodeContextMenu={(event, node) => {
          if (node.type !== 'thought') return;
          event.preventDefault();
          store.getState().select(node.id);
          setMenu({ nodeId: node.id, x: event.clientX, y: event.clientY });
        }}
        onPaneClick={() => {
          setMenu(null);
          store.getState().select(null);
        }}
        onMoveStart={(event) => {
          // a person panned or zoomed (programmatic moves have no event): stop following
          if (event) store.getState().setView({ followLive: false });
        }}
        nodesConnectable={false}
        nodesDraggable={false}
        elementsSelectable={false}
        // big trees: only what is in view is in the page, so panning hit-tests dozens of cards, not thousands
        onlyRenderVisibleElements
        fitViewOptions={{ padding: FIT_PADDING, maxZoom: 1 }}
        minZoom={0.05}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        aria-label="Search tree"
      >
        <Background gap={24} size={1} />
        <MiniMap
          style={{ width: 150, height: 100 }}
          pannable
          zoomable
          ariaLabel="Minimap"
          nodeStrokeWidth={3}
          // SVG fill attributes cannot read CSS variables: classes carry the status colours instead
          nodeClassName={(n) => {
            if (n.type !== 'thought') return n.type === 'fold' ? 'mm-failed' : 'mm-dropped';
            const node = tree.nodes[(n.data as { nodeId: string }).nodeId];
            return `mm-${node ? displayStatus(node) : 'pending'}`;
          }}
        />
        <Controls showInteractive={false} position="bottom-left" />
        <CanvasToolbar />
      </ReactFlow>
      {menu && <NodeContextMenu {...menu} commands={commands} onFork={onFork} onClose={() => setMenu(null)} />}
    </>
  );
}
