import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { externalSearchLog } from '../engine/testing';
import { recordGame24, recordMcts } from '../tasks/testing/recorded';
import { MomentIndex, MOMENT_NAMES, momentCount, jump, momentKind, playDelay, playhead, playNext } from './timeline';

const recordRun = async () => (await recordGame24()).events;

describe('timeline', () => {
  it('names the kind of each moment', async () => {
    const events = await recordRun();
    const kinds = new Set(events.map(momentKind));
    for (const k of ['expansion', 'prune', 'backtrack', 'verified', 'failed', 'step'] as const)
      expect(kinds).toContain(k);
  });

  it('jumps one event, one search step, and to the next or previous backtrack and prune', async () => {
    const events = await recordRun();
    expect(jump(events, 10, 'event', 1)).toBe(11);
    expect(jump(events, 0, 'event', -1)).toBeNull();
    expect(jump(events, events.length, 'event', 1)).toBeNull();
    const backtracks = events.filter((e) => e.type === 'backtrack').map((e) => e.seq);
    expect(jump(events, 0, 'backtrack', 1)).toBe(backtracks[0]);
    expect(jump(events, backtracks[1] as number, 'backtrack', -1)).toBe(backtracks[0]);
    expect(jump(events, events.length, 'backtrack', 1)).toBeNull();
    const firstDrop = events.find((e) => e.type === 'candidate.dropped')?.seq;
    expect(jump(events, 0, 'prune', 1)).toBe(firstDrop);
    // search steps: from the start, the first step is shown complete (just before the second node.started)
    const starts = events.filter((e) => e.type === 'node.started').map((e) => e.seq);
    expect(jump(events, 0, 'step', 1)).toBe((starts[1] as number) - 1);
    expect(jump(events, (starts[2] as number) - 1, 'step', -1)).toBe((starts[1] as number) - 1);
  });

  it('steps by MCTS iteration: each lands on an mcts.backpropagated, back from the first is the start', async () => {
    const { events } = await recordMcts();
    const index = new MomentIndex().read(events, events.length);
    const ends = events.filter((e) => e.type === 'mcts.backpropagated').map((e) => e.seq);
    expect(ends.length).toBeGreaterThan(3);
    const forward: number[] = [];
    for (let seq = index.jump(0, 'iteration', 1); seq !== null; seq = index.jump(seq, 'iteration', 1))
      forward.push(seq);
    expect(forward).toEqual(ends);
    const back: number[] = [];
    for (let seq = index.jump(events.length, 'iteration', -1); seq !== null; seq = index.jump(seq, 'iteration', -1))
      back.push(seq);
    expect(back).toEqual(
      [...ends]
        .reverse()
        .filter((s) => s < events.length)
        .concat(0),
    );
    // from inside an iteration: to its own end, or back to the one before
    const inside = (ends[2] as number) - 1;
    expect(index.jump(inside, 'iteration', 1)).toBe(ends[2]);
    expect(index.jump(inside, 'iteration', -1)).toBe(ends[1]);
    expect(index.countUpTo('iteration', inside)).toBe(2);
    expect(index.countUpTo('iteration', ends[2] as number)).toBe(3);
    // playback by iteration visits the same ends
    expect(playNext(index, 0, 'iteration')).toBe(ends[0]);
    // a run with no MCTS iteration has nothing to step to
    const beam = new MomentIndex().read(await recordRun(), 50);
    expect(beam.jump(10, 'iteration', 1)).toBeNull();
    expect(beam.jump(10, 'iteration', -1)).toBeNull();
  });

  it('counts the search’s own prune (node.pruned, an external search or imported DFS log) as a prune', () => {
    const events = externalSearchLog();
    const pruned = events.find((e) => e.type === 'node.pruned') as ExplorationEvent;
    expect(momentKind(pruned)).toBe('prune');
    expect(jump(events, 0, 'prune', 1)).toBe(pruned.seq);
  });

  it('jumps nowhere from a step the loaded history has not reached yet (a long run shown from its latest tree)', async () => {
    const events = await recordRun();
    const loaded = events.slice(0, 20); // the history so far; the screen is at the run's last seq
    for (const target of ['event', 'step', 'iteration', 'backtrack', 'prune', 'command'] as const)
      for (const direction of [1, -1] as const) expect(jump(loaded, events.length, target, direction)).toBeNull();
    expect(jump(loaded, 10, 'event', -1)).toBe(9); // within what has arrived, as before
  });

  it('plays at the run’s pace, faster or slower by the speed, within bounds', async () => {
    const events = await recordRun();
    expect(playDelay(events, 5, 6, 1)).toBeGreaterThanOrEqual(40);
    expect(playDelay(events, 5, 6, 10)).toBeCloseTo(playDelay(events, 5, 6, 1) / 10);
    expect(playDelay(events, 5, 6, 0.5)).toBeLessThanOrEqual(3_000);
  });

  it('plays one search step at a time: from the start, each tick lands on the end of the next step, then the end', async () => {
    const events = await recordRun();
    const index = new MomentIndex().read(events, events.length);
    const starts = events.filter((e) => e.type === 'node.started').map((e) => e.seq);
    const seen: number[] = [];
    for (let seq: number | null = 0; seq !== null; seq = playNext(index, seq, 'step')) seen.push(seq);
    expect(seen).toEqual([0, ...starts.slice(1).map((s) => s - 1), events.length]);
    // by event, every seq once
    expect(playNext(index, 7, 'event')).toBe(8);
    expect(playNext(index, events.length, 'event')).toBeNull();
  });

  it('answers every jump as a scan of the log does, at every seq, as the log grows in place', async () => {
    const events = await recordRun();
    // the reference: the moments of a kind found by scanning the log, the step ends from the node.started seqs
    const is = {
      step: (e: ExplorationEvent) => e.type === 'node.started',
      backtrack: (e: ExplorationEvent) => e.type === 'backtrack',
      prune: (e: ExplorationEvent) =>
        e.type === 'candidate.dropped' || e.type === 'steer.prune' || e.type === 'node.pruned',
      command: (e: ExplorationEvent) => e.type.startsWith('steer.'),
    };
    const scan = (log: readonly ExplorationEvent[], seq: number, target: keyof typeof is, direction: 1 | -1) => {
      const hits = log.filter(is[target]).map((e) => e.seq);
      const marks =
        target === 'step' ? [...hits.slice(1).map((h) => h - 1), ...(hits.length ? [log.length] : [])] : hits;
      if (direction === 1) return marks.find((m) => m > seq) ?? null;
      const before = marks.filter((m) => m < seq);
      if (before.length) return before.at(-1) as number;
      return target === 'step' && hits.length && seq > 0 ? 0 : null;
    };
    const index = new MomentIndex();
    const log: ExplorationEvent[] = [];
    for (const cut of [37, events.length]) {
      log.push(...events.slice(log.length, cut));
      index.read(log, log.length);
      for (let seq = 0; seq <= log.length; seq++)
        for (const target of ['step', 'backtrack', 'prune', 'command'] as const)
          for (const direction of [1, -1] as const)
            expect(index.jump(seq, target, direction), `${target} ${direction} from ${seq}`).toBe(
              scan(log, seq, target, direction),
            );
    }
    // this run has no person's command: nothing to jump to either way
    expect(index.jump(50, 'command', 1)).toBeNull();
    expect(index.jump(50, 'command', -1)).toBeNull();
  });
  it('keeps to the schedule when drawing is slow: late ticks pass over the steps whose time has come', async () => {
    const events = await recordRun();
    const index = new MomentIndex().read(events, events.length);
    const ends: number[] = [];
    for (let seq = playNext(index, 0, 'step'); seq !== null; seq = playNext(index, seq, 'step')) ends.push(seq);
    // on time: one step per tick, each at its due time
    let head = playhead(events, index, 0, 0, 0, 'step', 1);
    expect(head).toEqual({ seq: 0, since: 0, dueAt: playDelay(events, 0, ends[0] as number, 1) });
    head = playhead(events, index, head.seq, head.since, head.dueAt as number, 'step', 1);
    expect(head.seq).toBe(ends[0]);
    // a page that drew nothing for a long while: the head is where the schedule says, and the run's end is on time
    let total = 0;
    for (let from = 0, i = 0; i < ends.length; from = ends[i] as number, i++)
      total += playDelay(events, from, ends[i] as number, 1);
    const late = playhead(events, index, 0, 0, total / 2, 'step', 1);
    expect(ends).toContain(late.seq);
    expect(late.since).toBeLessThanOrEqual(total / 2);
    expect(late.dueAt).toBeGreaterThan(total / 2);
    expect(playhead(events, index, 0, 0, total, 'step', 1)).toEqual({ seq: events.length, since: total, dueAt: null });
  });
});

describe('moment names', () => {
  it('names every kind for people, one and many', () => {
    expect(momentCount('backtrack', 1)).toBe('1 backtrack');
    expect(momentCount('expansion', 1_201)).toBe('1,201 expansions');
    // every kind, in the singular for one and the plural otherwise
    for (const [kind, [one, many]] of Object.entries(MOMENT_NAMES)) {
      expect(momentCount(kind as keyof typeof MOMENT_NAMES, 1)).toBe(`1 ${one}`);
      expect(momentCount(kind as keyof typeof MOMENT_NAMES, 2)).toBe(`2 ${many}`);
    }
  });
});
