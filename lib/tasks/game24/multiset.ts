/**
 * Multiset comparisons (numbers may repeat: "1 1 4 6"), shared by the verifier and the state replay.
 * Items are compared by a string key so rationals compare by value.
 * Not responsible for what the items mean.
 */

/** Takes each of `used` out of `pool` once; what `used` asked for that the pool did not have is `missing`. */
export function takeFrom<T>(
  pool: readonly T[],
  used: readonly T[],
  key: (item: T) => string,
): { rest: T[]; missing: T[] } {
  const rest = [...pool];
  const missing: T[] = [];
  for (const item of used) {
    const k = key(item);
    const at = rest.findIndex((p) => key(p) === k);
    if (at === -1) missing.push(item);
    else rest.splice(at, 1);
  }
  return { rest, missing };
}

/** What `actual` lacks compared with `expected`, and what it has too much of. */
export function multisetDiff<T>(
  actual: readonly T[],
  expected: readonly T[],
  key: (item: T) => string,
): { missing: T[]; extra: T[] } {
  const { rest: missing, missing: extra } = takeFrom(expected, actual, key);
  return { missing, extra };
}
