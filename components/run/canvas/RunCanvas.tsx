'use client';
// The tree on a React Flow canvas, readable at every size. What is shown comes from visibleTree (dead ends and
// dropped candidates folded, and on big trees everything away from the focus collapsed into "+N more" summaries),
// where it goes from lib/layout/place.ts (tidy tree top-to-bottom or left-to-right, or per-depth layers), how it is
// drawn from the zoom (lib/layout/lod.ts): full cards close up, pills in the middle, and far out one canvas
// (LodCanvas.tsx) with no DOM node per item. The elements are built by lib/layout/canvas-elements.ts, once per tree
// change, never per frame, and read here through useCanvasModel.ts (the overview and the framing read the same
// model); this component hands React Flow those around the view (useElementWindow.ts) and keeps their objects
// stable. Where the camera goes by itself (follow live, focus requests, keeping the selection in place) is
// useCanvasCamera.ts; the far level's pointer, useFarPointer.ts.
import { Background, ControlButton, Controls, ReactFlow, useReactFlow, useStore, type Edge } from '@xyflow/react';
import { useEffect, useMemo, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { createElementCache, droppedItemId, levelOf, MIN_ZOOM, type RunFlowNode, stabilize } from '@/lib/layout/index';
import { usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { NodeContextMenu } from '../steering/NodeContextMenu';
import type { RunCommands } from '../steering/useRunCommands';
import { CanvasToolbar } from './CanvasToolbar';
import { useFrame } from './fit';
import { DroppedCard, DroppedFoldCard, FoldCard, SummaryCard } from './FoldCards';
import { LodCanvas } from './LodCanvas';
import { OrientationContext } from './orientation';
import { ThoughtNodeCard } from './ThoughtNodeCard';
import { useFocusRequests, useFollowLive, useKeepInPlace, useRevealSelection } from './useCanvasCamera';
import { useCanvasModel } from './useCanvasModel';
import { useElementWindow } from './useElementWindow';
import { useFarPointer } from './useFarPointer';

const nodeTypes = {
  thought: ThoughtNodeCard,
  fold: FoldCard,
  droppedFold: DroppedFoldCard,
  dropped: DroppedCard,
  summary: SummaryCard,
};
const NO_NODES: RunFlowNode[] = [];
const NO_EDGES: Edge[] = [];

export function RunCanvas({
  commands,
  onFork,
  runEnded,
}: {
  commands: RunCommands;
  onFork: (nodeId: string) => void;
  /** The run has ended (its status, not the step on screen): nothing more will arrive to follow. */
  runEnded: boolean;
}) {
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const selectedNodeId = useRunStore((s) => s.selectedNodeId);
  // only a change of level re-renders the canvas, not every zoom step
  const level = useStore((s) => levelOf(s.transform[2]));
  const far = level === 'shape';
  const flow = useReactFlow();
  const frame = useFrame();
  const [menu, setMenu] = useState<{ nodeId: string; x: number; y: number } | null>(null);
  const [cache] = useState(createElementCache);

  const model = useCanvasModel();
  const shownWindow = useElementWindow();
  // the far level draws the scene, not React Flow's elements: they are built (and stabilised) only when near, and
  // React Flow gets those around the view, not the thousands of a big tree (it adopts every one it is given)
  const { nodes, edges } = useMemo(() => {
    if (far || !shownWindow) return { nodes: NO_NODES, edges: NO_EDGES };
    const measuredOf = (id: string) => flow.getInternalNode(id)?.measured;
    const near = model.within(shownWindow);
    return stabilize(cache, near.nodes, near.edges, measuredOf);
  }, [model, cache, flow, far, shownWindow]);
  const { layout } = model;
  // the step drawn, once committed: the player waits for it (usePlayback)
  useEffect(() => {
    pageView.getState().setDrawnSeq(model.seq);
  }, [pageView, model.seq]);
  useEffect(() => () => pageView.getState().setDrawnSeq(null), [pageView]);

  const pin = useKeepInPlace(layout, selectedNodeId);
  useFollowLive(layout, model.seq, frame);
  useRevealSelection(layout, selectedNodeId);
  useFocusRequests(frame);
  const { tooltip, itemAt, activate, showTooltip, hideTooltip } = useFarPointer(model, far);

  function onNodeClick(_: unknown, node: RunFlowNode) {
    setMenu(null);
    if (node.type === 'summary' || node.type === 'fold' || node.type === 'droppedFold') {
      // what the summary hid opens in place: its first item takes the summary's spot on screen
      // (a pruned-by-rule card opens the search's own pruned branches first, then the candidates)
      const first =
        node.type === 'droppedFold'
          ? (node.data.nodeIds[0] ?? droppedItemId(node.data.parentId, 0))
          : (node.data.nodeIds[0] ?? null);
      if (first) pin(first, node.position);
      store.getState().toggleFold(node.id);
    } else if (node.type === 'dropped') store.getState().select(node.data.parentId);
    else store.getState().select(node.id);
  }

  return (
    <OrientationContext.Provider value={model.view.orientation}>
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
        onPaneClick={(event) => {
          setMenu(null);
          activate(itemAt(event));
        }}
        onPaneContextMenu={(event) => {
          const item = itemAt(event as ReactMouseEvent);
          if (!item?.nodeId) return;
          event.preventDefault();
          store.getState().select(item.nodeId);
          setMenu({ nodeId: item.nodeId, x: event.clientX, y: event.clientY });
        }}
        onPaneMouseMove={showTooltip}
        onPaneMouseLeave={hideTooltip}
        onMoveStart={(event) => {
          // a person panned or zoomed (programmatic moves have no event): stop following
          if (event) store.getState().setView({ followLive: false });
          hideTooltip();
        }}
        nodesConnectable={false}
        // an edge says nothing a card does not: not a Tab stop (the cards are, and arrows walk the tree)
        edgesFocusable={false}
        nodesDraggable={false}
        elementsSelectable={false}
        // only what is in view is in the page, so panning hit-tests dozens of cards, not thousands
        onlyRenderVisibleElements
        minZoom={MIN_ZOOM}
        maxZoom={2}
        proOptions={{ hideAttribution: true }}
        aria-label="Search tree"
        data-level={level}
        data-drawn-seq={model.seq}
        className={far ? 'is-far' : undefined}
      >
        <Background gap={24} size={1} />
        <LodCanvas elements={model} />
        <Controls showInteractive={false} showFitView={false} position="bottom-left">
          {/* React Flow's own fit sees no nodes at the far level: this one fits the canvas's layout */}
          <ControlButton onClick={() => frame(null)} title="Fit View" aria-label="Fit View">
            <svg viewBox="0 0 32 30" aria-hidden="true">
              <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
            </svg>
          </ControlButton>
        </Controls>
        <CanvasToolbar
          autoCollapse={model.view.autoCollapse}
          onAutoCollapse={(on) => pageView.getState().setCollapseChoice(on)}
          onFit={() => frame(null)}
          runEnded={runEnded}
        />
      </ReactFlow>
      <div ref={tooltip} className="lod-tooltip" role="tooltip" hidden />
      {menu && <NodeContextMenu {...menu} commands={commands} onFork={onFork} onClose={() => setMenu(null)} />}
    </OrientationContext.Provider>
  );
}
