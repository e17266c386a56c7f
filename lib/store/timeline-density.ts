/**
 * The timeline's density: how many events of each kind (`momentKind`) fall in each pixel column, at a bounded cost.
 * `MomentDensity` keeps a count per kind per bucket of seqs (typed arrays), read as the log grows in place, and cuts
 * it into pixel columns with their exact counts, for drawing; `countBetween` folds a seq range of the log itself, for
 * what a hover says (with the selected node's events and the breakpoint hits in it: `hitsBetween`); `stackHeights`
 * is a column's stacked bar; `describeRange` the hover's words.
 * Pure; no React, no DOM. Not responsible for colours or drawing (components/run/timeline) nor for what kind an
 * event is (timeline.ts `momentKind`).
 */
import type { ExplorationEvent, ExplorationEventType } from '../contract/events';
import { bySeq, firstAbove } from './sorted';
import { DRAWN_KINDS, momentCount, momentKind, type MomentKind } from './timeline';

/** Every kind, in stacking order (bottom first): 'other' underneath, then as the timeline draws them. */
export const DENSITY_KINDS: readonly MomentKind[] = ['other', ...DRAWN_KINDS];
const K = DENSITY_KINDS.length;
const SLOT = Object.fromEntries(DENSITY_KINDS.map((kind, i) => [kind, i])) as Record<MomentKind, number>;

/** The slot of a kind in a column's counts (`counts[x * DENSITY_KINDS.length + densitySlot(kind)]`). */
export function densitySlot(kind: MomentKind): number {
  return SLOT[kind];
}

/**
 * Pixel columns of a timeline spanning seqs 1..total. Column x holds seqs from[x]..to[x] (inclusive; to < from when
 * no seq falls in it); the ranges tile 1..total. `counts[x * DENSITY_KINDS.length + densitySlot(kind)]` is how many
 * events of a kind column x holds, exactly.
 */
export interface DensityColumns {
  width: number;
  from: Int32Array;
  to: Int32Array;
  counts: Uint32Array;
  totals: Uint32Array;
  /** The largest total of a column (the histogram's scale). */
  busiest: number;
}

/**
 * The first seq of each column (and of one past the last): a seq's position is (seq - 1) / (total - 1) of the
 * width, rounded to the nearest column (half up); the mapping the kinds-per-column timeline had, so marks (and the
 * hit markers placed the same way) do not move. Column x starts at the first seq at or past x - 1/2, found in whole
 * numbers ((2x - 1)(total - 1) / 2(width - 1), exact below 2^53) since a float boundary landing on a seq could put
 * it in either column. Each end is computed once, so neighbours share it: no gap, no overlap.
 */
function columnStarts(width: number, total: number): Int32Array {
  const starts = new Int32Array(width + 1).fill(total + 1);
  if (width > 0) starts[0] = 1;
  if (width <= 1 || total <= 1) return starts; // one column, or one seq: all of it in the first
  const den = 2 * (width - 1);
  for (let x = 1; x < width; x++) starts[x] = Math.min(total + 1, 1 + Math.ceil(((2 * x - 1) * (total - 1)) / den));
  return starts;
}

/**
 * Counts of each kind of moment along the log, exact per pixel column at a bounded cost. Buckets of a power-of-two
 * number of seqs keep a count per kind, `maxBuckets` at most: when the log outgrows them, neighbours merge and the
 * size doubles. A column's counts are the whole buckets inside it plus its ragged ends, read from one byte per event
 * (its kind's slot): a column edge almost never falls on a bucket edge, and sharing a straddling bucket by estimate
 * would make the bars disagree with the log (and the hover). The byte per event is small beside the events
 * themselves. Reading costs O(new events); cutting into columns O(buckets + width x bucket size), which stays below
 * one pass over the log and near O(width) while buckets are much finer than columns.
 */
export class MomentDensity {
  private readonly counts: Uint32Array;
  private kinds = new Uint8Array(1_024);
  private buckets = 0;
  private size = 1;
  private seen = 0;

  constructor(private readonly maxBuckets = 4_096) {
    this.counts = new Uint32Array(maxBuckets * K);
  }

