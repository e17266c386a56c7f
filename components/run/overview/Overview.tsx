'use client';
/**
 * The overview: the whole tree as an icicle on a canvas, docked at the bottom-right of the canvas area, small or
 * large. Depth runs down (the root's row on top, as on the canvas); siblings' widths are proportional to their
 * subtree's node count under every colouring. Width by cost when coloured by cost was the alternative: it was not
 * taken because switching the colouring would then move every cell (the view's rectangle, the hovered cell and the
 * keyboard's position would jump, and a 100k-node layout would be computed twice), and because in a Tree-of-Thoughts
 * run cost per node is roughly even, so cost widths mostly repeat node-count widths; colouring each cell by its own
 * spend shows the nodes that break that evenness, and the tooltip gives the subtree's total.
 * The view's outline goes round the cells of the nodes the canvas has in view, row by row (from the canvas's layout,
 * derived here as the canvas derives it: ../canvas/useCanvasModel.ts, and React Flow's transform); search hits, the
 * active hit and the selected node are marked, and the nodes people commented on or labelled get a folded corner.
 * Click a cell: select the node and ask the canvas to frame its subtree (the node and its children when the subtree
 * is too big to read at once). Hover: the node's id, status, score (and MCTS Q and N), first line of thought,
 * subtree size and cost. Colour by status, score, cost, depth, and by MCTS Q or visits when the tree has them.
 * Keys, when focused: arrows move through the picture (up parent, down first child, left/right the neighbouring
 * cell of the row), Enter frames the node's subtree.
 * Not responsible for geometry and key moves (lib/layout/icicle.ts), colours or the drawing itself (lib/layout's
 * overview-*, applied by useOverviewDrawing.ts), nor for moving the canvas (the canvas answers focus requests).
 */
import { useStore as useFlowStore } from '@xyflow/react';
import { useMemo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import {
  cellColours,
  cellOf,
  COLOURINGS,
  computeIcicle,
  displayStatus,
  firstLine,
  formatScore,
  framedIds,
  hasMctsStats,
  icicleCellAt,
  icicleNeighbour,
  legend,
  mctsFigure,
  nodesByItem,
  rollupsFor,
  rowHeight,
  statusLabel,
  viewExtent,
  type Colouring,
  type IcicleLayout,
  type ViewExtent,
} from '@/lib/layout/index';
import type { ThoughtTree } from '@/lib/engine/index';
import { formatSpend, formatTokens } from '@/lib/contract/format';
import { discussionWords } from '@/lib/store/index';
import { useCanvasModel } from '../canvas/useCanvasModel';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi, useShownTree } from '../page/RunStoreContext';
import { useOverviewDrawing } from './useOverviewDrawing';
import s from './Overview.module.css';

const ARROWS: Partial<Record<string, 'up' | 'down' | 'left' | 'right'>> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

interface Hover {
  cell: number;
  x: number;
  y: number;
}

