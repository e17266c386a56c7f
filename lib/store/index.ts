/**
 * lib/store's front door: what other rooms (components, lib/layout, benches, engine tests) use of the browser's
 * stores, the run store, the per-page view store and the pure helpers beside them (clock, timeline, drawer, prune,
 * permissions).
 * Browser-safe (its package.json says it has no side effects, so a page bundles only what it uses).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { createPageViewStore } from './page-view';
export type { PageViewState, PageViewStore } from './page-view';
export { createRunSearch } from './run-search';
export type { RunSearch } from './run-search';
export { PRUNE_ASK_ABOVE, pruneReach } from './prune';
export { elapsedMs, pauseReader, runStatus } from './run-clock';
export { connectionState, isRefusal, NdjsonEvents, retryDelayMs } from './run-stream';
export type { ConnectionState } from './run-stream';
export {
  clampDrawerWidth,
  DEFAULT_DRAWER,
  DRAWER_DOCK_MIN_VIEWPORT,
  DRAWER_MAX_WIDTH,
  DRAWER_MIN_WIDTH,
  DRAWER_STORAGE_KEY,
  isDrawerOpen,
  parseDrawer,
  serializeDrawer,
  widthFromDrag,
} from './run-drawer';
export type { DrawerState, DrawerTab } from './run-drawer';
export {
  addBlock,
  addBreakpoint,
  adjacentHit,
  conditionFromDraft,
  decodeBreakpoints,
  disableAll,
  EMPTY_DRAFT,
  encodeBreakpoints,
  hitMarkers,
  KIND_FIELDS,
  nextHitOf,
  queryHits,
  removeBreakpoint,
  runToHere,
  runToId,
  setEnabled,
  StopIndex,
} from './breakpoints';
export type { BreakpointDraft, DraftField, DraftResult, HitList, HitMark, HitMarker } from './breakpoints';
export { createRunStore } from './run-store';
export { discussionBadge, indexDiscussion, NO_DISCUSSION } from './discussion';
export type { CommentThread, DiscussionIndex, DiscussionMark, NodeDiscussion } from './discussion';
export {
  ALL_ENTRIES,
  commentLink,
  describeMarker,
  discussionCount,
  discussionEntries,
  discussionMarkers,
  discussionWords,
  isLiveThread,
  labelsOn,
  labelTally,
  labelToggle,
  replyTarget,
  threadsOf,
  writtenWhen,
} from './discussion-view';
export type { DiscussionEntry, DiscussionMarker, EntryFilter, LabelCount } from './discussion-view';
export { createShownTree, MAX_PACE_MS, PACE_PER_BUILD } from './shown-tree';
export type { ShownTree, ShownTreeStore } from './shown-tree';
export type { RunStore, RunViewState } from './run-store';
export { DRAWN_KINDS, jump, MOMENT_NAMES, momentCount, MomentIndex, playhead } from './timeline';
export {
  columnAt,
  countBetween,
  DENSITY_KINDS,
  densitySlot,
  describeRange,
  hitsBetween,
  MatchingSeqs,
  MIN_BAR,
  MomentDensity,
  stackHeights,
} from './timeline-density';
export type { DensityColumns, RangeCounts } from './timeline-density';
export type { JumpTarget, MomentKind, PlayUnit } from './timeline';
export { breakpointsBlock, navigate, steerBlock } from './node-commands';
export type { NavKey, SteerContext, SteerTarget } from './node-commands';
export { pagePermissions, runPermissions } from './permissions';
export type { PagePermissions, RunPermissions } from './permissions';
export { commandState, commandWhat, lastNodeCommand, nodeCommand, runCommand, waitingCount } from './steer-requests';
export { configSummary, jsonText, metadataRows, scoreRows, scoreText } from './annotations';
export type { MetadataRow, ScoreRow } from './annotations';
