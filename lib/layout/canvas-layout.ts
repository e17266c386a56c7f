/**
 * The canvas's layout as one derived value every part of the run page can read: the view choices gathered from the
 * run store, the page-view store and the canvas prefs (`canvasViewOf`), and a per-page memo (`createCanvasModelMemo`)
 * that builds the canvas elements once for a given tree version and view, so the canvas, the overview and the
 * framing hook all read the same object from the same inputs instead of one copying its result into a store.
 * Pure and React-free.
 * Not responsible for building the elements (canvas-elements.ts), nor for keeping their objects stable across builds
 * (stable-elements.ts), nor for where the inputs live (lib/store, components/run/canvas/prefs.ts).
 */
import type { ThoughtTree } from '../engine/index';
import { buildCanvasElements, type CanvasElements, type CanvasView } from './canvas-elements';
import { CARD_HEIGHT, CARD_WIDTH, createTreePlacer, type Orientation } from './place';
import type { Position } from './tidy';

/** Trees up to this many nodes show everything unless asked to collapse; bigger ones start focused. */
export const AUTO_COLLAPSE_ABOVE = 40;

/** Where the canvas places what it shows, in canvas (flow) coordinates: top-left corners of each item. */
export interface CanvasLayout {
  /** Visible item id -> its top-left corner. */
  positions: ReadonlyMap<string, Position>;
  /** Node id -> the visible item that stands for it (itself, or the fold or summary card hiding it). */
  itemOf: ReadonlyMap<string, string>;
  /** Size of a full card in flow units (every item has this box). */
  itemWidth: number;
  itemHeight: number;
}

/** The elements of one build and their layout (the part the overview and the framing read). */
export interface CanvasModel extends CanvasElements {
  layout: CanvasLayout;
  /** The view it was built for. */
  view: CanvasView;
  /** The seq of the tree it was built from (the step it draws). */
  seq: number;
}

/** What the view depends on, as the run store holds it. */
export interface CanvasViewInputs {
  tree: ThoughtTree;
  selectedNodeId: string | null;
  bestNodeId: string | null;
  lastBacktrack: CanvasView['lastBacktrack'];
  foldDeadEnds: boolean;
  showDropped: boolean;
  openFolds: ReadonlySet<string>;
}

/**
 * The canvas's view from the run store's choices, the person's collapse choice (null: automatic, which collapses
 * trees over AUTO_COLLAPSE_ABOVE nodes) and their canvas prefs.
 */
export function canvasViewOf(
  run: CanvasViewInputs,
  collapseChoice: boolean | null,
  prefs: { orientation: Orientation; mode: CanvasView['mode'] },
): CanvasView {
  return {
    selectedNodeId: run.selectedNodeId,
    bestNodeId: run.bestNodeId,
    lastBacktrack: run.lastBacktrack,
    foldDeadEnds: run.foldDeadEnds,
    showDropped: run.showDropped,
    openFolds: run.openFolds,
    autoCollapse: collapseChoice ?? run.tree.nodeOrder.length > AUTO_COLLAPSE_ABOVE,
    orientation: prefs.orientation,
    mode: prefs.mode,
  };
}

const VIEW_KEYS: readonly (keyof CanvasView)[] = [
  'selectedNodeId',
  'bestNodeId',
  'lastBacktrack',
  'foldDeadEnds',
  'showDropped',
  'openFolds',
  'autoCollapse',
  'orientation',
  'mode',
];

export type CanvasModelMemo = (tree: ThoughtTree, version: number, view: CanvasView) => CanvasModel;

/**
 * A memo of the last two builds: the same tree (object and version, since the tree is updated in place) and the same
 * view (field by field) give back the same model object; anything else builds anew, and says how long it took
 * (`onBuild`: the pace of a growing live tree follows it). One per canvas (page view).
 * Two, because React renders two versions in turn: the deferred render of the newest (which an urgent update may
 * interrupt before it commits) and the urgent render of the page, which still shows the committed one. With one
 * entry each of them rebuilt the other's model, and a big live tree was built twice per change.
 */
export function createCanvasModelMemo(
  build: typeof buildCanvasElements = buildCanvasElements,
  onBuild: (ms: number) => void = () => {},
): CanvasModelMemo {
  let recent: { tree: ThoughtTree; version: number; view: CanvasView; model: CanvasModel }[] = [];
  // a step that changes statuses but not the shape shown keeps its placement (place.ts)
  const place = createTreePlacer();
  return (tree, version, view) => {
    const hit = recent.find(
      (r) => r.tree === tree && r.version === version && VIEW_KEYS.every((k) => r.view[k] === view[k]),
    );
    if (hit) return hit.model;
    const started = performance.now();
    const elements = build(tree, view, place);
    onBuild(performance.now() - started);
    const layout: CanvasLayout = {
      positions: elements.positions,
      itemOf: elements.itemOf,
      itemWidth: CARD_WIDTH,
      itemHeight: CARD_HEIGHT,
    };
    // not spread: the elements' nodes, edges and scene are built when first read (canvas-elements.ts)
    const model: CanvasModel = {
      get nodes() {
        return elements.nodes;
      },
      get edges() {
        return elements.edges;
      },
      get scene() {
        return elements.scene;
      },
      within: elements.within,
      positions: elements.positions,
      itemOf: elements.itemOf,
      layout,
      view,
      seq: tree.lastSeq,
    };
    recent = [{ tree, version, view, model }, ...recent.slice(0, 1)];
    return model;
  };
}
