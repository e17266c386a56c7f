/**
 * The arithmetic of bench:ui's figures, kept pure so it is tested: which run sizes a pass measures
 * (BENCH_UI_SIZES), frame-time statistics, the seeded choice of steps to seek to, and how a size's figure compares
 * with the smallest size's. Not responsible for measuring (ui.ts) or for building runs (lib/harness/recorded-runs.ts).
 */
import { percentile } from './percentile';

export interface RunSize {
  /** As typed in BENCH_UI_SIZES and printed: 1k, 10k, 100k. */
  label: string;
  events: number;
}

export const DEFAULT_SIZES = '1k,10k,100k';

/** "1k,10k" -> sizes in ascending order, duplicates dropped; throws on anything that is not a count like 500, 2k, 1m. */
export function parseSizes(text: string = DEFAULT_SIZES): RunSize[] {
  const sizes = new Map<number, RunSize>();
  for (const part of text.split(',').map((s) => s.trim().toLowerCase())) {
    if (!part) continue;
    const match = /^(\d+(?:\.\d+)?)([km]?)$/.exec(part);
    if (!match) throw new Error(`BENCH_UI_SIZES: "${part}" is not a size (examples: 1k, 10k, 100k, 2500)`);
    const events = Math.round(Number(match[1]) * (match[2] === 'k' ? 1_000 : match[2] === 'm' ? 1_000_000 : 1));
    if (events < 100) throw new Error(`BENCH_UI_SIZES: "${part}" is too small: a run needs at least 100 events`);
    sizes.set(events, { label: part, events });
  }
  if (sizes.size === 0) throw new Error('BENCH_UI_SIZES names no size');
  return [...sizes.values()].sort((a, b) => a.events - b.events);
}

export interface FrameStats {
  frames: number;
  median: number;
  p95: number;
  max: number;
  /** Frames over 50 ms. */
  long: number;
}

export const ascending = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
export const median = (xs: readonly number[]) => percentile(ascending(xs), 50);

export function frameStats(deltas: readonly number[]): FrameStats {
  const sorted = ascending(deltas);
  return {
    frames: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? NaN,
    long: sorted.filter((d) => d > 50).length,
  };
}

/**
 * `count` positions along a slider, as fractions in [margin, 1 - margin], from a small seeded generator so every
 * pass seeks to the same places; consecutive ones at least `minGap` apart so each seek moves.
 */
export function seekFractions(count: number, seed = 7, margin = 0.02, minGap = 0.05): number[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  const out: number[] = [];
  while (out.length < count) {
    const f = margin + next() * (1 - 2 * margin);
    const prev = out.at(-1);
    if (prev === undefined || Math.abs(f - prev) >= minGap) out.push(f);
  }
  return out;
}

/** A figure at one size over the same figure at the smallest: NaN when either is missing or the base is 0. */
export function ratio(value: number, base: number): number {
  return Number.isFinite(value) && Number.isFinite(base) && base > 0 ? value / base : NaN;
}
