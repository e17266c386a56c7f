/**
 * The arithmetic of bench:concurrency (issue 30), pure functions of a run's own event log: the critical path (the
 * longest chain of model calls that depend on each other) and the calls in flight over a stretch of the run's clock.
 * Not responsible for running searches or printing (concurrency.ts), nor for deciding what the engine may run together
 * (lib/engine): the dependencies here are the data a call needs, whatever order a strategy imposes on top of them.
 */
import type { ExplorationEvent } from '../contract/events';
import { peakInFlight } from '../event-log/index';

/** One model.called on a chain, with the call it waited for. */
interface Link {
  seq: number;
  /** Calls on the chain up to and including this one. */
  depth: number;
  prev: Link | null;
}

export interface CriticalPath {
  /** Calls on the longest chain (0 for a log without calls). */
  length: number;
  /** The seq of each model.called on that chain, first to last; among equally long chains, the one found first. */
  seqs: number[];
}

/** The later of two points on chains: the one more calls deep (the first when equal, so the result is stable). */
const deeper = (a: Link | null, b: Link | null): Link | null => (b && (!a || b.depth > a.depth) ? b : a);

/**
 * The longest chain of dependent calls in a log, read in log order. What a call depends on:
 * - a node can run once its parent's expansion has finished: the generation and the slowest of its evaluations
 *   (a root, and a node restored from another run, wait for no call of this run);
 * - an execution's turns depend on each other, the first on that parent's expansion;
 * - a node's generation depends on its own execution calls (or, with none, on its parent's expansion);
 * - its evaluations depend on that generation only, not on each other;
 * - the synthesis (and any call without a node) depends on every call before it.
 * A node expanded twice (a person's expand) starts its second expansion afresh from its execution, and the nodes
 * that expansion creates wait for it; an evaluation belongs to the latest generation of its node before it.
 */
export function criticalPath(events: readonly ExplorationEvent[]): CriticalPath {
  /** The call a node's parent expansion ended with, set when the node entered the tree (null: none). */
  const ready = new Map<string, Link | null>();
  /** A node's last execution turn so far. */
  const executed = new Map<string, Link>();
  /** A node's latest generation. */
  const generated = new Map<string, Link>();
  /** A node's latest expansion so far: its generation or its slowest evaluation. */
  const expanded = new Map<string, Link>();
  let longest: Link | null = null;

  const started = (nodeId: string): Link | null => executed.get(nodeId) ?? ready.get(nodeId) ?? null;

  for (const event of events) {
    if (event.type === 'node.created' || event.type === 'node.restored') {
      const { nodeId, parentId } = event.payload;
      // a restored node was run in another run: nothing of this run's comes before it
      const parentDone = event.type === 'node.created' && parentId !== null ? (expanded.get(parentId) ?? null) : null;
      ready.set(nodeId, parentDone);
      continue;
    }
    if (event.type !== 'model.called') continue;
    const { nodeId, purpose } = event.payload;
    let after: Link | null;
    if (nodeId === null || purpose === 'synthesize') after = longest;
    else if (purpose === 'evaluate') after = generated.get(nodeId) ?? started(nodeId);
    else after = started(nodeId); // generate, execute
    const link: Link = { seq: event.seq, depth: (after?.depth ?? 0) + 1, prev: after };
    if (nodeId !== null) {
      if (purpose === 'execute') executed.set(nodeId, link);
      else if (purpose === 'generate') {
        generated.set(nodeId, link);
        expanded.set(nodeId, link);
      } else if (purpose === 'evaluate') {
        expanded.set(nodeId, deeper(expanded.get(nodeId) ?? null, link) as Link);
      }
    }
    longest = deeper(longest, link);
  }

  const seqs: number[] = [];
  for (let link = longest; link; link = link.prev) seqs.push(link.seq);
  return { length: longest?.depth ?? 0, seqs: seqs.reverse() };
}

export interface CallsInFlight {
  /** Time-weighted mean of the calls in flight over the window (the sum of the calls' time in it / its length). */
  average: number;
  /** The most calls in flight at any moment. */
  peak: number;
}

/**
 * Calls in flight over [from, to] of the run's clock (ms since the epoch, as model.called's startedAt), from each
 * call's startedAt and latencyMs. Null when a call has no startedAt (a log written before issue 30) or the window is
 * empty.
 */
export function callsInFlight(
  events: readonly ExplorationEvent[],
  window: { from: number; to: number },
): CallsInFlight | null {
  const span = window.to - window.from;
  if (!(span > 0)) return null;
  const intervals: { start: number; end: number }[] = [];
  for (const event of events) {
    if (event.type !== 'model.called') continue;
    const { startedAt, latencyMs } = event.payload;
    if (startedAt === undefined) return null;
    intervals.push({ start: startedAt, end: startedAt + latencyMs });
  }
  let inside = 0;
  for (const { start, end } of intervals)
    inside += Math.max(0, Math.min(end, window.to) - Math.max(start, window.from));
  return { average: inside / span, peak: peakInFlight(intervals) };
}

/**
 * The level with the most expansions: its depth and how many generation calls it made (a beam level's width in
 * nodes, what a limit of calls in flight must reach for its generations to run together).
 */
export function widestLevel(events: readonly ExplorationEvent[]): { depth: number; generations: number } {
  const depth = new Map<string, number>();
  const perDepth = new Map<number, number>();
  for (const event of events) {
    if (event.type === 'node.created' || event.type === 'node.restored') {
      const parent = event.payload.parentId;
      depth.set(event.payload.nodeId, parent === null ? 0 : (depth.get(parent) ?? 0) + 1);
    } else if (event.type === 'model.called' && event.payload.purpose === 'generate' && event.payload.nodeId) {
      const d = depth.get(event.payload.nodeId) ?? 0;
      perDepth.set(d, (perDepth.get(d) ?? 0) + 1);
    }
  }
  let widest = { depth: 0, generations: 0 };
  for (const [d, generations] of perDepth) {
    if (generations > widest.generations) widest = { depth: d, generations };
  }
  return widest;
}
