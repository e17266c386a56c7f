/**
 * An item's fingerprint: the sha256 of its canonical JSON (keys sorted at every level), taken after validation, so
 * the same item sent twice with its keys in another order, or with a default spelled out, is the same item.
 * Not responsible for what counts as the same seq (service.ts compares the fingerprints).
 */
import { createHash } from 'node:crypto';

/** JSON.stringify's replacer that rebuilds each plain object with its keys sorted (native stringify does the rest). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = (value as Record<string, unknown>)[key];
  return sorted;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortedKeys) ?? 'null';
}

export function itemHash(item: unknown): string {
  return createHash('sha256').update(canonicalJson(item)).digest('hex');
}
