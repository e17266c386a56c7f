/**
 * Binary search over a list sorted ascending: the one definition the timeline, its density and the breakpoint hits
 * use. Pure; not responsible for keeping any list sorted.
 */

const itself = (value: unknown) => value as number;

/** The index of the first item of `sorted` whose key is above `value` (its length when none is). */
export function firstAbove<T>(sorted: ArrayLike<T>, value: number, key: (item: T) => number = itself): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid] as T) > value) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A list sorted by seq (hits, marks): its items' key. */
export const bySeq = (item: { seq: number }) => item.seq;
