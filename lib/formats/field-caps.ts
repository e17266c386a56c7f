/**
 * Per-field size caps on what an import accepts: a single goal, thought, prompt (one message's text) or model
 * response above its cap refuses the whole file with a message naming the field's path and the cap. Files are
 * untrusted: without caps one 40 MB "thought" would be stored, folded into the snapshot and sent to every browser
 * that opens the run. Pure checks over values the schemas already accepted; run after them, so a file's existing
 * messages (lib/formats' schema errors) come first and stay as they were.
 * Not responsible for the file's total size (the HTTP route's byte limit) nor for live runs (the engine's own text
 * is not capped here).
 */
import type { ExplorationEvent } from '../contract/events';
import { MAX_GOAL_CHARS } from '../contract/run';

/** "events[41].payload.nodeId" from a zod path. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Characters. Far above any real search's text (a Game of 24 thought is ~100, a long scratchpad prompt ~50k). */
export const FIELD_CAPS = {
  goal: MAX_GOAL_CHARS,
  thought: 100_000,
  prompt: 1_000_000,
  response: 1_000_000,
} as const;

export type CappedField = keyof typeof FIELD_CAPS;

/** The one refusal's words: "events[3].payload.response: 1,200,000 characters, over the 1,000,000-character cap on a response". */
export function fieldCapError(path: readonly PropertyKey[], field: CappedField, length: number): string {
  const n = (value: number) => value.toLocaleString('en-US');
  return `${formatIssuePath(path)}: ${n(length)} characters, over the ${n(FIELD_CAPS[field])}-character cap on a ${field}`;
}

function over(text: string | null | undefined, field: CappedField): boolean {
  return typeof text === 'string' && text.length > FIELD_CAPS[field];
}

/** The first capped field of one event that is too long, as an error message; null when all fit. */
function checkEvent(event: ExplorationEvent, at: readonly PropertyKey[]): string | null {
  const payload = at.concat('payload');
  switch (event.type) {
    case 'run.started':
      return over(event.payload.goal, 'goal')
        ? fieldCapError(payload.concat('goal'), 'goal', event.payload.goal.length)
        : null;
    case 'model.called': {
      const { messages, response } = event.payload;
      for (const [i, message] of messages.entries()) {
        if (over(message.content, 'prompt'))
          return fieldCapError(payload.concat('messages', i, 'content'), 'prompt', message.content.length);
      }
      return response !== null && over(response, 'response')
        ? fieldCapError(payload.concat('response'), 'response', response.length)
        : null;
    }
    default: {
      // every event that carries thoughts carries them as `branch` or `branches` (ThoughtBranch)
      const { branch, branches } = event.payload as { branch?: unknown; branches?: unknown };
      const list = Array.isArray(branches) ? branches : [];
      for (const [i, item] of list.entries()) {
        const thought = (item as { thought?: unknown } | null)?.thought;
        if (typeof thought === 'string' && over(thought, 'thought'))
          return fieldCapError(payload.concat('branches', i, 'thought'), 'thought', thought.length);
      }
      const thought = (branch as { thought?: unknown } | null | undefined)?.thought;
      return typeof thought === 'string' && over(thought, 'thought')
        ? fieldCapError(payload.concat('branch', 'thought'), 'thought', thought.length)
        : null;
    }
  }
}

/** An export file's goal and events, checked; the first field over its cap as an error message, else null. */
export function checkExportFieldCaps(goal: string, events: readonly ExplorationEvent[]): string | null {
  if (over(goal, 'goal')) return fieldCapError(['run', 'goal'], 'goal', goal.length);
  for (const [i, event] of events.entries()) {
    const error = checkEvent(event, ['events', i]);
    if (error) return error;
  }
  return null;
}

/**
 * A Tree-of-Thoughts log's strings: each is a puzzle (a goal) or a state of the search (a thought), so every string
 * in the file is held to the thought cap, and a step's `x` to the goal cap. Walks the parsed value once.
 */
export function checkTotLogFieldCaps(log: unknown): string | null {
  const walk = (value: unknown, path: PropertyKey[]): string | null => {
    if (typeof value === 'string') {
      const field: CappedField = path[path.length - 1] === 'x' ? 'goal' : 'thought';
      return over(value, field) ? fieldCapError(path, field, value.length) : null;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const error = walk(item, path.concat(i));
        if (error) return error;
      }
      return null;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const error = walk(item, path.concat(key));
        if (error) return error;
      }
    }
    return null;
  };
  return walk(log, []);
}

/**
 * One event's capped fields, the first too long as an error message under `at` (e.g. ["items", 3]); null when all fit.
 * For a stream of events checked as they come (the ingest API, lib/server/ingest), where a file's walk does not apply.
 */
export function checkEventFieldCaps(event: ExplorationEvent, at: readonly PropertyKey[] = []): string | null {
  return checkEvent(event, at);
}
