/**
 * Finds the JSON a model meant to send: the whole text, a fenced block, or the first balanced
 * object/array inside prose. Not responsible for checking the JSON's shape (each parser does).
 */

export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  const whole = tryParse(trimmed);
  if (whole !== undefined) return whole;

  for (const match of trimmed.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) {
    const fenced = tryParse((match[1] ?? '').trim());
    if (fenced !== undefined) return fenced;
  }

  for (let start = 0; start < trimmed.length; start++) {
    const ch = trimmed[start];
    if (ch !== '{' && ch !== '[') continue;
    const end = findBalancedEnd(trimmed, start);
    if (end === -1) continue;
    const inner = tryParse(trimmed.slice(start, end + 1));
    if (inner !== undefined) return inner;
  }
  return undefined;
}

function tryParse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 if unbalanced. */
function findBalancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
