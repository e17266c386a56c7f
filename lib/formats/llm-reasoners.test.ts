// The llm-reasoners tree log replayed as events: the fixtures (written by fixtures/make-llm-reasoners-logs.py in the
// library's own JSON) become one run whose every event is a valid, foldable event; each MCTS iteration is one step
// as the timeline counts them; Q comes from the edges, visits from the selected paths (or the log's own N); the
// answer is the highest-Q path; broken logs are refused with the place named.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explorationEventSchema, type ExplorationEvent } from '../contract/events';
import { createEmptyTree, fold, type ThoughtTree } from '../engine/index';
import { jump } from '../store/index';
import { foldChecked } from './export';
import { FIELD_CAPS } from './field-caps';
import { looksLikeLlmReasonersLog, parseLlmReasonersLog, stateText, type LlmReasonersDraft } from './llm-reasoners';

type Json = Record<string, unknown>;
interface RawEdge {
  id: number;
  source: number;
  target: number;
  data: Json;
}
interface RawNode {
  id: number;
  data: Json;
  selected_edge: number | null;
}
interface RawLog {
  logs: { nodes: Record<string, RawNode>; edges: Record<string, RawEdge> }[];
}

const read = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as RawLog;
const TEN = 'llm-reasoners-mcts-10.json';
const DEFAULT_3 = 'llm-reasoners-mcts-default-3.json';

function parseOne(log: unknown): LlmReasonersDraft {
  const parsed = parseLlmReasonersLog(log, { now: 1_000 });
  if (!parsed.ok) throw new Error(parsed.error);
  expect(parsed.runs).toHaveLength(1);
  return parsed.runs[0] as LlmReasonersDraft;
}

/** Steps as the timeline counts them: its own "next search step" jump, from seq 0 until there is none. */
function timelineSteps(events: readonly ExplorationEvent[]): number[] {
  const ends: number[] = [];
  for (let seq: number | null = 0; ;) {
    seq = jump(events, seq, 'step', 1);
    if (seq === null) return ends;
    ends.push(seq);
  }
}

/** The tree after the events of the first `steps` steps. */
function treeAtStep(events: readonly ExplorationEvent[], steps: number): ThoughtTree {
  const end = timelineSteps(events)[steps - 1] as number;
  return fold(events.slice(0, end));
}

/**
 * Visits counted by hand from the raw log: the chain of selected edges from the root, cut below the deepest depth
 * at which a node has a state (the fixtures' depth limit is 3).
 */
function handCountedVisits(log: RawLog, iterations: number): Map<number, number> {
  const visits = new Map<number, number>();
  for (const snap of log.logs.slice(0, iterations)) {
    let node: number = 0;
    for (let depth = 0; ; depth++) {
      visits.set(node, (visits.get(node) ?? 0) + 1);
      const selected = snap.nodes[String(node)]?.selected_edge;
      if (selected === null || selected === undefined || depth === 3) break;
      node = (snap.edges[String(selected)] as RawEdge).target;
    }
  }
  return visits;
}

