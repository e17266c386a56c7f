/**
 * Judging events against breakpoints: one pure function (judgeEvent) that the engine asks about every event it is
 * about to commit, and that findHits runs over a recorded log, so a live stop and a query over history can never
 * disagree. What a condition needs beyond the event itself (a node's depth, the run's cost and tokens before the
 * event) is read from the tree as reduce() had folded it up to that event.
 * Not responsible for pausing (executor.ts), for the conditions' schemas and words (lib/contract/breakpoints.ts),
 * nor for drawing hits (components/run).
 */
import type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import { createEmptyTree, reduce } from './tree';
import type { ThoughtTree } from './types';

/** An event as it is judged: seq null for one not yet written (a node's node.started, judged before its step). */
export type JudgedEvent = {
  [K in ExplorationEventType]: { type: K; payload: EventPayloads[K]; seq: number | null };
}[ExplorationEventType];

/** What a condition reads besides the event: the tree as it was just before the event. */
export interface HitContext {
  depthOf(nodeId: string): number | null;
  /** The run's cost (USD) and tokens (input and output) before the event. */
  cost: number;
  tokens: number;
}

/**
 * The tree read as a HitContext. A class rather than an object literal with an arrow: the engine asks for one per
 * event, and a closure per event (which tsx's keepNames also wraps in a defineProperty call) was most of what judging
 * cost; the figures are read only when a condition asks.
 */
class TreeHitContext implements HitContext {
  constructor(private readonly tree: ThoughtTree) {}
  depthOf(nodeId: string): number | null {
    return this.tree.nodes[nodeId]?.depth ?? null;
  }
  get cost(): number {
    return this.tree.usage.cost;
  }
  get tokens(): number {
    return this.tree.usage.inputTokens + this.tree.usage.outputTokens;
  }
}

export function treeHitContext(tree: ThoughtTree): HitContext {
  return new TreeHitContext(tree);
}

/** The first enabled breakpoint (in list order) the event satisfies, as a hit; null when none does. */
export function judgeEvent(
  breakpoints: readonly Breakpoint[],
  event: JudgedEvent,
  context: HitContext,
): BreakpointHit | null {
  for (const breakpoint of breakpoints) {
    if (!breakpoint.enabled) continue;
    const found = satisfies(breakpoint.condition, event, context);
    if (found) {
      return {
        breakpointId: breakpoint.id,
        condition: breakpoint.condition,
        seq: event.seq,
        eventType: event.type,
        nodeId: found.nodeId,
        detail: found.detail,
      };
    }
  }
  return null;
}

/**
 * Every event of a log that satisfies one of the breakpoints, in log order (one hit per event: the first breakpoint
 * in list order). The log is folded as it is read, so each event is judged against the tree just before it, as the
 * engine judged it live.
 */
export function findHits(events: readonly ExplorationEvent[], breakpoints: readonly Breakpoint[]): BreakpointHit[] {
  if (!breakpoints.some((b) => b.enabled)) return [];
  const tree = createEmptyTree(events[0]?.runId ?? '');
  const hits: BreakpointHit[] = [];
  for (const event of events) {
    const hit = judgeEvent(breakpoints, event, treeHitContext(tree));
    if (hit) hits.push(hit);
    reduce(tree, event);
  }
  return hits;
}

interface Found {
  nodeId: string | null;
  detail: string;
}