  /** Reads events[seen..count) (the log grows in place, index = seq - 1). */
  read(events: readonly ExplorationEvent[], count: number): this {
    const end = Math.min(count, events.length);
    if (end > this.kinds.length) {
      const grown = new Uint8Array(Math.max(end, this.kinds.length * 2));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    for (let i = this.seen; i < end; i++) {
      const slot = SLOT[momentKind(events[i] as ExplorationEvent)];
      let bucket = Math.floor(i / this.size);
      while (bucket >= this.maxBuckets) {
        this.coarsen();
        bucket = Math.floor(i / this.size);
      }
      this.buckets = Math.max(this.buckets, bucket + 1);
      this.kinds[i] = slot;
      (this.counts[bucket * K + slot] as number)++;
    }
    this.seen = Math.max(this.seen, end);
    return this;
  }

  /** Seqs per bucket now (a power of two). */
  get bucketSize(): number {
    return this.size;
  }

  /**
   * The columns of a timeline `width` columns wide spanning seqs 1..total, each with the exact counts of the events
   * read so far whose seq it covers (a column past the history read so far counts what has arrived).
   */
  columns(width: number, total: number): DensityColumns {
    const w = Math.max(0, Math.floor(width));
    const t = Math.max(0, Math.floor(total));
    const starts = columnStarts(w, t);
    const from = starts.slice(0, w);
    const to = new Int32Array(w);
    for (let x = 0; x < w; x++) to[x] = (starts[x + 1] as number) - 1;
    const counts = new Uint32Array(w * K);
    const totals = new Uint32Array(w);
    // counts of seqs 1..n for each column start n + 1, walked left to right: the whole buckets below n, once each,
    // then the seqs of n's own bucket from the byte per event; a column is the difference of its two ends
    const whole = new Uint32Array(K);
    let wholeBuckets = 0;
    let before = new Uint32Array(K);
    let after = new Uint32Array(K);
    const upTo = (n: number, out: Uint32Array) => {
      const seqs = Math.min(n, this.seen);
      const full = Math.min(Math.floor(seqs / this.size), this.buckets);
      for (; wholeBuckets < full; wholeBuckets++) {
        for (let k = 0; k < K; k++) whole[k] = (whole[k] as number) + (this.counts[wholeBuckets * K + k] as number);
      }
      out.set(whole);
      for (let i = full * this.size; i < seqs; i++) {
        const k = this.kinds[i] as number;
        out[k] = (out[k] as number) + 1;
      }
    };
    upTo(0, before);
    for (let x = 0; x < w; x++) {
      upTo(to[x] as number, after);
      let sum = 0;
      for (let k = 0; k < K; k++) {
        const n = (after[k] as number) - (before[k] as number);
        counts[x * K + k] = n;
        sum += n;
      }
      totals[x] = sum;
      [before, after] = [after, before];
    }
    let busiest = 0;
    for (let x = 0; x < w; x++) busiest = Math.max(busiest, totals[x] as number);
    return { width: w, from, to, counts, totals, busiest };
  }

  private coarsen(): void {
    const merged = Math.ceil(this.buckets / 2);
    for (let b = 0; b < merged; b++) {
      for (let k = 0; k < K; k++) {
        const a = this.counts[2 * b * K + k] as number;
        const c = 2 * b + 1 < this.buckets ? (this.counts[(2 * b + 1) * K + k] as number) : 0;
        this.counts[b * K + k] = a + c;
      }
    }
    this.counts.fill(0, merged * K);
    this.buckets = merged;
    this.size *= 2;
  }
}

/** The column holding `seq` (binary search over the columns' first seqs); the last column for a seq past them. */
export function columnAt(from: Int32Array, seq: number): number {
  return Math.max(0, firstAbove(from, seq) - 1);
}

/**
 * What a seq range holds, counted exactly: per kind of moment (`counts`) and per event type (`types`), only those
 * present; `mine`, the events `isMine` accepts (null without one); `hits`, the breakpoint hits at its seqs.
 */
export interface RangeCounts {
  from: number;
  to: number;
  total: number;
  counts: Partial<Record<MomentKind, number>>;
  types: Partial<Record<ExplorationEventType, number>>;
  mine: number | null;
  hits: number;
}

/** How many of a list sorted by seq (the run store's `hits.marks`) lie at seqs from..to, inclusive. */
export function hitsBetween(sorted: readonly { seq: number }[], from: number, to: number): number {
  return Math.max(0, firstAbove(sorted, to, bySeq) - firstAbove(sorted, from - 1, bySeq));
}

/**
 * The exact counts of seqs from..to (inclusive) by folding the log itself (index = seq - 1; only what it holds, so
 * a range past the history loaded so far counts what has arrived). Independent of MomentDensity's buckets, so a
 * hover says what the log says; a column is ~100 events at 100k over 1,000 px, so the scan is cheap.
 */
export function countBetween(
  events: readonly ExplorationEvent[],
  from: number,
  to: number,
  about: { isMine?: (event: ExplorationEvent) => boolean; hits?: readonly { seq: number }[] } = {},
): RangeCounts {
  const { isMine, hits } = about;
  const out: RangeCounts = { from, to, total: 0, counts: {}, types: {}, mine: isMine ? 0 : null, hits: 0 };
  const last = Math.min(to, events.length);
  for (let seq = Math.max(1, from); seq <= last; seq++) {
    const event = events[seq - 1] as ExplorationEvent;
    const kind = momentKind(event);
    out.counts[kind] = (out.counts[kind] ?? 0) + 1;
    out.types[event.type] = (out.types[event.type] ?? 0) + 1;
    out.total++;
    if (isMine?.(event)) out.mine = (out.mine as number) + 1;
  }
  if (hits) out.hits = hitsBetween(hits, from, to);
  return out;
}

/** The smallest bar (and stacked segment) drawn for a column or kind with any event: 1.5 px, a visible line. */
export const MIN_BAR = 1.5;

/**
 * A column's stacked bar, `height` tall at the busiest column: the height of each kind's segment (DENSITY_KINDS
 * order) from the column's counts (`counts[offset..offset + K)`). The bar grows with the log of the column's count,
 * not linearly nor by its square root: one event beside a column of 10,000 is 1% of the height on a square root
 * (a fraction of a pixel on a 22 px track) but ~8% on a log, so a lone backtrack still shows; and every kind present
 * keeps at least MIN_BAR of its bar, so a few prunes among a hundred expansions are not lost in the stack.
 */
export function stackHeights(
  counts: ArrayLike<number>,
  offset: number,
  busiest: number,
  height: number,
  out = new Float32Array(K),
): Float32Array {
  out.fill(0);
  let total = 0;
  let present = 0;
  for (let k = 0; k < K; k++) {
    const n = counts[offset + k] as number;
    total += n;
    if (n > 0) present++;
  }
  if (total <= 0 || busiest <= 0 || height <= 0) return out;
  const scaled = (height * Math.log1p(total)) / Math.log1p(Math.max(busiest, total));
  const bar = Math.min(height, Math.max(scaled, present * MIN_BAR));
  const floor = Math.min(MIN_BAR, bar / present);
  const rest = bar - floor * present;
  for (let k = 0; k < K; k++) {
    const n = counts[offset + k] as number;
    if (n > 0) out[k] = floor + (rest * n) / total;
  }
  return out;
}

/**
 * The seqs of the events a predicate accepts (the selected node's), read as the log grows in place; `reset` when
 * the predicate changes (another node selected), after which the next read scans the log again from seq 1.
 */
export class MatchingSeqs {
  private seen = 0;
  readonly seqs: number[] = [];

