/**
 * An event before it has a place in a run's log (no run id, no seq), and how drafts are numbered after the stored
 * end: every producer that is not the engine (lifecycle, ingest, imports' callers, experiments) hands the log room
 * drafts, and only the log room gives them their seqs, so two producers can never number the same log.
 * The engine numbers its own events (its reduce needs them as it searches); the log room checks they follow.
 * Not responsible for writing (run-log.ts) nor for what a draft says (its producer).
 */
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../../contract/events';

export type EventDraft = {
  [K in ExplorationEventType]: { type: K; payload: EventPayloads[K]; ts?: number };
}[ExplorationEventType];

/** Drafts placed after `lastSeq`: seqs from lastSeq + 1, each draft's own time or `now`. */
export function numberDrafts(
  runId: string,
  lastSeq: number,
  drafts: readonly EventDraft[],
  now: number = Date.now(),
): ExplorationEvent[] {
  return drafts.map(
    ({ ts, ...draft }, i) => ({ runId, seq: lastSeq + 1 + i, ts: ts ?? now, ...draft }) as ExplorationEvent,
  );
}
