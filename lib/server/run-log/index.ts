/**
 * The log room's door, for the rest of lib/server: the one writer (RunLog, its live batching for engine runs, its
 * staged import path), event drafts and their numbering, the projection helpers a producer that checks its own fold
 * needs, the announcements (the bus, the cluster's notices), the lease fence, and the reads of a run's log (events,
 * nodes, snapshots), and the clean-up of what no run stands for (clean-up.ts). The row writes themselves (events.ts'
 * appends, nodes.ts' upserts, run-rows.ts) are not exported: nothing outside this room writes a run's event, node or
 * summary rows.
 * Not responsible for anything itself: the room's files hold the definitions.
 */
export {
  LEFTOVER_SWEEP_MS,
  type LeftoverSweeper,
  type LeftoversSwept,
  startLeftoverSweeps,
  sweepLeftovers,
} from './clean-up';
export { type EventDraft, numberDrafts } from './drafts';
export { type BusMessage, EventBus, type LiveFigures, STREAMS_CLOSING } from './event-bus';
export {
  announceDiscussed,
  countEvents,
  EventAppendError,
  EVENTS_CHANNEL,
  type EventsNotice,
  getEvent,
  type HistoryPage,
  lightHistoryPage,
  listEvents,
  type ListEventsOptions,
  parseEventsNotice,
  PROMPT_TEXT_IDLE_MS,
  withoutPrompt,
} from './events';
export {
  deleteStagedImport,
  IMPORT_CHUNK_ROWS,
  storeRuns,
  type StoreRunsOptions,
  sweepStagedImports,
} from './import-writer';
export {
  claimQueuedRun,
  clearLapsedQueuedLeases,
  holdsLease,
  leaseOwnerOf,
  queuedRunCount,
  releaseLease,
  renewLeases,
  type TakenOver,
  takeOverLapsedRuns,
  unclaimedQueuedRuns,
} from './leases';
export {
  createWriteState,
  drainWrites,
  dropPending,
  enqueueWrite,
  type RunWriterDeps,
  type RunWriteState,
} from './live-writer';
export { listNodes, type NodeRecord, nodeRow } from './nodes';
export { foldTouched } from './projection';
export {
  type AlsoWrite,
  type CommitOptions,
  RunLog,
  type RunLogOptions,
  type StopListener,
  type WriteFence,
} from './run-log';
export type { NewRun } from './run-row';
export type { RunPatch } from './run-rows';
export { latestTreeText } from './snapshots';
export { summarizeTree } from './summary';
