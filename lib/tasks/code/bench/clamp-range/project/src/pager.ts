import { clamp, range } from './range';

/** The page numbers shown around `current`: at most `width` of them, never outside 1..total. */
export function visiblePages(current: number, total: number, width: number): number[] {
  const page = clamp(current, 1, total);
  const first = clamp(page - Math.floor(width / 2), 1, Math.max(1, total - width + 1));
  const last = Math.min(total, first + width - 1);
  return range(first, last + 1);
}
