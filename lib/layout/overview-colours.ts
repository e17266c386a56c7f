/**
 * How the overview colours its cells: each cell gets a bucket (a small integer) once per tree change and colouring,
 * and each bucket a colour read from the theme's CSS variables at draw time, so light and dark both work and the
 * drawing fills one path per bucket.
 * - status: the cards' own --st-* colours (displayStatus, one definition for cards, badges and here);
 * - score: the composite score on a sequential scale (viridis: ordered, readable on light and dark);
 * - cost: the node's own dollars (its own tokens where no call had a price), square-root scaled to the costliest
 *   node, from quiet to --danger: the cells that spent;
 * - depth: from --accent at the root to --best at the deepest row;
 * - q, visits (offered when the tree has MCTS statistics): a node's Q from its lowest to its highest in the tree,
 *   and its visit count N, square-root scaled to the most visited node (the root holds every visit), both on the
 *   score's sequential scale; a node the search has said nothing of gets the "no value" colour.
 * Not responsible for geometry (lib/layout/icicle.ts) nor for drawing (draw.ts).
 */
import type { ThoughtNode } from '../engine/index';
import type { IcicleLayout } from './icicle';
import { formatQ } from './mcts';
import { type DisplayStatus, displayStatus } from './node-status';

export type Colouring = 'status' | 'score' | 'cost' | 'depth' | 'q' | 'visits';

/** Every colouring; `mcts` ones make sense only for a tree with MCTS statistics (lib/layout/mcts.ts hasMctsStats). */
export const COLOURINGS: readonly { value: Colouring; label: string; mcts?: true }[] = [
  { value: 'status', label: 'Status' },
  { value: 'score', label: 'Score' },
  { value: 'cost', label: 'Cost' },
  { value: 'depth', label: 'Depth' },
  { value: 'q', label: 'MCTS Q', mcts: true },
  { value: 'visits', label: 'MCTS visits', mcts: true },
];

const STATUSES: readonly DisplayStatus[] = [
  'pending',
  'running',
  'completed',
  'verified',
  'failed',
  'pruned',
  'dropped',
];

/** Steps of the sequential scales; bucket STEPS is "no value" (unscored, spent nothing). */
const STEPS = 10;

const VIRIDIS = [
  '#440154',
  '#482878',
  '#3e4989',
  '#31688e',
  '#26828e',
  '#1f9e89',
  '#35b779',
  '#6ece58',
  '#b5de2b',
  '#fde725',
];

export interface CellColours {
  /** Cell index -> bucket. */
  bucket: Uint8Array;
  /** For cost: whether the scale is dollars or tokens (no call had a price). */
  unit: 'dollars' | 'tokens' | null;
  /** For q and visits: the values at the two ends of the scale (null when no node has one). */
  range?: { low: number; high: number } | null;
}

function step(t: number): number {
  return Math.max(0, Math.min(STEPS - 1, Math.floor(t * STEPS)));
}

