/**
 * The run page's breakpoints, as pure data: a condition built from what a person typed into the panel (checked by the
 * contract's own schema, each message beside the field it concerns), the list edits the panel and the canvas menu
 * make ("run to here", a switch, a removal), where the hits are along the log and the next or previous one from a
 * step, and the compact form of a list that a link carries.
 * Two kinds of hits: on a live run the stops (the run.paused events that name a hit: what the engine judged); on a
 * run that has ended, a list works as a query over its history, judged by the engine's own findHits (one judge, never
 * a copy of a condition here).
 * Not responsible for judging events (lib/engine/breakpoints.ts), sending a list (components/run/breakpoints) nor for
 * the conditions' schemas and words (lib/contract/breakpoints.ts).
 */
import {
  type Breakpoint,
  type BreakpointCondition,
  type BreakpointHit,
  type BreakpointKind,
  breakpointConditionSchema,
  breakpointListSchema,
  MAX_BREAKPOINTS,
  type TextField,
} from '../contract/breakpoints';
import type { ExplorationEvent } from '../contract/events';
import { findHits } from '../engine/index';
import { bySeq, firstAbove as firstAboveIn } from './sorted';

/** What the panel's add form holds: text as typed (numbers parsed on submit), switches as booleans. */
export interface BreakpointDraft {
  kind: BreakpointKind;
  value: string;
  depth: string;
  usd: string;
  tokens: string;
  /** MCTS (issue 31): an iteration's number, a Q, a number of visits. */
  iteration: string;
  q: string;
  visits: string;
  pattern: string;
  field: TextField;
  regex: boolean;
  caseSensitive: boolean;
  nodeId: string;
}

export type DraftField = Exclude<keyof BreakpointDraft, 'kind'>;

export const EMPTY_DRAFT: BreakpointDraft = {
  kind: 'verification-failed',
  value: '0.3',
  depth: '3',
  usd: '0.10',
  tokens: '10000',
  iteration: '10',
  q: '0.7',
  visits: '10',
  pattern: '',
  field: 'thought',
  regex: false,
  caseSensitive: false,
  nodeId: '',
};

/** The fields each kind asks for, in the order the form shows them. */
export const KIND_FIELDS: Record<BreakpointKind, readonly DraftField[]> = {
  'verification-failed': [],
  backtrack: [],
  'score-below': ['value'],
  'score-above': ['value'],
  depth: ['depth'],
  'cost-above': ['usd'],
  'tokens-above': ['tokens'],
  'text-match': ['pattern', 'field', 'regex', 'caseSensitive'],
  'node-runs': ['nodeId'],
  'model-call-failed': [],
  'mcts-iteration': ['iteration'],
  'q-above': ['q'],
  'visits-above': ['visits'],
};

export type DraftResult =
  { ok: true; condition: BreakpointCondition } | { ok: false; errors: Partial<Record<DraftField, string>> };

const NUMBER_FIELDS = new Set<DraftField>(['value', 'depth', 'usd', 'tokens', 'iteration', 'q', 'visits']);

/**
 * The condition a draft describes, or a message per field: numbers must be numbers, and the rest is the contract's
 * schema (a catastrophic or broken regular expression is refused there, as the server refuses it).
 */
