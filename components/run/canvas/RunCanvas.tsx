'use client';
// The tree on a React Flow canvas, readable at every size. What is shown comes from visibleTree (dead ends and
// dropped candidates folded, and on big trees everything away from the focus collapsed into "+N more" summaries),
// where it goes from lib/layout/place.ts (tidy tree top-to-bottom or left-to-right, or per-depth layers), how it is
// drawn from the zoom (lib/layout/lod.ts): full cards close up, pills in the middle, and far out one canvas
// (canvas/LodCanvas.tsx) with no DOM node per item. The elements are built by lib/layout/canvas-elements.ts, once
// per tree change, never per frame; this component renders them and keeps their objects stable. It also publishes
// the layout to the page-view store, honours its focus requests, and keeps the newest activity in view while
// "follow live" is on.
import { Background, ControlButton, Controls, ReactFlow, useReactFlow, useStore, type Edge } from '@xyflow/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import {
  buildCanvasElements,
  CARD_HEIGHT,
  CARD_WIDTH,
  createElementCache,
  droppedItemId,
  levelOf,
  MIN_ZOOM,
  type Position,
  type RunFlowNode,
  type SceneItem,
  sceneItemAt,
  stabilize,
} from '@/lib/layout/index';
import { CanvasToolbar } from './CanvasToolbar';
import { LodCanvas } from './LodCanvas';
import { OrientationContext } from './orientation';
import { useCanvasPrefs } from './prefs';
import { DroppedCard, DroppedFoldCard, FoldCard, SummaryCard } from './FoldCards';
import { NodeContextMenu } from '../steering/NodeContextMenu';
import { useFrame } from './fit';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { ThoughtNodeCard } from './ThoughtNodeCard';
import type { RunCommands } from '../steering/useRunCommands';

const nodeTypes = {
  thought: ThoughtNodeCard,
  fold: FoldCard,
  droppedFold: DroppedFoldCard,
  dropped: DroppedCard,
  summary: SummaryCard,
};
const NO_NODES: RunFlowNode[] = [];
const NO_EDGES: Edge[] = [];
/** Trees up to this many nodes show everything unless asked to collapse; bigger ones start focused. */
export const AUTO_COLLAPSE_ABOVE = 40;

