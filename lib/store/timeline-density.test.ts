import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import {
  columnAt,
  countBetween,
  DENSITY_KINDS,
  densitySlot,
  describeRange,
  MatchingSeqs,
  MIN_BAR,
  MomentDensity,
  stackHeights,
} from './timeline-density';
import { momentKind, type MomentKind } from './timeline';

/** One event of each shape momentKind tells apart; only type and payload matter here. */
const SHAPES: { type: string; payload: Record<string, unknown> }[] = [
  { type: 'node.expanded', payload: { nodeId: 'a', childIds: [] } },
  { type: 'candidate.dropped', payload: { nodeId: 'b' } },
  { type: 'backtrack', payload: { fromId: 'a', toId: null, reason: '' } },
  { type: 'node.verified', payload: { nodeId: 'c', passed: true, trace: '' } },
  { type: 'node.verified', payload: { nodeId: 'c', passed: false, trace: '' } },
  { type: 'steer.prune', payload: { nodeId: 'a', actor: 'p' } },
  { type: 'node.started', payload: { nodeId: 'b', mode: 'bfs' } },
  { type: 'model.called', payload: { nodeId: 'a' } },
];

/** A log of `n` events of mixed kinds, skewed (mostly expansions), from a fixed pseudo-random sequence. */
function syntheticLog(n: number): ExplorationEvent[] {
  let state = 7;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  return Array.from({ length: n }, (_, i) => {
    const r = next();
    const shape = (r < 0.6 ? SHAPES[0] : SHAPES[Math.floor(next() * SHAPES.length)]) as (typeof SHAPES)[number];
    return { runId: 'r', seq: i + 1, ts: i, ...shape } as unknown as ExplorationEvent;
  });
}

/** The reference: each event counted by the column its position falls in, one at a time. */
function naiveColumns(events: readonly ExplorationEvent[], width: number, total: number) {
  const out = Array.from({ length: width }, () => ({ total: 0, counts: {} as Partial<Record<MomentKind, number>> }));
  for (const e of events) {
    const x = total <= 1 ? 0 : Math.round(((e.seq - 1) / (total - 1)) * (width - 1));
    const column = out[x] as (typeof out)[number];
    const kind = momentKind(e);
    column.counts[kind] = (column.counts[kind] ?? 0) + 1;
    column.total++;
  }
  return out;
}

describe('timeline density', () => {
  it('counts each column exactly as an independent count of the log, after coarsening and as the log grows', () => {
    const events = syntheticLog(5_000);
    const K = DENSITY_KINDS.length;
    const density = new MomentDensity(64); // 5,000 events in 64 buckets: coarsened to 128 seqs a bucket
    const log: ExplorationEvent[] = [];
    for (const cut of [1, 700, 2_345, 5_000]) {
      log.push(...events.slice(log.length, cut));
      density.read(log, log.length);
      for (const width of [1, 37, 300, 1_300, 7_000]) {
        const columns = density.columns(width, log.length);
        const naive = naiveColumns(log, width, log.length);
        for (let x = 0; x < width; x++) {
          const range = countBetween(log, columns.from[x] as number, columns.to[x] as number);
          expect(range.counts, `column ${x} of ${width} at ${cut}`).toEqual(naive[x]?.counts);
          expect(range.total).toBe(naive[x]?.total);
          // the drawn counts (from the buckets) agree with the hover's
          expect([...columns.counts.slice(x * K, x * K + K)]).toEqual(
            DENSITY_KINDS.map((k) => naive[x]?.counts[k] ?? 0),
          );
        }
      }
    }
    expect(density.bucketSize).toBe(128);
  });

  it('tiles seqs 1..total with the columns, no gap or overlap, at any width', () => {
    const density = new MomentDensity();
    for (const total of [1, 2, 3, 999, 100_000])
      for (const width of [1, 2, 5, 640, 1_918, 250_000]) {
        const { from, to } = density.columns(width, total);
        let next = 1;
        // the first column that breaks the tiling, if any (one expect per case: a quarter of a million calls to
        // expect made this test take 20 s on a busy machine)
        let broken: string | null = null;
        for (let x = 0; x < width && broken === null; x++) {
          if (from[x] !== next) broken = `total ${total} width ${width} column ${x}: from ${from[x]}, expected ${next}`;
          next = Math.max(next, (to[x] as number) + 1);
        }
        expect(broken).toBeNull();
        expect(next).toBe(total + 1);
        // a seq's column (where the selected node's ticks go) is the one whose range holds it
        for (const seq of [1, Math.ceil(total / 2), total]) {
          const x = columnAt(from, seq);
          expect((from[x] as number) <= seq && seq <= (to[x] as number)).toBe(true);
        }
      }
  });

  it('gives one backtrack among 10,000 expansions a visible bar, and its own segment in a busy column', () => {
    const expanded = SHAPES[0] as (typeof SHAPES)[number];
    const events = Array.from(
      { length: 10_001 },
      (_, i) =>
        ({ runId: 'r', seq: i + 1, ts: i, ...(i === 5_000 ? SHAPES[2] : expanded) }) as unknown as ExplorationEvent,
    );
    const height = 18;
    // a lone backtrack beside a column of all 10,000 expansions
    const lone = new Float32Array(DENSITY_KINDS.length);
    lone[densitySlot('backtrack')] = 1;
    const busy = new Float32Array(DENSITY_KINDS.length);
    busy[densitySlot('expansion')] = 10_000;
    expect(stackHeights(lone, 0, 10_000, height)[densitySlot('backtrack')]).toBeGreaterThanOrEqual(MIN_BAR);
    expect(stackHeights(busy, 0, 10_000, height)[densitySlot('expansion')]).toBeCloseTo(height);
    // in the log drawn 400 columns wide: the backtrack's column has a segment for it
    const columns = new MomentDensity().read(events, events.length).columns(400, events.length);
    const x = columnAt(columns.from, 5_001);
    const K = DENSITY_KINDS.length;
    expect(columns.counts[x * K + densitySlot('backtrack')]).toBe(1);
    const segments = stackHeights(columns.counts, x * K, columns.busiest, height);
    expect(segments[densitySlot('backtrack')]).toBeGreaterThanOrEqual(MIN_BAR);
    expect(segments.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(height + 1e-4);
  });

  it('counts the selected node’s events and says what a column holds, most first', () => {
    const events = syntheticLog(400);
    const mine = (e: ExplorationEvent) => 'nodeId' in e.payload && e.payload.nodeId === 'a';
    const range = countBetween(events, 101, 200, { isMine: mine });
    expect(range.mine).toBe(events.slice(100, 200).filter(mine).length);
    const seqs = new MatchingSeqs(mine).read(events, 250).read(events, 400).seqs;
    expect(seqs).toEqual(events.filter(mine).map((e) => e.seq));
    const [head, kinds, selected] = describeRange(range, 'a', 400);
    expect(head).toBe('events 101–200 · 100 in all');
    expect(kinds?.split(' · ')[0]).toMatch(/^\d+ expansions$/);
    expect(selected).toBe(`${range.mine} of the selected node a`);
    expect(describeRange(countBetween(events, 1, 1), null, 400)).toHaveLength(2);
  });
});
