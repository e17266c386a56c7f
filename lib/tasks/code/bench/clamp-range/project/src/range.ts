/** Numeric helpers for the pager: inclusive clamping and half-open ranges. */

/** `value` limited to [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  if (min > max) throw new RangeError(`min ${min} is above max ${max}`);
  return Math.min(max, Math.max(min, value));
}

/** The integers start, start+1, ..., end-1 (end excluded, like Array.prototype.slice). */
export function range(start: number, end: number): number[] {
  const result: number[] = [];
  for (let i = start; i <= end; i++) result.push(i);
  return result;
}