  constructor(private matches: ((event: ExplorationEvent) => boolean) | null = null) {}

  reset(matches: ((event: ExplorationEvent) => boolean) | null): void {
    this.matches = matches;
    this.seen = 0;
    this.seqs.length = 0;
  }

  read(events: readonly ExplorationEvent[], count: number): this {
    const end = Math.min(count, events.length);
    const matches = this.matches;
    if (matches)
      for (let i = this.seen; i < end; i++) {
        const event = events[i] as ExplorationEvent;
        if (matches(event)) this.seqs.push(event.seq);
      }
    this.seen = Math.max(this.seen, end);
    return this;
  }
}

/**
 * What a hover says of a range, in lines: "events 1,201–1,298 · 98 in all", the kinds present, most first
 * ("41 expansions · 12 prunes · 2 backtracks"), then the breakpoint hits in it (when any) and how many are the
 * selected node's (when one is selected). `loadedTo`: the last seq of the history arrived so far.
 */
export function describeRange(range: RangeCounts, selected: string | null, loadedTo: number): string[] {
  const n = (value: number) => value.toLocaleString('en-US');
  const seqs = range.to > range.from ? `events ${n(range.from)}–${n(range.to)}` : `event ${n(range.from)}`;
  const lines = [`${seqs} · ${n(range.total)} in all${range.to > loadedTo ? ' (history still loading)' : ''}`];
  const kinds = DENSITY_KINDS.filter((k) => range.counts[k]).sort(
    (a, b) => (range.counts[b] as number) - (range.counts[a] as number),
  );
  if (kinds.length) lines.push(kinds.map((k) => momentCount(k, range.counts[k] as number)).join(' · '));
  if (range.hits > 0) lines.push(`${n(range.hits)} breakpoint ${range.hits === 1 ? 'hit' : 'hits'}`);
  if (selected !== null && range.mine !== null) lines.push(`${n(range.mine)} of the selected node ${selected}`);
  return lines;
}