export function Overview() {
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  // a big live tree changes every frame, a seek swaps it: the picture follows when React has time (useShownTree)
  const { tree, version: shownVersion } = useShownTree();
  const selectedNodeId = useRunStore((st) => st.selectedNodeId);
  const search = usePageView((st) => st.search);
  const canvasLayout = useCanvasModel().layout;
  const [tx, ty, zoom] = useFlowStore((st) => st.transform);
  const paneWidth = useFlowStore((st) => st.width);
  const paneHeight = useFlowStore((st) => st.height);
  const [chosen, setColouring] = useState<Colouring>('status');
  const [large, setLarge] = useState(false);
  const [hover, setHover] = useState<Hover | null>(null);

  const layout = useMemo(() => {
    void shownVersion; // the tree is updated in place; version says when
    return computeIcicle(tree);
  }, [tree, shownVersion]);
  // Q and visits are offered when the tree (as of the step shown) has MCTS statistics; a choice not on offer reads
  // as status, and comes back when they do
  const mcts = useMemo(() => {
    void shownVersion;
    return hasMctsStats(tree);
  }, [tree, shownVersion]);
  const choices = COLOURINGS.filter((c) => mcts || !c.mcts);
  const colouring: Colouring = choices.some((c) => c.value === chosen) ? chosen : 'status';
  const colours = useMemo(() => cellColours(layout, colouring), [layout, colouring]);
  const byItem = useMemo(() => nodesByItem(canvasLayout), [canvasLayout]);
  // as text, so a pan that keeps the same nodes in view gives the same value and the marks are not redrawn
  const viewText = useMemo(() => {
    const extent = viewExtent(layout, canvasLayout, byItem, { tx, ty, zoom, width: paneWidth, height: paneHeight });
    return JSON.stringify(extent);
  }, [layout, canvasLayout, byItem, tx, ty, zoom, paneWidth, paneHeight]);
  const view = useMemo(() => JSON.parse(viewText) as ViewExtent | null, [viewText]);
  const selectedCell = useMemo(
    () => (selectedNodeId ? (cellOf(layout, tree, selectedNodeId) ?? -1) : -1),
    [layout, tree, selectedNodeId],
  );
  const hitCells = useMemo(() => {
    const cells: number[] = [];
    for (const id of search.hits) {
      const i = layout.indexOf.get(id);
      if (i !== undefined) cells.push(i);
    }
    return cells;
  }, [layout, search.hits]);
  // the run's discussion: a mark on each node that has some (the index keeps only those)
  const byNode = useRunStore((st) => st.discussion.byNode);
  const discussedCells = useMemo(() => {
    const cells: number[] = [];
    for (const id of byNode.keys()) {
      const i = layout.indexOf.get(id);
      if (i !== undefined) cells.push(i);
    }
    return cells;
  }, [layout, byNode]);
  const activeId = search.active >= 0 ? search.hits[search.active] : undefined;
  const activeCell = activeId !== undefined ? (layout.indexOf.get(activeId) ?? -1) : -1;

  const hoveredCell = hover?.cell ?? -1;
  const { plotRef, cellsRef, marksRef, size } = useOverviewDrawing(layout, colours, colouring, {
    view,
    hits: hitCells,
    discussed: discussedCells,
    active: activeCell,
    selected: selectedCell,
    hovered: hoveredCell,
  });

  const cellAt = (event: MouseEvent<HTMLCanvasElement>): { cell: number; x: number; y: number } => {
    const rect = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const d = Math.floor(y / rowHeight(layout, rect.height));
    return { cell: icicleCellAt(layout, x / rect.width, d), x, y };
  };

  const open = (cell: number) => {
    const id = layout.ids[cell];
    if (id === undefined) return;
    store.getState().select(id);
    pageView.getState().requestFocus(framedIds(layout, tree, cell));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLCanvasElement>) => {
    if (layout.ids.length === 0) return;
    const current = selectedCell >= 0 ? selectedCell : 0;
    const direction = ARROWS[event.key];
    if (!direction && event.key !== 'Enter') return;
    const next = direction ? icicleNeighbour(layout, current, direction) : -1;
    if (!direction) open(current);
    // the page's own arrow keys walk the canvas's siblings: here they walk the picture instead
    event.preventDefault();
    event.stopPropagation();
    const id = next >= 0 ? layout.ids[next] : undefined;
    if (id) store.getState().select(id);
  };

  const key = legend(colouring, colours.unit, colours.range);
  return (
    <div className={s.panel} data-size={large ? 'large' : 'small'} data-testid="overview">
      <OverviewBar
        choices={choices}
        colouring={colouring}
        onColouring={setColouring}
        large={large}
        onLarge={() => setLarge((l) => !l)}
      />
      <div className={s.plot} ref={plotRef}>
        <canvas
          ref={cellsRef}
          className={s.canvas}
          data-testid="overview-canvas"
          data-cells={layout.ids.length}
          data-rows={layout.rows.length}
          data-colouring={colouring}
          data-view={view ? 'shown' : 'none'}
          tabIndex={0}
          aria-label="Overview of the whole tree: click a node to frame it; arrow keys move, Enter frames"
          onPointerMove={(event) => {
            const { cell, x, y } = cellAt(event);
            setHover(cell < 0 ? null : { cell, x, y });
          }}
          onPointerLeave={() => setHover(null)}
          onClick={(event) => {
            const { cell } = cellAt(event);
            if (cell >= 0) open(cell);
          }}
          onKeyDown={onKeyDown}
        />
        <canvas ref={marksRef} className={s.marks} aria-hidden />
        {layout.ids.length === 0 && <div className={s.empty}>No nodes yet</div>}
        {hover && <Tooltip layout={layout} tree={tree} hover={hover} plot={size} />}
      </div>
      {key && (
        <div className={s.legend} data-colouring={colouring}>
          <span>{key.low}</span>
          <span className={s.ramp} data-colouring={colouring} />
          <span>{key.high}</span>
        </div>
      )}
    </div>
  );
}

