/**
 * What a foreign search says about a node beyond the engine's fields (node.annotated: named scores, free-form
 * metadata), made ready to read: a score as a figure that keeps its own scale, a metadata value as plain text
 * (a scalar as itself, other JSON pretty-printed) and whether it is long enough to fold. Text only: the inspector
 * renders it as text, never as HTML (it comes from another program).
 * Pure. Not responsible for folding the annotations (lib/engine reduce) nor for MCTS statistics (their own view).
 */
import type { JsonValue } from '@/lib/contract/vocabulary';

/** A value longer than this many characters, or of more lines than METADATA_FOLD_LINES, starts folded. */
export const METADATA_FOLD_CHARS = 160;
export const METADATA_FOLD_LINES = 4;

export interface ScoreRow {
  name: string;
  value: number;
  /** The figure as read: whole numbers as they are, others to at most 4 decimals ("0.1235", "12", "-3.5"). */
  text: string;
}

export interface MetadataRow {
  key: string;
  /** The value as text: a string as it is, a number, boolean or null as JSON writes it, an object or array pretty. */
  text: string;
  /** Structured JSON (an object or an array): shown in a monospaced box. */
  structured: boolean;
  /** Long: starts folded, this line showing (its first line, or structured JSON on one line), cut to 80 characters. */
  long: boolean;
  summary: string;
}

export function scoreText(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toFixed(4)));
}

/** A node's named scores in the order the search first gave them. */
export function scoreRows(scores: Readonly<Record<string, number>>): ScoreRow[] {
  return Object.entries(scores).map(([name, value]) => ({ name, value, text: scoreText(value) }));
}

export function jsonText(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  return JSON.stringify(value, null, 2);
}

/** A node's metadata in the order the search first gave it. */
export function metadataRows(metadata: Readonly<Record<string, JsonValue>>): MetadataRow[] {
  return Object.entries(metadata).map(([key, value]) => {
    const text = jsonText(value);
    const structured = value !== null && typeof value === 'object';
    const line = structured ? JSON.stringify(value) : (text.split('\n').find((l) => l.trim()) ?? '');
    return {
      key,
      text,
      structured,
      long: text.length > METADATA_FOLD_CHARS || text.split('\n').length > METADATA_FOLD_LINES,
      summary: line.length > 80 ? `${line.slice(0, 79)}…` : line,
    };
  });
}

/** A search's own config on one line ("iterations 2 · c 1.4 · rollout {"depth":3}"), for the run header. */
export function configSummary(config: Readonly<Record<string, JsonValue>>): string {
  const parts = Object.entries(config).map(([key, value]) =>
    typeof value === 'string' ? `${key} ${value}` : `${key} ${JSON.stringify(value)}`,
  );
  return parts.length > 0 ? parts.join(' · ') : 'no config given';
}