/** Every cell's bucket under a colouring. Linear in the layout. */
export function cellColours(layout: IcicleLayout, colouring: Colouring): CellColours {
  const n = layout.ids.length;
  const bucket = new Uint8Array(n);
  const nodeAt = (i: number): ThoughtNode | undefined => layout.nodes[i];
  if (colouring === 'status') {
    for (let i = 0; i < n; i++) {
      const node = nodeAt(i);
      bucket[i] = node ? STATUSES.indexOf(displayStatus(node)) : 0;
    }
    return { bucket, unit: null };
  }
  if (colouring === 'score') {
    for (let i = 0; i < n; i++) {
      const composite = nodeAt(i)?.score?.composite;
      bucket[i] = composite === undefined ? STEPS : step(composite);
    }
    return { bucket, unit: null };
  }
  if (colouring === 'q' || colouring === 'visits') {
    const value = (i: number): number | null => {
      const mcts = nodeAt(i)?.mcts;
      return (colouring === 'q' ? mcts?.q : mcts?.n) ?? null;
    };
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < n; i++) {
      const v = value(i);
      if (v !== null) {
        low = Math.min(low, v);
        high = Math.max(high, v);
      }
    }
    if (colouring === 'visits') low = 0;
    const span = high - low;
    for (let i = 0; i < n; i++) {
      const v = value(i);
      if (v === null) bucket[i] = STEPS;
      else if (colouring === 'visits') bucket[i] = high > 0 ? step(Math.sqrt(v / high) - 1e-9) : 0;
      else bucket[i] = span > 0 ? step((v - low) / span - 1e-9) : step(0.5);
    }
    return { bucket, unit: null, range: high >= low ? { low, high } : null };
  }
  if (colouring === 'depth') {
    const deepest = Math.max(1, layout.rows.length - 1);
    for (let i = 0; i < n; i++) bucket[i] = step(layout.depth[i]! / deepest - 1e-9);
    return { bucket, unit: null };
  }
  let priced = false;
  for (let i = 0; i < n && !priced; i++) priced = (nodeAt(i)?.usage.cost ?? 0) > 0;
  const spent = new Float64Array(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const usage = nodeAt(i)?.usage;
    const v = !usage ? 0 : priced ? usage.cost : usage.inputTokens + usage.outputTokens;
    spent[i] = v;
    if (v > max) max = v;
  }
  for (let i = 0; i < n; i++) bucket[i] = spent[i]! > 0 ? step(Math.sqrt(spent[i]! / max)) : STEPS;
  return { bucket, unit: priced ? 'dollars' : 'tokens' };
}

type Rgb = [number, number, number];

function parseColour(text: string): Rgb | null {
  const s = text.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((k) => parseInt(full.slice(k, k + 2), 16)) as Rgb;
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(s);
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

function mix(a: Rgb, b: Rgb, t: number): string {
  const c = a.map((v, k) => Math.round(v + ((b[k] as number) - v) * t));
  return `rgb(${c[0]} ${c[1]} ${c[2]})`;
}

/** Reads a CSS variable of the page's theme (what the cards use at this moment). */
export function themeVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  return style.getPropertyValue(name).trim() || fallback;
}

function ramp(style: CSSStyleDeclaration, from: string, to: string): string[] {
  const a = parseColour(themeVar(style, from, '#888888')) ?? [136, 136, 136];
  const b = parseColour(themeVar(style, to, '#444444')) ?? [68, 68, 68];
  return Array.from({ length: STEPS }, (_, k) => mix(a, b, k / (STEPS - 1)));
}

/** The colour of each bucket under a colouring, from the theme in force on `style`'s element. */
export function palette(style: CSSStyleDeclaration, colouring: Colouring): string[] {
  const none = themeVar(style, '--st-dropped', '#9aa3af');
  switch (colouring) {
    case 'status':
      return STATUSES.map((s) => themeVar(style, `--st-${s}`, '#888888'));
    case 'score':
    case 'q':
    case 'visits':
      return [...VIRIDIS, none];
    case 'cost':
      return [...ramp(style, '--border-strong', '--danger'), themeVar(style, '--surface-2', '#eeeeee')];
    case 'depth':
      return [...ramp(style, '--accent', '--best'), none];
  }
}

/** A few words under the picture saying what the colours mean (q and visits: the values at the ends). */
export function legend(
  colouring: Colouring,
  unit: CellColours['unit'],
  range: CellColours['range'] = null,
): { low: string; high: string } | null {
  switch (colouring) {
    case 'status':
      return null;
    case 'score':
      return { low: 'score 0', high: '1' };
    case 'cost':
      return { low: unit === 'tokens' ? 'own tokens: none' : 'own cost: $0', high: 'most' };
    case 'depth':
      return { low: 'root', high: 'deepest' };
    case 'q':
      return range ? { low: `Q ${formatQ(range.low)}`, high: formatQ(range.high) } : { low: 'no Q yet', high: '' };
    case 'visits':
      return range ? { low: 'N 0', high: String(range.high) } : { low: 'no visits yet', high: '' };
  }
}

export { STATUSES as OVERVIEW_STATUSES, STEPS as OVERVIEW_STEPS };