function OverviewBar({
  choices,
  colouring,
  onColouring,
  large,
  onLarge,
}: {
  choices: readonly { value: Colouring; label: string }[];
  colouring: Colouring;
  onColouring: (colouring: Colouring) => void;
  large: boolean;
  onLarge: () => void;
}) {
  return (
    <div className={s.bar}>
      <span className={s.title}>Overview</span>
      <select
        className={s.select}
        aria-label="Colour the overview by"
        data-testid="overview-colouring"
        value={colouring}
        onChange={(e) => onColouring(e.target.value as Colouring)}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className={s.size}
        aria-label={large ? 'Smaller overview' : 'Larger overview'}
        aria-pressed={large}
        title={large ? 'Smaller' : 'Larger'}
        data-testid="overview-size"
        onClick={onLarge}
      >
        {large ? '↘' : '↖'}
      </button>
    </div>
  );
}

function Tooltip({
  layout,
  tree,
  hover,
  plot,
}: {
  layout: IcicleLayout;
  tree: ThoughtTree;
  hover: Hover;
  plot: { width: number; height: number };
}) {
  // the subtree totals the inspector shows, from the cache shared with it (once per tree version)
  const rollups = rollupsFor(tree);
  const id = layout.ids[hover.cell];
  const node = id ? tree.nodes[id] : undefined;
  if (!node) return null;
  const rollup = rollups.get(node.id);
  const thought = node.branch ? node.branch.thought : tree.goal;
  // above the pointer (the panel sits at the bottom of the canvas area, so there is room upwards), on the side of
  // the pointer that has more of the panel
  const style =
    hover.x > plot.width / 2
      ? { right: plot.width - hover.x + 8, bottom: plot.height - hover.y + 8 }
      : { left: hover.x + 8, bottom: plot.height - hover.y + 8 };
  return (
    <div className={s.tip} style={style} role="tooltip" data-testid="overview-tooltip" data-node-id={node.id}>
      <div className={s.tipHead}>
        <span className="mono">{node.id}</span>
        <span className={`badge st-${displayStatus(node)}`}>{statusLabel(node)}</span>
        {node.score && <span className="mono">score {formatScore(node.score.composite)}</span>}
        {node.mcts && <span className="mono">{mctsFigure(node.mcts)}</span>}
      </div>
      <div className={s.tipThought}>{firstLine(thought) || '(no thought)'}</div>
      <TooltipDiscussion nodeId={node.id} />
      {rollup && (
        <div className={s.tipFoot}>
          subtree {formatTokens(rollup.nodes)} node{rollup.nodes === 1 ? '' : 's'} · {formatSpend(rollup)}
        </div>
      )}
    </div>
  );
}

/** What people wrote on the hovered node: "2 comments · 1 label: good thought", or nothing. */
function TooltipDiscussion({ nodeId }: { nodeId: string }) {
  const entry = useRunStore((st) => st.discussion.byNode.get(nodeId));
  if (!entry) return null;
  const words = discussionWords(entry.comments, entry.labels.length);
  return (
    <div className={s.tipFoot} data-testid="overview-tooltip-discussion">
      {entry.labels.length > 0 ? `${words}: ${entry.labels.join(', ')}` : words}
    </div>
  );
}