export function conditionFromDraft(draft: BreakpointDraft): DraftResult {
  const errors: Partial<Record<DraftField, string>> = {};
  const candidate: Record<string, unknown> = { kind: draft.kind };
  for (const field of KIND_FIELDS[draft.kind]) {
    const raw = draft[field];
    if (NUMBER_FIELDS.has(field)) {
      const text = String(raw).trim();
      const n = Number(text);
      if (text === '') errors[field] = 'required';
      else if (!Number.isFinite(n)) errors[field] = 'not a number';
      candidate[field] = n;
    } else {
      candidate[field] = typeof raw === 'string' ? raw.trim() : raw;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const parsed = breakpointConditionSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, condition: parsed.data };
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const key = (typeof field === 'string' && field in draft ? field : KIND_FIELDS[draft.kind][0]) as
      DraftField | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}

/** A new breakpoint's id: bp-1, bp-2, ... the first not in the list. */
export function nextBreakpointId(list: readonly Breakpoint[]): string {
  const ids = new Set(list.map((b) => b.id));
  for (let n = 1; ; n++) if (!ids.has(`bp-${n}`)) return `bp-${n}`;
}

/** Why nothing more can be added, or null. */
export function addBlock(list: readonly Breakpoint[]): string | null {
  return list.length >= MAX_BREAKPOINTS ? `a run holds at most ${MAX_BREAKPOINTS} breakpoints` : null;
}

/** The list with a new enabled breakpoint at its end (a list at its cap is returned unchanged). */
export function addBreakpoint(list: readonly Breakpoint[], condition: BreakpointCondition): Breakpoint[] {
  if (addBlock(list)) return [...list];
  return [...list, { id: nextBreakpointId(list), enabled: true, condition }];
}

export function setEnabled(list: readonly Breakpoint[], id: string, enabled: boolean): Breakpoint[] {
  return list.map((b) => (b.id === id && b.enabled !== enabled ? { ...b, enabled } : b));
}

export function removeBreakpoint(list: readonly Breakpoint[], id: string): Breakpoint[] {
  return list.filter((b) => b.id !== id);
}

/** Every breakpoint switched off (kept, so they can be switched on again). */
export function disableAll(list: readonly Breakpoint[]): Breakpoint[] {
  return list.map((b) => (b.enabled ? { ...b, enabled: false } : b));
}

/** The id "run to here" gives a node's breakpoint (within the contract's 64 characters). */
export function runToId(nodeId: string): string {
  return `run-to-${nodeId}`.slice(0, 64);
}

/**
 * The list with "run to here" on `nodeId`: its breakpoint switched on again if the node had one (a used one is off),
 * else added. A list at its cap gains nothing (addBlock says why).
 */
export function runToHere(list: readonly Breakpoint[], nodeId: string): Breakpoint[] {
  const id = runToId(nodeId);
  if (list.some((b) => b.id === id)) {
    return list.map((b) => (b.id === id ? { id, enabled: true, condition: { kind: 'node-runs', nodeId } } : b));
  }
  if (addBlock(list)) return [...list];
  return [...list, { id, enabled: true, condition: { kind: 'node-runs', nodeId } }];
}

/** A hit where the timeline shows it: the step to jump to (the event that hit, or a stop's own run.paused). */
export interface HitMark {
  seq: number;
  hit: BreakpointHit;
}

export interface HitList {
  /** In seq order. */
  marks: readonly HitMark[];
  /** Hits per breakpoint id. */
  counts: ReadonlyMap<string, number>;
}

export const NO_HITS: HitList = { marks: [], counts: new Map() };

function listOf(marks: readonly HitMark[]): HitList {
  if (marks.length === 0) return NO_HITS;
  const counts = new Map<string, number>();
  for (const { hit } of marks) counts.set(hit.breakpointId, (counts.get(hit.breakpointId) ?? 0) + 1);
  return { marks, counts };
}

/** A log's events up to `count` (the history grows in place: index = seq - 1). */
function prefix(events: readonly ExplorationEvent[], count: number): readonly ExplorationEvent[] {
  return events.length <= count ? events : events.slice(0, count);
}

/**
 * A list as a query over a recorded log: every event an enabled breakpoint hits (findHits, the engine's judge).
 * Nothing to do (no fold of the log at all) when no breakpoint is enabled.
 */
export function queryHits(events: readonly ExplorationEvent[], count: number, list: readonly Breakpoint[]): HitList {
  if (!list.some((b) => b.enabled)) return NO_HITS;
  const marks: HitMark[] = [];
  for (const hit of findHits(prefix(events, count), list)) if (hit.seq !== null) marks.push({ seq: hit.seq, hit });
  return listOf(marks);
}

/**
 * A live run's stops: its run.paused events that name a breakpoint hit, read as the log grows (only the events not
 * read yet), so following a long run costs O(new events). `list` is a new object only when a stop was added.
 */
export class StopIndex {
  private seen = 0;
  private marks: HitMark[] = [];
  list: HitList = NO_HITS;

  read(events: readonly ExplorationEvent[], count: number): HitList {
    const end = Math.min(count, events.length);
    let added = false;
    for (let i = this.seen; i < end; i++) {
      const event = events[i] as ExplorationEvent;
      if (event.type !== 'run.paused' || event.payload.reason !== 'breakpoint') continue;
      const hit = event.payload.hit;
      this.marks.push({ seq: hit.seq ?? event.seq, hit });
      added = true;
    }
    this.seen = Math.max(this.seen, end);
    if (added) this.list = listOf([...this.marks].sort((a, b) => a.seq - b.seq));
    return this.list;
  }
}

/**
 * The next (+1) or previous (-1) hit from the step on screen: the first after it, or the last before it. Null when
 * there is none that way.
 */
export function adjacentHit(marks: readonly HitMark[], seq: number, direction: 1 | -1): HitMark | null {
  const firstAbove = (target: number) => firstAboveIn(marks, target, bySeq);
  if (direction === 1) return marks[firstAbove(seq)] ?? null;
  return marks[firstAbove(seq - 1) - 1] ?? null;
}

/** A marker on the timeline: the first hit at its place, how many share it, where it is (0..1 along the track). */
export interface HitMarker {
  first: HitMark;
  count: number;
  at: number;
}

/**
 * The timeline's markers for hits along a log of `total` events: hits closer than one of `slots` places along the
 * track share a marker, so thousands of hits draw at most `slots` markers. Marks must be in seq order.
 */
export function hitMarkers(marks: readonly HitMark[], total: number, slots: number): HitMarker[] {
  const out: HitMarker[] = [];
  let slot = -1;
  for (const mark of marks) {
    const at = total <= 1 ? 0 : Math.min(1, Math.max(0, (mark.seq - 1) / (total - 1)));
    const s = Math.round(at * slots);
    const last = out[out.length - 1];
    if (s === slot && last) last.count++;
    else out.push({ first: mark, count: 1, at: s / slots });
    slot = s;
  }
  return out;
}

/** One breakpoint's next hit after `seq`, from the first again past its last; null when it has none. */
export function nextHitOf(marks: readonly HitMark[], seq: number, breakpointId: string): HitMark | null {
  let first: HitMark | null = null;
  for (const mark of marks) {
    if (mark.hit.breakpointId !== breakpointId) continue;
    if (mark.seq > seq) return mark;
    first ??= mark;
  }
  return first;
}

/** The most characters a list takes in a link (a browser keeps far longer addresses; a link should stay sharable). */
export const MAX_LINK_LIST = 4_000;

/** A list as a link carries it (`bp=`): compact JSON. */
export function encodeBreakpoints(list: readonly Breakpoint[]): string {
  return JSON.stringify(list);
}

/** A link's `bp=` back into a list, or why it is ignored. */
export function decodeBreakpoints(raw: string): { ok: true; list: Breakpoint[] } | { ok: false; problem: string } {
  if (raw.length > MAX_LINK_LIST) return { ok: false, problem: 'the list is too long for a link' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'it is not JSON' };
  }
  const parsed = breakpointListSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (at ${issue.path.join('.')})` : '';
    return { ok: false, problem: `${issue?.message ?? 'not a breakpoint list'}${where}` };
  }
  return { ok: true, list: parsed.data };
}
