/**
 * Judging events against breakpoints: one pure function (judgeEvent) that the engine asks about every event it is
 * about to commit, and that findHits runs over a recorded log, so a live stop and a query over history can never
 * disagree. What a condition needs beyond the event itself (a node's depth, the run's cost and tokens before the
 * event, a node's MCTS visits and Q before and after a backup) is read from the tree as reduce() had folded it up to
 * that event; a backup's effect is mcts.ts's backUp with the run's mctsBackup, the rule reduce folds it by.
 * Not responsible for pausing (executor.ts), for the conditions' schemas and words (lib/contract/breakpoints.ts),
 * nor for drawing hits (components/run).
 */
import type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import type { MctsStats } from '../contract/vocabulary';
import { mctsSettings } from './config';
import { backUp } from './mcts';
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
  /**
   * A node's MCTS statistics before the event, and after `value` is backed up through it (the run's mctsBackup);
   * null when the tree has no such node (reduce backs nothing up into it).
   */
  backedUp(nodeId: string, value: number): { before: MctsStats | null; after: MctsStats } | null;
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
  backedUp(nodeId: string, value: number): { before: MctsStats | null; after: MctsStats } | null {
    const node = this.tree.nodes[nodeId];
    if (!node) return null;
    return { before: node.mcts, after: backUp(node.mcts, value, mctsSettings(this.tree.config).mctsBackup) };
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
    case 'mcts-iteration': {
      if (event.type !== 'mcts.selected' || event.payload.iteration !== c.iteration) return null;
      const hops = event.payload.hops.length;
      return {
        nodeId: event.payload.leafId,
        detail: `iteration ${c.iteration} selected ${event.payload.leafId}, ${hops} ${hops === 1 ? 'hop' : 'hops'} from the root`,
      };
    }
    case 'q-above':
    case 'visits-above':
      return event.type === 'mcts.backpropagated' ? passedOnBackup(c, event.payload, context) : null;
  }
}

/**
 * The first node on a backup's path (the node first, the root last) whose Q or visits the value takes past the
 * condition's figure: at most the figure before (no Q yet counts as not above), above it after. The detail names the
 * other nodes of the path that pass with it (in an engine run the leaf's first value is usually what carries its
 * ancestors over). An abandoned iteration (value null) backs nothing up.
 */
function passedOnBackup(
  c: Extract<BreakpointCondition, { kind: 'q-above' | 'visits-above' }>,
  backup: EventPayloads['mcts.backpropagated'],
  context: HitContext,
): Found | null {
  const { value } = backup;
  if (value === null) return null;
  let first: Found | null = null;
  const others: string[] = [];
  for (const nodeId of backup.path) {
    const change = context.backedUp(nodeId, value);
    if (!change || !passes(c, change.before, change.after)) continue;
    if (first) {
      others.push(nodeId);
      continue;
    }
    const { before, after } = change;
    const visits = after.n ?? 0;
    const q = after.q ?? 0;
    const was = before?.q ?? null;
    first = {
      nodeId,
      detail:
        c.kind === 'q-above'
          ? `${nodeId}'s Q rose to ${roundApart(q, c.q, 2)}, past ${c.q} (${was === null ? 'its first value' : `from ${roundApart(was, c.q, 2)}`}, ${visits} ${visits === 1 ? 'visit' : 'visits'})`
          : `${nodeId}'s visits reached ${visits.toLocaleString('en-US')}, past ${c.visits.toLocaleString('en-US')}`,
    };
  }
  if (!first || others.length === 0) return first;
  return { ...first, detail: `${first.detail}; ${listed(others)} too` };
}

/** "n1", "n1 and n0", "n7, n1 and n0", "n9, n8, n7 and 4 more": a detail stays short on a deep path. */
function listed(ids: readonly string[], most = 3): string {
  if (ids.length > most) return `${ids.slice(0, most).join(', ')} and ${ids.length - most} more`;
  return ids.length === 1 ? (ids[0] as string) : `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
}

/** Whether one backup takes a node's Q or visits from at most the figure to above it. */
function passes(
  c: Extract<BreakpointCondition, { kind: 'q-above' | 'visits-above' }>,
  before: MctsStats | null,
  after: MctsStats,
): boolean {
  if (c.kind === 'q-above') {
    const was = before?.q ?? null;
    return after.q !== null && after.q > c.q && (was === null || was <= c.q);
  }
  return (before?.n ?? 0) <= c.visits && (after.n ?? 0) > c.visits;
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
