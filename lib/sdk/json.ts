/**
 * Turns what a program hands the SDK into plain JSON data when it is queued, or says exactly why it cannot: a value
 * JSON.stringify would throw on (a BigInt, a cycle) must be caught here, at the caller's item, and not when a batch is
 * sent, where it would fail the whole batch again and again. Where the meaning is clear the value is converted
 * (BigInt -> number, or a string beyond 2^53; Date -> ISO string; toJSON() as JSON does; Map -> object; Set ->
 * array); where JSON would silently change it (NaN and Infinity become null) or cannot hold it (a cycle, a function,
 * a symbol) the item is refused with the field's path. The result is a fresh copy, so later changes to the program's
 * objects do not change what is sent (nor make a retried batch differ from the one the server stored).
 * Not responsible for what the server accepts (its schemas check ranges, lengths and node ids), nor for warning
 * (run.ts says each refusal or conversion, named).
 */

/** A field that needed a word: where it is ("metadata.when", "scores.value", "messages[2].content") and what. */
export interface JsonNote {
  path: string;
  problem: string;
}

export type JsonChecked = { value: unknown; notes: JsonNote[] } | { refused: JsonNote };

class Refusal extends Error {
  constructor(readonly note: JsonNote) {
    super(note.problem);
  }
}

/** Deeper than any search's item; beyond it the copy would risk the stack, so the item is refused instead. */
const MAX_DEPTH = 200;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Where a value is, as a chain of keys: the path's words are only built for a note (most items need none). */
interface At {
  key: string | number;
  parent: At | null;
}

function pathOf(at: At | null): string {
  let path = '';
  for (let a = at; a; a = a.parent) {
    const key = a.key;
    const part = typeof key === 'number' ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    path = part + path;
  }
  return path.replace(/^\./, '') || '(the item)';
}

/** `value` as JSON data (see the header), or the first field that cannot be sent. */
export function toJson(value: unknown): JsonChecked {
  const notes: JsonNote[] = [];
  const ancestors = new Set<object>();

  const convert = (v: unknown, at: At | null, depth: number, viaToJson = false): unknown => {
    const refuse = (problem: string): never => {
      throw new Refusal({ path: pathOf(at), problem });
    };
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (Number.isFinite(v)) return v;
        return refuse(`is ${String(v)}, which JSON cannot carry (it would arrive as null)`);
      case 'bigint': {
        const n = Number(v);
        if (Number.isSafeInteger(n)) return n;
        notes.push({ path: pathOf(at), problem: `is a BigInt beyond 2^53, sent as the string "${String(v)}"` });
        return String(v);
      }
      case 'undefined':
        return undefined; // as JSON: an absent field (null in an array, below)
      case 'function':
        return refuse('is a function, which JSON cannot carry');
      case 'symbol':
        return refuse('is a symbol, which JSON cannot carry');
    }
    if (v === null) return null;
    const obj = v as object;
    if (depth > MAX_DEPTH) return refuse(`is nested more than ${MAX_DEPTH} levels deep`);
    if (ancestors.has(obj)) return refuse('is a cycle (it contains itself), which JSON cannot carry');
    if (obj instanceof Date) {
      if (Number.isNaN(obj.getTime())) return refuse('is an invalid Date (it would arrive as null)');
      return obj.toISOString();
    }
    // as JSON.stringify: any object's toJSON() says what it is, a plain object's included
    if (!viaToJson && typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
      let json: unknown;
      try {
        json = (obj as { toJSON: (key: string) => unknown }).toJSON('');
      } catch (error) {
        return refuse(`has a toJSON() that threw: ${error instanceof Error ? error.message : String(error)}`);
      }
      ancestors.add(obj);
      try {
        return convert(json, at, depth + 1, true);
      } finally {
        ancestors.delete(obj);
      }
    }
    if (obj instanceof Number || obj instanceof String || obj instanceof Boolean) {
      return convert(obj.valueOf(), at, depth);
    }
    ancestors.add(obj);
    try {
      if (Array.isArray(obj) || obj instanceof Set) {
        const items = Array.isArray(obj) ? (obj as unknown[]) : [...obj];
        return items.map((item, i) => convert(item, { key: i, parent: at }, depth + 1) ?? null);
      }
      let entries: [string, unknown][];
      if (obj instanceof Map) {
        entries = [];
        for (const [key, item] of obj) {
          if (!['string', 'number', 'bigint', 'boolean'].includes(typeof key)) {
            return refuse(`is a Map with a key that is not a string or a number (${typeof key})`);
          }
          entries.push([String(key), item]);
        }
      } else {
        entries = Object.entries(obj);
      }
      const out: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        const converted = convert(item, { key, parent: at }, depth + 1);
        if (converted !== undefined) out[key] = converted;
      }
      return out;
    } finally {
      ancestors.delete(obj);
    }
  };

  try {
    return { value: convert(value, null, 0), notes };
  } catch (error) {
    if (error instanceof Refusal) return { refused: error.note };
    // a getter that throws, a Proxy that refuses: still this item's problem, not the run's
    const message = error instanceof Error ? error.message : String(error);
    return { refused: { path: '(the item)', problem: `cannot be read: ${message}` } };
  }
}
