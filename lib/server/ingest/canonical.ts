/**
 * An item's fingerprint: the sha256 of its canonical JSON (keys sorted at every level), taken after validation, so
 * the same item sent twice with its keys in another order, or with a default spelled out, is the same item.
 * Not responsible for what counts as the same seq (service.ts compares the fingerprints).
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function itemHash(item: unknown): string {
  return createHash('sha256').update(canonicalJson(item)).digest('hex');
}
