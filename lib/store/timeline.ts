/**
 * The timeline's vocabulary: what kind of moment each event is (for its colour and for jumps), and where the
 * next or previous moment of a kind is. Pure functions over the event log; no React.
 * Not responsible for what is on screen (the run store's seek).
 */
import type { ExplorationEvent } from '../engine/events';

export type MomentKind = 'expansion' | 'prune' | 'backtrack' | 'verified' | 'failed' | 'command' | 'step' | 'other';

export function momentKind(event: ExplorationEvent): MomentKind {
  switch (event.type) {
    case 'node.expanded':
    case 'branches.generated':
      return 'expansion';
    case 'candidate.dropped':
      return 'prune';
    case 'backtrack':
      return 'backtrack';
    case 'node.verified':
      return event.payload.passed ? 'verified' : 'failed';
    case 'node.failed':
      return 'failed';
    case 'node.started':
      return 'step';
    default:
      return event.type.startsWith('steer.') ? 'command' : 'other';
  }
}

export type JumpTarget = 'event' | 'iteration' | 'backtrack' | 'prune' | 'command';

const MATCH: Record<Exclude<JumpTarget, 'event'>, (event: ExplorationEvent) => boolean> = {
  // an iteration of the search is one step: it begins with node.started
  iteration: (e) => e.type === 'node.started',
  backtrack: (e) => e.type === 'backtrack',
  // a prune is either kind: dropped below the threshold, or by a person
  prune: (e) => e.type === 'candidate.dropped' || e.type === 'steer.prune',
  command: (e) => e.type.startsWith('steer.'),
};

/**
 * The seq to show after jumping from `seq` (the one on screen) to the next (+1) or previous (-1) moment of a kind.
 * An iteration lands on the step's last event, so the step is seen done. Null when there is none that way.
 */
export function jump(
  events: readonly ExplorationEvent[],
  seq: number,
  target: JumpTarget,
  direction: 1 | -1,
): number | null {
  const last = events.length;
  if (target === 'event') {
    const next = seq + direction;
    return next < 0 || next > last ? null : next;
  }
  const match = MATCH[target];
  if (target === 'iteration') {
    // iteration k spans from its node.started to the event before the next node.started
    const starts: number[] = [];
    for (const e of events) if (match(e)) starts.push(e.seq);
    const ends = starts.map((s, i) => (i + 1 < starts.length ? (starts[i + 1] as number) - 1 : last));
    if (direction === 1) return ends.find((end) => end > seq) ?? null;
    const before = ends.filter((end) => end < seq);
    return before.length ? (before.at(-1) as number) : seq > 0 ? 0 : null;
  }
  if (direction === 1) {
    for (let s = seq + 1; s <= last; s++) if (match(events[s - 1] as ExplorationEvent)) return s;
  } else {
    for (let s = seq - 1; s >= 1; s--) if (match(events[s - 1] as ExplorationEvent)) return s;
  }
  return null;
}

/** Milliseconds to wait before showing `seq + 1` while playing at `speed` (the run's own pace, within bounds). */
export function playDelay(events: readonly ExplorationEvent[], seq: number, speed: number): number {
  const current = events[seq - 1];
  const next = events[seq];
  const gap = current && next ? next.ts - current.ts : 0;
  return Math.min(Math.max(gap, 40), 1_500) / speed;
}