function satisfies(c: BreakpointCondition, event: JudgedEvent, context: HitContext): Found | null {
  switch (c.kind) {
    case 'verification-failed':
      if (event.type !== 'node.verified' || event.payload.passed) return null;
      return {
        nodeId: event.payload.nodeId,
        detail: `${event.payload.nodeId} failed verification: ${clip(event.payload.trace)}`,
      };
    case 'backtrack':
      if (event.type !== 'backtrack') return null;
      return {
        nodeId: event.payload.fromId,
        detail: `backtrack from ${event.payload.fromId} to ${event.payload.toId ?? 'nowhere left'}: ${clip(event.payload.reason)}`,
      };
    case 'score-below':
    case 'score-above': {
      if (event.type !== 'branch.scored') return null;
      const score = event.payload.score.composite;
      const below = c.kind === 'score-below';
      if (below ? !(score < c.value) : !(score > c.value)) return null;
      return {
        nodeId: event.payload.nodeId,
        detail: `candidate ${event.payload.index + 1} of ${event.payload.nodeId} scored ${roundApart(score, c.value, 2)}, ${below ? 'below' : 'above'} ${c.value}`,
      };
    }
    case 'depth': {
      if (event.type !== 'node.created' && event.type !== 'node.restored') return null;
      const parent = event.payload.parentId;
      const parentDepth = parent === null ? null : context.depthOf(parent);
      const depth = parent === null ? 0 : parentDepth === null ? null : parentDepth + 1;
      if (depth !== c.depth) return null;
      return { nodeId: event.payload.nodeId, detail: `${event.payload.nodeId} is at depth ${depth}` };
    }
    case 'cost-above': {
      if (event.type !== 'model.called' || event.payload.cost === null) return null;
      const after = context.cost + event.payload.cost;
      if (!(context.cost <= c.usd && after > c.usd)) return null;
      return {
        nodeId: event.payload.nodeId,
        detail: `the run's cost reached $${roundApart(after, c.usd, 4)}, past $${c.usd}`,
      };
    }
    case 'tokens-above': {
      if (event.type !== 'model.called') return null;
      const usage = event.payload.usage;
      const after = context.tokens + usage.inputTokens + usage.outputTokens;
      if (!(context.tokens <= c.tokens && after > c.tokens)) return null;
      return {
        nodeId: event.payload.nodeId,
        detail: `the run's tokens reached ${after.toLocaleString('en-US')}, past ${c.tokens.toLocaleString('en-US')}`,
      };
    }
    case 'text-match': {
      const read = textOf(c.field, event);
      if (!read || !matches(c, read.text)) return null;
      const how = c.regex ? `matches /${c.pattern}/` : `contains ${JSON.stringify(c.pattern)}`;
      return { nodeId: read.nodeId, detail: `${read.what} ${how}` };
    }
    case 'node-runs':
      if (event.type !== 'node.started' || event.payload.nodeId !== c.nodeId) return null;
      return { nodeId: c.nodeId, detail: `${c.nodeId} is about to run (${event.payload.mode})` };
    case 'model-call-failed':
      if (event.type !== 'model.called' || event.payload.error === null) return null;
      return {
        nodeId: event.payload.nodeId,
        detail: `${withArticle(event.payload.purpose)} call${event.payload.nodeId ? ` for ${event.payload.nodeId}` : ''} failed: ${clip(event.payload.error)}`,
      };
  }
}

/** The text a text condition reads from this event, with whose it is; null when the event carries none. */
function textOf(
  field: 'thought' | 'result' | 'response',
  event: JudgedEvent,
): { text: string; nodeId: string | null; what: string } | null {
  if (field === 'thought' && (event.type === 'node.created' || event.type === 'node.restored')) {
    const thought = event.payload.branch?.thought;
    return thought === undefined
      ? null
      : { text: thought, nodeId: event.payload.nodeId, what: `${event.payload.nodeId}'s thought` };
  }
  if (field === 'result' && event.type === 'node.completed') {
    return {
      text: event.payload.result.response,
      nodeId: event.payload.nodeId,
      what: `${event.payload.nodeId}'s result`,
    };
  }
  if (field === 'response' && event.type === 'model.called' && event.payload.response !== null) {
    const whose = event.payload.nodeId ? ` for ${event.payload.nodeId}` : '';
    return {
      text: event.payload.response,
      nodeId: event.payload.nodeId,
      what: `${withArticle(event.payload.purpose)} response${whose}`,
    };
  }
  return null;
}

/** Compiled patterns by condition object: a condition is judged against every event, compiled once. */
const compiled = new WeakMap<object, RegExp>();

function matches(c: Extract<BreakpointCondition, { kind: 'text-match' }>, text: string): boolean {
  if (!c.regex) {
    return c.caseSensitive ? text.includes(c.pattern) : text.toLowerCase().includes(c.pattern.toLowerCase());
  }
  let re = compiled.get(c);
  if (!re) {
    re = new RegExp(c.pattern, c.caseSensitive ? '' : 'i');
    compiled.set(c, re);
  }
  return re.test(text);
}

/** "a generate", "an evaluate": a hit's detail is read as a sentence. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * `n` with `digits` decimals, or more when that would read as the figure it passed ("scored 0.3, below 0.3" for
 * 0.2999): a hit's detail must never contradict itself.
 */
function roundApart(n: number, figure: number, digits: number): string {
  for (let d = digits; d < 12; d++) {
    const rounded = Number(n.toFixed(d));
    if (rounded !== figure) return rounded.toString();
  }
  return n.toString();
}
