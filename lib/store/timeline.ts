/**
 * The timeline's vocabulary: what kind of moment each event is (for its colour and for jumps) and its name for
 * people, and where the next or previous moment of a kind is: an event, a search step (node.started to the event
 * before the next), an MCTS iteration's end (its mcts.backpropagated), a backtrack, a prune, a command. Pure
 * functions over the event log; no React. Not responsible for what is on screen (the run store's seek) nor for how
 * many moments of each kind a stretch of the log holds (timeline-density.ts).
 */
import type { ExplorationEvent } from '../contract/events';
import { firstAbove } from './sorted';

export type MomentKind = 'expansion' | 'prune' | 'backtrack' | 'verified' | 'failed' | 'command' | 'step' | 'other';

export function momentKind(event: ExplorationEvent): MomentKind {
  switch (event.type) {
    case 'node.expanded':
    case 'branches.generated':
      return 'expansion';
    case 'candidate.dropped':
    case 'node.pruned':
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

/** `step`: a search step; `iteration`: an MCTS iteration (issue 31), which may hold several steps. */
export type JumpTarget = 'event' | 'step' | 'iteration' | 'backtrack' | 'prune' | 'command';

type MomentTarget = Exclude<JumpTarget, 'event'>;

const MATCH: Record<MomentTarget, (event: ExplorationEvent) => boolean> = {
  // a search step (one expansion: a node.started, its run, its children generated and scored) begins with node.started
  step: (e) => e.type === 'node.started',
  // an MCTS iteration (select, run or grow, back up) ends with its mcts.backpropagated
  iteration: (e) => e.type === 'mcts.backpropagated',
  backtrack: (e) => e.type === 'backtrack',
  // a prune is any kind: dropped below the threshold, by a person, or by the search's own rule (an external search)
  prune: (e) => e.type === 'candidate.dropped' || e.type === 'steer.prune' || e.type === 'node.pruned',
  command: (e) => e.type.startsWith('steer.'),
};
const TARGETS = Object.keys(MATCH) as MomentTarget[];

/**
 * Where the moments a jump lands on are: the seqs of each kind, read as the log grows in place (O(new events)), so
 * a jump, and whether there is anything to jump to, costs a binary search at any length of run (the timeline asks
 * for every button on every step of a playback).
 */
export class MomentIndex {
  private seen = 0;
  private readonly seqs: Record<MomentTarget, number[]> = {
    step: [],
    iteration: [],
    backtrack: [],
    prune: [],
    command: [],
  };

  /** Reads events[seen..count) (the log grows in place, index = seq - 1). */
  read(events: readonly ExplorationEvent[], count: number): this {
    for (let i = this.seen; i < Math.min(count, events.length); i++) {
      const event = events[i] as ExplorationEvent;
      for (const target of TARGETS) if (MATCH[target](event)) this.seqs[target].push(event.seq);
    }
    this.seen = Math.max(this.seen, Math.min(count, events.length));
    return this;
  }

  /**
   * The seq to show after jumping from `seq` (the one on screen) to the next (+1) or previous (-1) moment of a kind.
   * A search step lands on its last event (the event before the next step begins, or the log's last), so the step
   * is seen done; back from the first one is seq 0. An MCTS iteration lands on its mcts.backpropagated (the iteration
   * backed up); back from the first is seq 0 too. Null when there is none that way, and from a step beyond the log
   * read so far (a long run's history arrives after its latest tree: nothing is known to jump to from there).
   */
  jump(seq: number, target: JumpTarget, direction: 1 | -1): number | null {
    const last = this.seen;
    if (seq > last) return null;
    if (target === 'event') {
      const next = seq + direction;
      return next < 0 || next > last ? null : next;
    }
    const seqs = this.seqs[target];
    if (target === 'iteration' && direction === -1) {
      const before = seqs[firstAbove(seqs, seq - 1) - 1];
      return before ?? (seq > 0 && seqs.length > 0 ? 0 : null);
    }
    if (target === 'step') {
      // the ends of the steps: each start after the first, less one, then the last event
      if (seqs.length === 0) return null;
      if (direction === 1) {
        const k = Math.max(1, firstAbove(seqs, seq + 1));
        if (k < seqs.length) return (seqs[k] as number) - 1;
        return last > seq ? last : null;
      }
      const k = firstAbove(seqs, seq) - 1; // the last start at or before seq
      if (k >= 1) return (seqs[k] as number) - 1;
      return seq > 0 ? 0 : null;
    }
    if (direction === 1) return seqs[firstAbove(seqs, seq)] ?? null;
    return seqs[firstAbove(seqs, seq - 1) - 1] ?? null;
  }

  /** How many moments of a kind lie at or before `seq` (MCTS iterations backed up by then, for one). */
  countUpTo(target: MomentTarget, seq: number): number {
    return firstAbove(this.seqs[target], seq);
  }
}

/** jump() on a log read whole: for a single jump (a key press); a view that jumps often keeps a MomentIndex. */
export function jump(
  events: readonly ExplorationEvent[],
  seq: number,
  target: JumpTarget,
  direction: 1 | -1,
): number | null {
  return new MomentIndex().read(events, events.length).jump(seq, target, direction);
}

/** What one tick of playback moves: one event, one search step, or one MCTS iteration. */
export type PlayUnit = Extract<JumpTarget, 'event' | 'step' | 'iteration'>;

/** The seq playback shows after `seq`, one unit on; null at the end of the log read so far. */
export function playNext(index: MomentIndex, seq: number, unit: PlayUnit): number | null {
  return index.jump(seq, unit, 1);
}

/**
 * Milliseconds to show `from` before moving on to `to` while playing at `speed`: the run's own pace between the
 * two, within bounds (40 ms to 1.5 s), over the speed.
 */
export function playDelay(events: readonly ExplorationEvent[], from: number, to: number, speed: number): number {
  const a = events[from - 1];
  const b = events[to - 1];
  const gap = a && b ? b.ts - a.ts : 0;
  return Math.min(Math.max(gap, 40), 1_500) / speed;
}

/** Where playback is: the seq on screen, when it was due (on the play clock), and when the next one is (null: the end). */
export interface Playhead {
  seq: number;
  since: number;
  dueAt: number | null;
}

/**
 * Where playback should be at `now`, having shown `seq` since `since`: every unit whose time has come is passed over,
 * so a page that takes longer to draw a step than the step's share of the time drops steps (as a video drops frames)
 * and a run plays in the time its schedule says, not in the time it takes to draw every step. The schedule keeps
 * its own clock (`since` is when a step was due, not when it was drawn), so lateness never accumulates.
 */
export function playhead(
  events: readonly ExplorationEvent[],
  index: MomentIndex,
  seq: number,
  since: number,
  now: number,
  unit: PlayUnit,
  speed: number,
): Playhead {
  let at = seq;
  let time = since;
  for (;;) {
    const next = playNext(index, at, unit);
    if (next === null) return { seq: at, since: time, dueAt: null };
    const due = time + playDelay(events, at, next, speed);
    if (due > now) return { seq: at, since: time, dueAt: due };
    at = next;
    time = due;
  }
}

/** The kinds a timeline colours, in drawing order (later ones on top); 'other' lies under them, uncoloured. */
export const DRAWN_KINDS: readonly Exclude<MomentKind, 'other'>[] = [
  'step',
  'expansion',
  'prune',
  'verified',
  'failed',
  'backtrack',
  'command',
];

/** Each kind's name for people, one and many ("1 backtrack", "12 prunes"): the words a hover and a legend use. */
export const MOMENT_NAMES: Record<MomentKind, readonly [one: string, many: string]> = {
  expansion: ['expansion', 'expansions'],
  prune: ['prune', 'prunes'],
  backtrack: ['backtrack', 'backtracks'],
  verified: ['verified', 'verified'],
  failed: ['failure', 'failures'],
  command: ["person's command", "person's commands"],
  step: ['step started', 'steps started'],
  other: ['other event', 'other events'],
};

/** "41 expansions", "1 backtrack": a count of a kind of moment, for people. */
export function momentCount(kind: MomentKind, count: number): string {
  const [one, many] = MOMENT_NAMES[kind];
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
