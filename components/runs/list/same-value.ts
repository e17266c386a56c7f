/**
 * Equality by value for what run.list sends, Dates included, and the structural sharing built on it. superjson
 * revives every Date as a new object and react-query's own sharing (replaceEqualDeep) only looks into plain objects
 * and arrays, so each poll renewed every run (each holds createdAt) and re-rendered the whole table. Kept: the old
 * object wherever the new one is equal to it, so an unchanged poll leaves the query's data as it was and a changed
 * run renews only itself and the arrays holding it.
 * Not responsible for when the list polls (RunsTable) or what a row shows (RunRow).
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `next`, with every part equal by value to the same part of `prev` replaced by prev's: `prev` itself when the two
 * are equal. Dates compare by time; arrays and plain objects by their items and keys; anything else (a function, a
 * Map) by identity. A react-query `structuralSharing` function.
 */
export function shareByValue<T>(prev: unknown, next: T): T {
  if (Object.is(prev, next)) return next;
  if (prev instanceof Date && next instanceof Date) return (prev.getTime() === next.getTime() ? prev : next) as T;
  if (Array.isArray(prev) && Array.isArray(next)) {
    const shared = next.map((item: unknown, i) => shareByValue(prev[i], item));
    const same = shared.length === prev.length && shared.every((item, i) => item === prev[i]);
    return (same ? prev : shared) as T;
  }
  if (isPlainObject(prev) && isPlainObject(next)) {
    const shared: Record<string, unknown> = {};
    let same = Object.keys(prev).length === Object.keys(next).length;
    for (const key of Object.keys(next)) {
      shared[key] = shareByValue(prev[key], next[key]);
      if (!Object.hasOwn(prev, key) || shared[key] !== prev[key]) same = false;
    }
    return (same ? prev : shared) as T;
  }
  return next;
}

/** Equal by value, as shareByValue counts it (its one definition): RunRow's memo over its props. */
export function sameByValue(a: unknown, b: unknown): boolean {
  return shareByValue(a, b) === a;
}
