/**
 * lib/layout's front door: what other rooms (components, lib/compare, benches, e2e) use of it, the canvas's
 * elements, the icicle overview, the scene's hit tests, zoom levels, status labels and rollups. Browser-safe and
 * pure (its package.json says so, so a page bundles only what it uses).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { buildCanvasElements } from './canvas-elements';
export type { CanvasElements } from './canvas-elements';
export { AUTO_COLLAPSE_ABOVE, canvasViewOf, createCanvasModelMemo } from './canvas-layout';
export type { CanvasLayout, CanvasModel, CanvasModelMemo, CanvasViewInputs } from './canvas-layout';
export type {
  DroppedFlowNode,
  DroppedFoldFlowNode,
  FoldFlowNode,
  RunFlowNode,
  SummaryFlowNode,
  ThoughtFlowNode,
} from './flow-types';
export {
  asGitDiff,
  CODE_VERDICT_LABELS,
  codeVerdict,
  diffSize,
  languageOf,
  nodeCodeVerdict,
  traceLines,
} from './code-change';
export type { CodeVerdict, TraceTone } from './code-change';
export {
  cellOf,
  computeIcicle,
  forEachDrawnCell,
  framedIds,
  icicleCellAt,
  icicleNeighbour,
  MAX_FRAMED,
  nodesByItem,
  subtreeCells,
  viewExtent,
} from './icicle';
export type { IcicleLayout, ViewExtent } from './icicle';
export { CARD_MIN_ZOOM, levelOf, READABLE_ZOOM } from './lod';
export { formatQ, hasMctsStats, MCTS_SECTION_KEYS, mctsFigure, mctsSettingFacts, mctsSummary } from './mcts';
export type { MctsSettingFact } from './mcts';
export {
  displayStatus,
  droppedFoldText,
  firstLine,
  formatScore,
  isSearchPruned,
  rootThought,
  scoreFigure,
  STATUS_LABELS,
  statusLabel,
} from './node-status';
export type { DisplayStatus } from './node-status';
export { cellColours, COLOURINGS, legend, palette, themeVar } from './overview-colours';
export type { CellColours, Colouring } from './overview-colours';
export { drawCells, drawMarks, prepare, rowHeight } from './overview-draw';
export type { MarkColours, Marks } from './overview-draw';
export { CARD_HEIGHT, CARD_WIDTH } from './place';
export type { LayoutMode, Orientation } from './place';
export { rollupsFor, subtreeRollups, sumRollups } from './rollup';
export { edgeInRect, itemInRect, sceneItemAt } from './scene';
export type { Rect, Scene, SceneItem } from './scene';
export { sharedPrefix } from './shared-prefix';
export { createElementCache, stabilize } from './stable-elements';
export type { Position } from './tidy';
export { droppedItemId } from './visible-tree';
export { windowAround, windowServes } from './element-window';
export { boxOf, fitViewport, followViewport, MIN_ZOOM, revealViewport, viewportFor, viewRect } from './fit';
export type { Box, Viewport } from './fit';