export function RunCanvas({ commands, onFork }: { commands: RunCommands; onFork: (nodeId: string) => void }) {
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const version = useRunStore((s) => s.version);
  const tree = useRunStore((s) => s.tree);
  const selectedNodeId = useRunStore((s) => s.selectedNodeId);
  const bestNodeId = useRunStore((s) => s.bestNodeId);
  const lastBacktrack = useRunStore((s) => s.lastBacktrack);
  const foldDeadEnds = useRunStore((s) => s.foldDeadEnds);
  const showDropped = useRunStore((s) => s.showDropped);
  const openFolds = useRunStore((s) => s.openFolds);
  const followLive = useRunStore((s) => s.followLive);
  const nodeCount = useRunStore((s) => s.tree.nodeOrder.length);
  const { orientation, mode } = useCanvasPrefs();
  const [collapseChoice, setCollapseChoice] = useState<boolean | null>(null);
  const autoCollapse = collapseChoice ?? nodeCount > AUTO_COLLAPSE_ABOVE;
  // only a change of level re-renders the canvas, not every zoom step
  const level = useStore((s) => levelOf(s.transform[2]));
  const flow = useReactFlow();
  const frame = useFrame();
  const [menu, setMenu] = useState<{ nodeId: string; x: number; y: number } | null>(null);
  const [cache] = useState(createElementCache);

  const model = useMemo(() => {
    void version; // the tree is updated in place; version says when
    const built = buildCanvasElements(tree, {
      selectedNodeId,
      bestNodeId,
      lastBacktrack,
      foldDeadEnds,
      showDropped,
      openFolds,
      autoCollapse,
      orientation,
      mode,
    });
    const measuredOf = (id: string) => flow.getInternalNode(id)?.measured;
    return { ...built, ...stabilize(cache, built.nodes, built.edges, measuredOf) };
  }, [
    tree,
    version,
    foldDeadEnds,
    showDropped,
    openFolds,
    selectedNodeId,
    bestNodeId,
    lastBacktrack,
    autoCollapse,
    orientation,
    mode,
    cache,
    flow,
  ]);
  const { nodes, positions, itemOf, scene } = model;

  // Publish where everything is (the overview draws the view's rectangle, fit and focus requests frame from it).
  useEffect(() => {
    pageView.getState().setLayout({ positions, itemOf, itemWidth: CARD_WIDTH, itemHeight: CARD_HEIGHT });
  }, [pageView, positions, itemOf]);
  useEffect(() => () => pageView.getState().setLayout(null), [pageView]);

  // When the layout changes around what a person is looking at, keep it where it was on screen rather than letting
  // the tree jump under the pointer: an opened summary's first child takes the summary's place, and the selection
  // stays put when its branch opens around it.
  const previous = useRef<{ positions: ReadonlyMap<string, Position>; itemOf: ReadonlyMap<string, string> } | null>(
    null,
  );
  const anchor = useRef<{ itemId: string; at: Position } | null>(null);
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = { positions, itemOf };
    const pinned = anchor.current;
    anchor.current = null;
    let was: Position | undefined;
    let now: Position | undefined;
    if (pinned) {
      was = pinned.at;
      now = positions.get(pinned.itemId);
    } else if (before && selectedNodeId && !store.getState().followLive) {
      was = before.positions.get(before.itemOf.get(selectedNodeId) ?? '');
      now = positions.get(itemOf.get(selectedNodeId) ?? '');
    }
    if (!was || !now || (was.x === now.x && was.y === now.y)) return;
    const { x, y, zoom } = flow.getViewport();
    void flow.setViewport({ x: x - (now.x - was.x) * zoom, y: y - (now.y - was.y) * zoom, zoom });
  }, [positions, itemOf, selectedNodeId, flow, store]);

  // Follow live: keep the newest activity (the step running now, else the latest node) in view until the user pans.
  const activityId = useRunStore((s) => s.tree.inFlight?.entry.nodeId ?? s.tree.nodeOrder.at(-1) ?? null);
  const finished = useRunStore((s) => s.tree.status === 'finished');
  const fitted = useRef(false);
  const wasFinished = useRef(finished);
  const itemCount = positions.size;
  // a link's step still on its way (the latest tree is drawn until the history reaches it)
  const waitingForStep = useRunStore((s) => s.pendingSeq !== null);
  useEffect(() => {
    if (itemCount === 0) return;
    // the first fit frames the tree the person came to see: a linked step's, not the latest one drawn meanwhile
    if (!fitted.current && waitingForStep) return;
    // fit once on arrival, while a small live tree grows, and when a followed run finishes; not when a finished
    // tree changes shape (a click opens the focus around a node: the view must stay where the person is looking)
    const justFinished = finished && !wasFinished.current;
    wasFinished.current = finished;
    if (!fitted.current) {
      // on arrival, a node already selected (a shared link's) is what the person came to see: frame it, readable
      const linked = store.getState().selectedNodeId;
      fitted.current = (linked !== null && itemOf.has(linked) && frame([linked], 0)) || frame(null, 0);
      return;
    }
    if (followLive && (justFinished || (!finished && itemCount <= 12))) {
      frame(null, finished ? 0 : 250);
      return;
    }
    if (finished) return;
    if (!followLive || !activityId) return;
    const item = itemOf.get(activityId);
    const p = item ? positions.get(item) : undefined;
    if (!p) return;
    const zoom = Math.max(flow.getZoom(), 0.55);
    void flow.setCenter(p.x + CARD_WIDTH / 2, p.y + CARD_HEIGHT / 2, { zoom, duration: 250 });
  }, [activityId, itemCount, finished, followLive, flow, frame, itemOf, positions, store, waitingForStep]);

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
    const sx = (p.x + CARD_WIDTH / 2) * zoom + x;
    const sy = (p.y + CARD_HEIGHT / 2) * zoom + y;
    const margin = 60;
    if (sx < margin || sy < margin || sx > width - margin || sy > height - margin) {
      store.getState().setView({ followLive: false });
      void flow.setCenter(p.x + CARD_WIDTH / 2, p.y + CARD_HEIGHT / 2, { zoom, duration: 250 });
    }
  }, [selectedNodeId, itemOf, positions, flow, store]);

  // Frame what another part of the page asks for (the overview, the search).
  const focusRequest = usePageView((s) => s.focusRequest);
  useEffect(() => {
    if (!focusRequest || focusRequest.nodeIds.length === 0) return;
    store.getState().setView({ followLive: false });
    frame(focusRequest.nodeIds);
  }, [focusRequest, frame, store]);

  // The far level has no DOM per item: clicks, hovers and right clicks land on the pane and are hit-tested here.
  const tooltip = useRef<HTMLDivElement>(null);
  function itemAt(event: ReactMouseEvent): SceneItem | null {
    if (level !== 'shape') return null;
    const p = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    return sceneItemAt(scene, p.x, p.y, 3 / flow.getZoom());
  }
  function activate(item: SceneItem | null) {
    const state = store.getState();
    if (!item) state.select(null);
    else if (item.nodeId) state.select(item.nodeId);
    else if (item.kind === 'dropped') state.select(item.id.split(':')[1] ?? null);
    else state.toggleFold(item.id);
  }
  function showTooltip(event: ReactMouseEvent) {
    const el = tooltip.current;
    if (!el) return;
    const item = itemAt(event);
    if (!item) {
      el.hidden = true;
      return;
    }
    el.textContent = item.label.length > 280 ? `${item.label.slice(0, 279)}…` : item.label;
    el.style.left = `${event.clientX + 14}px`;
    el.style.top = `${event.clientY + 14}px`;
    el.hidden = false;
  }

  function onNodeClick(_: unknown, node: RunFlowNode) {
    setMenu(null);
    if (node.type === 'summary' || node.type === 'fold' || node.type === 'droppedFold') {
      // what the summary hid opens in place: its first item takes the summary's spot on screen
      const first = node.type === 'droppedFold' ? droppedItemId(node.data.parentId, 0) : (node.data.nodeIds[0] ?? null);
      if (first) anchor.current = { itemId: first, at: node.position };
      store.getState().toggleFold(node.id);
    } else if (node.type === 'dropped') store.getState().select(node.data.parentId);
    else store.getState().select(node.id);
  }

  const far = level === 'shape';
  return (
    <OrientationContext.Provider value={orientation}>
      <ReactFlow
        nodes={far ? NO_NODES : nodes}
        edges={far ? NO_EDGES : model.edges}
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
        onPaneMouseLeave={() => {
          if (tooltip.current) tooltip.current.hidden = true;
        }}
        onMoveStart={(event) => {
          // a person panned or zoomed (programmatic moves have no event): stop following
          if (event) store.getState().setView({ followLive: false });
          if (tooltip.current) tooltip.current.hidden = true;
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
        className={far ? 'is-far' : undefined}
      >
        <Background gap={24} size={1} />
        <LodCanvas scene={scene} itemOf={itemOf} />
        <Controls showInteractive={false} showFitView={false} position="bottom-left">
          {/* React Flow's own fit sees no nodes at the far level: this one fits the published layout */}
          <ControlButton onClick={() => frame(null)} title="Fit View" aria-label="Fit View">
            <svg viewBox="0 0 32 30" aria-hidden="true">
              <path d="M3.692 4.63c0-.53.4-.938.939-.938h5.215V0H4.708C2.13 0 0 2.054 0 4.63v5.216h3.692V4.631zM27.354 0h-5.2v3.692h5.17c.53 0 .984.4.984.939v5.215H32V4.631A4.624 4.624 0 0027.354 0zm.954 24.83c0 .532-.4.94-.939.94h-5.215v3.768h5.215c2.577 0 4.631-2.13 4.631-4.707v-5.139h-3.692v5.139zm-23.677.94c-.531 0-.939-.4-.939-.94v-5.138H0v5.139c0 2.577 2.13 4.707 4.708 4.707h5.138V25.77H4.631z" />
            </svg>
          </ControlButton>
        </Controls>
        <CanvasToolbar
          autoCollapse={autoCollapse}
          onAutoCollapse={(on) => setCollapseChoice(on)}
          onFit={() => frame(null)}
        />
      </ReactFlow>
      <div ref={tooltip} className="lod-tooltip" role="tooltip" hidden />
      {menu && <NodeContextMenu {...menu} commands={commands} onFork={onFork} onClose={() => setMenu(null)} />}
    </OrientationContext.Provider>
  );
}
