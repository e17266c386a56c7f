/**
 * What the inspector says of one node of a Monte Carlo tree search (issue 31), read from the log up to the step on
 * screen: the last selection in which the node was a candidate (its UCT terms, whether it was chosen, and among
 * which siblings), and its value history (every backup through it: the iteration, the value and where it came from,
 * and its Q and N after). Pure functions of the log; Q after each backup is the engine's own backUp, the one rule
 * reduce folds with, so the history's last row is the node's Q and N on the card.
 * Not responsible for choosing (lib/engine/mcts.ts) nor for folding the tree (reduce); a log without MCTS events
 * (an imported llm-reasoners tree, whose figures come from node.annotated) gives no selection and no history.
 */
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { MctsCandidate, MctsStats, MctsValueSource, ToTConfig } from '../contract/vocabulary';
import { backUp } from '../engine/index';

/** How Q combines the values backed up (the run's mctsBackup, whole: mctsSettings fills a missing one). */
export type MctsBackupRule = NonNullable<ToTConfig['mctsBackup']>;

/** The node's place in the last selection that listed it among a parent's candidates. */
export interface MctsSelectionView {
  /** The mcts.selected event's seq and iteration. */
  seq: number;
  iteration: number;
  parentId: string;
  /** N(parent) as folded just before the selection. */
  parentVisits: number;
  /** The node's own terms: visits, Q, prior, exploration term, UCT (the last two null while it was unvisited). */
  candidate: MctsCandidate;
  chosen: boolean;
  /** The candidate the hop chose (this node when chosen). */
  chosenId: string;
  /** The other candidates of that hop, in the hop's order. */
  siblings: MctsCandidate[];
}

/** One mcts.backpropagated through the node, with its statistics right after it. */
export interface MctsBackupRow {
  seq: number;
  iteration: number;
  /** Null: the iteration was abandoned (its node pruned) and nothing was backed up. */
  value: number | null;
  source: MctsValueSource;
  /** The node the value was read from (the iteration's last node run; the node itself when it is that node). */
  fromId: string;
  /** Q and N after this backup. */
  q: number | null;
  n: number;
}

const isSelected = (e: ExplorationEvent): e is EventOf<'mcts.selected'> => e.type === 'mcts.selected';
const isBackup = (e: ExplorationEvent): e is EventOf<'mcts.backpropagated'> => e.type === 'mcts.backpropagated';

/** The events at or before `upToSeq` the log holds (index = seq - 1). */
function lastIndex(events: readonly ExplorationEvent[], upToSeq: number): number {
  return Math.min(events.length, Math.max(0, Math.floor(upToSeq))) - 1;
}

/**
 * The last mcts.selected at or before `upToSeq` in which `nodeId` was one of a hop's candidates, or null (the root,
 * a node not yet reached by a selection, a log without MCTS events). Reads backwards, so it stops at the first found.
 */
export function lastSelectionOf(
  events: readonly ExplorationEvent[],
  nodeId: string,
  upToSeq: number,
): MctsSelectionView | null {
  for (let i = lastIndex(events, upToSeq); i >= 0; i--) {
    const event = events[i] as ExplorationEvent;
    if (!isSelected(event)) continue;
    for (const hop of event.payload.hops) {
      const candidate = hop.candidates.find((c) => c.nodeId === nodeId);
      if (!candidate) continue;
      return {
        seq: event.seq,
        iteration: event.payload.iteration,
        parentId: hop.parentId,
        parentVisits: hop.parentVisits,
        candidate,
        chosen: hop.chosenId === nodeId,
        chosenId: hop.chosenId,
        siblings: hop.candidates.filter((c) => c.nodeId !== nodeId),
      };
    }
  }
  return null;
}

/**
 * Every mcts.backpropagated through `nodeId` at or before `upToSeq`, oldest first, with Q and N after each (folded
 * with backUp under `rule`, from no statistics). An abandoned iteration whose node this is appears with its null
 * value and the statistics unchanged; one abandoned elsewhere does not concern the node.
 */
export function valueHistoryOf(
  events: readonly ExplorationEvent[],
  nodeId: string,
  upToSeq: number,
  rule: MctsBackupRule,
): MctsBackupRow[] {
  const rows: MctsBackupRow[] = [];
  let stats: MctsStats | null = null;
  const last = lastIndex(events, upToSeq);
  for (let i = 0; i <= last; i++) {
    const event = events[i] as ExplorationEvent;
    if (!isBackup(event)) continue;
    const { iteration, value, source, path } = event.payload;
    const through = value !== null ? path.includes(nodeId) : event.payload.nodeId === nodeId;
    if (!through) continue;
    if (value !== null) stats = backUp(stats, value, rule);
    rows.push({
      seq: event.seq,
      iteration,
      value,
      source,
      fromId: event.payload.nodeId,
      q: stats?.q ?? null,
      n: stats?.n ?? 0,
    });
  }
  return rows;
}

/** How a value's source reads in the inspector. */
export const MCTS_SOURCE_LABELS: Record<MctsValueSource, string> = {
  verified: 'verified answer',
  'verification-failed': 'failed verification',
  failed: 'node failed',
  score: 'evaluator’s score',
  abandoned: 'abandoned (pruned)',
};