describe('the llm-reasoners tree log', () => {
  it('is told apart by its shape: an object with a logs array', () => {
    expect(looksLikeLlmReasonersLog(read(TEN))).toBe(true);
    expect(looksLikeLlmReasonersLog([{ logs: [] }])).toBe(false);
    expect(looksLikeLlmReasonersLog({ format: 'arborist.run', logs: [] })).toBe(false);
  });

  it('replays the 10 iterations as valid events that fold, one timeline step per iteration', () => {
    const draft = parseOne(read(TEN));
    for (const event of draft.events) expect(explorationEventSchema.safeParse(event).success).toBe(true);
    expect(foldChecked(createEmptyTree('x'), draft.events)).toBeNull();
    expect(timelineSteps(draft.events)).toHaveLength(10);
    expect(draft.events.filter((e) => e.type === 'node.started')).toHaveLength(10);
    const started = draft.events[0];
    expect(started?.type === 'run.started' && started.payload.external).toEqual({
      config: expect.objectContaining({ algorithm: 'MCTS', iterations: 10, nodes: 37, depthLimit: 3 }),
      commands: [],
    });
    expect(draft.taskId).toBe('llm-reasoners');
    // the goal is the root's state, as the log has no goal
    expect(draft.goal).toBe('step_idx: 0\nvalue: 1\nhistory: []');
    expect(draft.tree.status).toBe('finished');
  });

  it('creates each iteration’s new nodes in that step, under their parents, with the log’s ids', () => {
    const log = read(TEN);
    const { events } = parseOne(log);
    for (let k = 1; k <= 10; k++) {
      const tree = treeAtStep(events, k);
      const snap = log.logs[k - 1] as RawLog['logs'][number];
      expect(Object.keys(tree.nodes).sort()).toEqual(
        Object.keys(snap.nodes)
          .map((id) => `n${id}`)
          .sort(),
      );
      for (const edge of Object.values(snap.edges)) {
        expect(tree.nodes[`n${edge.target}`]?.parentId).toBe(`n${edge.source}`);
        // the thought is the edge's action
        expect(tree.nodes[`n${edge.target}`]?.branch?.thought).toBe(edge.data.action);
      }
    }
  });

  it('shows Q from the edges and visits counted from the selected paths, as of each step', () => {
    const log = read(TEN);
    const { events } = parseOne(log);
    const qsOfN1: number[] = [];
    for (let k = 1; k <= 10; k++) {
      const tree = treeAtStep(events, k);
      const snap = log.logs[k - 1] as RawLog['logs'][number];
      const visits = handCountedVisits(log, k);
      for (const edge of Object.values(snap.edges)) {
        const node = tree.nodes[`n${edge.target}`];
        expect(node?.mcts?.q).toBe(edge.data.Q);
        expect(node?.mcts?.n).toBe(visits.get(edge.target) ?? 0);
        expect(node?.scores.reward).toBe(edge.data.reward);
        expect(node?.metadata.goal_reached ?? null).toEqual(edge.data.goal_reached ?? null);
      }
      // the root is on every path; it has no edge, so no Q
      expect(tree.nodes.n0?.mcts).toEqual({ q: null, n: k, uct: null });
      qsOfN1.push(tree.nodes.n1?.mcts?.q as number);
    }
    // n1 (the first "+3") is revisited: its Q moves as the iterations go
    expect(new Set(qsOfN1).size).toBeGreaterThan(3);
  });

  it('marks the nodes MCTS visited as completed with their state, and leaves the others pending', () => {
    const log = read(TEN);
    const draft = parseOne(log);
    const last = log.logs[9] as RawLog['logs'][number];
    const visits = handCountedVisits(log, 10);
    for (const node of Object.values(last.nodes)) {
      const ours = draft.tree.nodes[`n${node.id}`];
      const visited = node.id === 0 || Object.keys(node.data).length > 0 || visits.has(node.id);
      if (node.id === 0) continue;
      expect(ours?.status).toBe(visited ? 'completed' : 'pending');
      if (Object.keys(node.data).length > 0) expect(ours?.result?.response).toBe(stateText(node.data));
    }
    // the selected edge of each node is its metadata: the node it leads to
    const root = last.nodes['0'] as RawNode;
    const rootTarget = (last.edges[String(root.selected_edge)] as RawEdge).target;
    expect(draft.tree.nodes.n0?.metadata.selected_edge).toBe(`n${rootTarget}`);
  });

  it('answers with the highest-Q path of the final tree', () => {
    const log = read(TEN);
    const draft = parseOne(log);
    const last = log.logs[9] as RawLog['logs'][number];
    const edges = Object.values(last.edges);
    let at = 0;
    for (;;) {
      const visited = edges.filter((e) => e.source === at && draft.tree.nodes[`n${e.target}`]?.status === 'completed');
      if (visited.length === 0) break;
      at = visited.reduce((a, b) => ((b.data.Q as number) > (a.data.Q as number) ? b : a)).target;
    }
    expect(at).not.toBe(0);
    expect(draft.tree.bestNodeId).toBe(`n${at}`);
    expect(draft.tree.output).toBe(stateText((last.nodes[String(at)] as RawNode).data));
    expect(draft.tree.success).toBe(true);
    expect(draft.tree.verified).toBeNull();
  });

  it('reads the library’s default edge data (no action): the thought names the node, the fast rewards are scores', () => {
    const log = read(DEFAULT_3);
    const draft = parseOne(log);
    expect(timelineSteps(draft.events)).toHaveLength(3);
    const first = log.logs[0] as RawLog['logs'][number];
    for (const edge of Object.values(first.edges)) {
      expect(edge.data.action).toBeUndefined();
      const node = draft.tree.nodes[`n${edge.target}`];
      expect(node?.branch?.thought).toBe(`node ${edge.target}`);
    }
    // an unvisited child's edge carries the fast reward details (intuition, self_eval): named scores
    const unvisited = Object.values(draft.tree.nodes).find((n) => n.status === 'pending');
    expect(unvisited?.scores).toEqual(expect.objectContaining({ intuition: expect.any(Number) }));
    expect(unvisited?.scores.self_eval).toEqual(expect.any(Number));
  });

  it('takes the log’s own visit count (N) and UCT when the edges carry them', () => {
    const log = read(DEFAULT_3);
    for (const snap of log.logs) {
      for (const edge of Object.values(snap.edges)) Object.assign(edge.data, { N: 42, UCT: 1.5 });
    }
    const draft = parseOne(log);
    const child = draft.tree.nodes.n1;
    expect(child?.mcts).toEqual({ q: expect.any(Number), n: 42, uct: 1.5 });
    expect(child?.scores.N).toBeUndefined();
    const started = draft.events[0];
    expect(started?.type === 'run.started' && started.payload.external?.config.visits).toBe("the log's own count");
  });

  it('reads nodes and edges given as arrays, and keeps a log id that is not the node’s number in metadata', () => {
    const log = read(DEFAULT_3);
    const shifted = {
      logs: log.logs.map((snap) => ({
        nodes: Object.values(snap.nodes).map((n) => ({ ...n, id: n.id + 100 })),
        edges: Object.values(snap.edges).map((e) => ({ ...e, source: e.source + 100, target: e.target + 100 })),
      })),
    };
    const draft = parseOne(shifted);
    const plain = parseOne(read(DEFAULT_3));
    expect(Object.keys(draft.tree.nodes)).toEqual(Object.keys(plain.tree.nodes));
    expect(draft.tree.nodes.n0?.metadata.log_id).toBe('100');
    expect(draft.tree.nodes.n4?.metadata.log_id).toBe('104');
    expect(draft.tree.nodes.n4?.branch?.thought).toBe('node 104');
    expect(plain.tree.nodes.n4?.metadata.log_id).toBeUndefined();
    expect(draft.tree.nodes.n4?.mcts).toEqual(plain.tree.nodes.n4?.mcts);
  });

  it('emits only what changed: an iteration that revisits a path does not annotate the rest again', () => {
    const { events } = parseOne(read(TEN));
    const ends = timelineSteps(events);
    // iteration 4 follows iteration 3's path again: a few nodes change, not all 16
    const step4 = events.slice(ends[2], ends[3]);
    const annotated = step4.filter((e) => e.type === 'node.annotated');
    expect(annotated.length).toBeGreaterThan(0);
    expect(annotated.length).toBeLessThan(8);
  });

  it('refuses a broken log and names the place', () => {
    const noLogs = parseLlmReasonersLog({ logs: [] });
    expect(noLogs).toEqual({ ok: false, error: expect.stringContaining('logs: the log has no snapshots') });

    const dangling = read(DEFAULT_3);
    (dangling.logs[1]?.edges['0'] as RawEdge).target = 99;
    expect(parseLlmReasonersLog(dangling)).toEqual({
      ok: false,
      error: expect.stringContaining('logs[1].edges["0"].target: no node 99 in this snapshot'),
    });

    const moved = read(DEFAULT_3);
    const snap = moved.logs[1] as RawLog['logs'][number];
    const edge = Object.values(snap.edges).find((e) => e.target === 4) as RawEdge;
    edge.source = 2;
    expect(parseLlmReasonersLog(moved)).toEqual({
      ok: false,
      error: expect.stringContaining('node 4 moves from parent'),
    });

    const badSelected = read(DEFAULT_3);
    (badSelected.logs[0]?.nodes['0'] as RawNode).selected_edge = 1000;
    expect(parseLlmReasonersLog(badSelected)).toEqual({
      ok: false,
      error: expect.stringContaining('logs[0].nodes["0"].selected_edge: 1000 is not an edge out of node 0'),
    });

    const long = read(DEFAULT_3);
    (long.logs[2]?.nodes['1'] as RawNode).data = { state: 'x'.repeat(FIELD_CAPS.thought + 1) };
    expect(parseLlmReasonersLog(long)).toEqual({
      ok: false,
      error: expect.stringContaining('logs[2].nodes.1.data.state: 100,001 characters, over the 100,000-character cap'),
    });

    // an edge's data that is not a number is the node's metadata, held to the contract's caps
    const wide = read(DEFAULT_3);
    const noted = Object.values(wide.logs[2]!.edges)[0]!;
    noted.data = {
      ...(noted.data as object),
      ...Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`note${i}`, 'x'])),
    };
    expect(parseLlmReasonersLog(wide)).toEqual({
      ok: false,
      error: expect.stringContaining("keys, over the 64-key cap on a node's metadata"),
    });
  });
});
