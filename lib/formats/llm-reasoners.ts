/**
 * The llm-reasoners tree log (maitrix-org/llm-reasoners, reasoners/visualization: the JSON its VisualizerClient
 * posts, `{"logs": [snapshot, ...]}`): one snapshot of the whole MCTS tree after each iteration (TreeLog
 * .from_mcts_results). A snapshot has `nodes` {id: {id, data, selected_edge}} and `edges` {id: {id, source, target,
 * data}} (objects keyed by id, or arrays). A node's data is its state as a dict ({} before MCTS visits it: its state
 * is computed only then); an edge's data is about its target: Q, reward and the reward details (fast ones while the
 * target is unvisited), and `action` where the program's own edge factory adds it. A node's selected_edge follows
 * the iteration's trace where the search kept traces, else points to its child of highest Q. Node ids are stable
 * across snapshots; edge ids are renumbered in each.
 *
 * parseLlmReasonersLog turns the log into one run: real ExplorationEvents, each folded with reduce as it is made.
 * - run.started: task label 'llm-reasoners', `external` {config: what the log tells (algorithm, iterations, nodes,
 *   depth, where visits and the answer come from), commands: [] (a log takes no steering)}; the engine's config is
 *   only the defaults. The goal is the root's state as text (the log has no goal of its own). Then the root node.
 * - One search step per iteration (the timeline counts a step per node.started, lib/store/timeline.ts): node.started
 *   on the node the iteration selected (the deepest node of its path that existed before it); node.completed for each
 *   node visited for the first time (on the path, or with a state now), its result the state as text; node.created
 *   for each new node, under its parent (in the log's edge order), then node.expanded of that parent; node.expanded
 *   with no children closes a step that grew nothing (a terminal or depth-limit node selected again).
 * - node.annotated, only for what changed since the last iteration: mcts {q: the edge's Q, n, uct: the edge's UCT
 *   when the log has one}, named scores (every other number of the edge's data: reward, intuition, self_eval, ...)
 *   and metadata (its other values, e.g. goal_reached, and `selected_edge`: the node id its selected edge leads to).
 *   n is the log's own count when the edge's data has one (N, visits, n_visits, visit_count), else the iterations
 *   whose selected path holds the node. The root has no edge: its q is null, its n the iterations.
 * - The iteration's path is the chain of selected edges from the root. Past the trace's end a selected edge points to
 *   the child of highest Q, so the chain is cut below the deepest depth at which any node ever has a state (MCTS
 *   expands a node at its depth limit, but never visits those children): the depth limit, read from the log.
 * - run.finished: the log does not say which output strategy the search used, so the answer is the highest-Q path of
 *   the final tree (from the root, the visited child of highest Q, down to a node with none), as the library's own
 *   visualizer marks it; output = its last node's state. success = there is such a node; verified = null (nothing
 *   checks it); reason node-limit (MCTS stops after its iterations).
 * The log has no times: every event gets the import time. A node's thought is its action where the log gives one
 * (edge or node data `action`), else "node <its id in the log>" (the state arrives only when it is visited: see the
 * result). Node ids are the engine's (n0, n1, ... in creation order); a node whose log id differs from its number
 * keeps it in metadata `log_id`. Nodes never leave an MCTS tree: one missing from a later snapshot keeps its last
 * statistics.
 * Pure: no I/O. Not responsible for storing (lib/server/imports.ts).
 */
import { z } from 'zod';
import { MAX_GOAL_CHARS } from '../contract/run';
import { type JsonValue, MAX_METADATA_KEY_CHARS, type MctsStats, metadataCapProblem } from '../contract/vocabulary';
import { DEFAULT_TOT_CONFIG, foldingLog, nextNodeId } from '../engine/index';
import { describeIssues } from './export';
import { checkJsonStringCaps, FIELD_CAPS } from './field-caps';
import type { ImportedRunDraft } from './tot-log';

export const LLM_REASONERS_TASK_ID = 'llm-reasoners';
export const LLM_REASONERS_DEFAULT_MODEL = 'unknown';
/** Iterations a log may hold, nodes a snapshot may hold, and nodes summed over all snapshots (the replay's work). */
export const LLM_REASONERS_CAPS = { iterations: 10_000, nodesPerSnapshot: 50_000, nodesInAll: 2_000_000 } as const;
/** Longest name of a named score (the contract's). */
const MAX_SCORE_NAME = 100;
/** Edge data keys that are the MCTS statistics rather than named scores. */
const Q_KEY = 'Q';
const VISIT_KEYS = ['N', 'visits', 'n_visits', 'visit_count'] as const;
const UCT_KEYS = ['UCT', 'uct'] as const;
const ACTION_KEY = 'action';
const STATS_KEYS = new Set<string>([Q_KEY, ...VISIT_KEYS, ...UCT_KEYS, ACTION_KEY]);

const logId = z.union([z.number().int(), z.string().min(1).max(100)]);
/** A node's or edge's data: any JSON object (checked as one without a pass over its keys: a log holds many). */
const data = z
  .custom<Record<string, unknown>>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), {
    error: 'expected an object',
  })
  .nullish();
const nodeSchema = z.looseObject({ id: logId, data, selected_edge: logId.nullish() });
const edgeSchema = z.looseObject({ id: logId, source: logId, target: logId, data });
const snapshotSchema = z.looseObject({
  nodes: z.union([z.record(z.string(), nodeSchema), z.array(nodeSchema)]),
  edges: z.union([z.record(z.string(), edgeSchema), z.array(edgeSchema)]),
});
export const llmReasonersLogSchema = z.looseObject({
  logs: z
    .array(snapshotSchema)
    .min(1, { error: 'the log has no snapshots' })
    .max(LLM_REASONERS_CAPS.iterations, {
      error: `more than ${LLM_REASONERS_CAPS.iterations.toLocaleString('en-US')} iterations`,
    }),
});
export type LlmReasonersLog = z.infer<typeof llmReasonersLogSchema>;

export interface LlmReasonersOptions {
  /** The model that wrote the log (the file does not say); default 'unknown'. */
  modelId?: string;
  /** Milliseconds since the epoch for the events and the run's creation; default now. */
  now?: number;
}

/** The run to store: an ImportedRunDraft whose source says what the log held. */
export type LlmReasonersDraft = Omit<ImportedRunDraft, 'source'> & {
  source: { iterations: number; nodes: number; visits: 'counted' | 'logged'; depthLimit: number | null };
};

export type LlmReasonersParse = { ok: true; runs: LlmReasonersDraft[] } | { ok: false; error: string };

class LogError extends Error {}

/** True when a parsed JSON value looks like an llm-reasoners tree log: an object with a `logs` array. */
export function looksLikeLlmReasonersLog(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Array.isArray((value as { logs?: unknown }).logs) &&
    !('format' in value)
  );
}

interface EdgeInfo {
  target: string;
  data: Record<string, unknown>;
}

/** One snapshot, checked and indexed by the log's node ids (as strings). */
interface Snapshot {
  root: string;
  /** Node id -> its data and the target of its selected edge (null: none). */
  nodes: Map<string, { data: Record<string, unknown>; selected: string | null }>;
  /** Node id -> its out edges in the log's order. */
  children: Map<string, EdgeInfo[]>;
  /** Node id -> the edge into it. */
  inEdge: Map<string, EdgeInfo & { source: string }>;
}

const key = (id: number | string) => String(id);
const quoted = (id: string) => JSON.stringify(id);

function entriesOf<T extends { id: number | string }>(items: Record<string, T> | T[]): [string, T][] {
  return Array.isArray(items) ? items.map((item, i) => [String(i), item]) : Object.entries(items);
}

function indexSnapshot(raw: LlmReasonersLog['logs'][number], at: string): Snapshot {
  const nodes: Snapshot['nodes'] = new Map();
  const nodeEntries = entriesOf(raw.nodes);
  if (nodeEntries.length > LLM_REASONERS_CAPS.nodesPerSnapshot) {
    throw new LogError(`${at}.nodes: more than ${LLM_REASONERS_CAPS.nodesPerSnapshot.toLocaleString('en-US')} nodes`);
  }
  for (const [k, node] of nodeEntries) {
    const id = key(node.id);
    if (nodes.has(id)) throw new LogError(`${at}.nodes[${quoted(k)}]: node ${id} appears twice`);
    nodes.set(id, { data: node.data ?? {}, selected: null });
  }
  const children: Snapshot['children'] = new Map();
  const inEdge: Snapshot['inEdge'] = new Map();
  const edgesById = new Map<string, { source: string; target: string }>();
  for (const [k, edge] of entriesOf(raw.edges)) {
    const here = `${at}.edges[${quoted(k)}]`;
    const source = key(edge.source);
    const target = key(edge.target);
    if (!nodes.has(source)) throw new LogError(`${here}.source: no node ${source} in this snapshot`);
    if (!nodes.has(target)) throw new LogError(`${here}.target: no node ${target} in this snapshot`);
    if (inEdge.has(target)) throw new LogError(`${here}.target: node ${target} has a second parent`);
    const info = { source, target, data: edge.data ?? {} };
    inEdge.set(target, info);
    edgesById.set(key(edge.id), { source, target });
    const list = children.get(source);
    if (list) list.push(info);
    else children.set(source, [info]);
  }
  const roots = [...nodes.keys()].filter((id) => !inEdge.has(id));
  if (roots.length !== 1) {
    throw new LogError(`${at}: ${roots.length === 0 ? 'no root (every node has a parent)' : `${roots.length} roots`}`);
  }
  const root = roots[0] as string;
  // every node hangs from the root (an edge loop would leave some out)
  let reached = 0;
  const stack = [root];
  while (stack.length > 0) {
    reached += 1;
    for (const edge of children.get(stack.pop() as string) ?? []) stack.push(edge.target);
    if (reached > nodes.size) break;
  }
  if (reached !== nodes.size) throw new LogError(`${at}: some nodes are not reachable from the root ${root}`);
  for (const [k, node] of nodeEntries) {
    if (node.selected_edge == null) continue;
    const edge = edgesById.get(key(node.selected_edge));
    const id = key(node.id);
    if (!edge || edge.source !== id) {
      throw new LogError(
        `${at}.nodes[${quoted(k)}].selected_edge: ${key(node.selected_edge)} is not an edge out of node ${id}`,
      );
    }
    (nodes.get(id) as { selected: string | null }).selected = edge.target;
  }
  return { root, nodes, children, inEdge };
}

function isEmpty(data: Record<string, unknown>): boolean {
  for (const _ in data) return false;
  return true;
}

function clip(text: string, cap: number): string {
  return text.length <= cap ? text : `${text.slice(0, cap - 40)}… (cut: ${text.length} characters in the log)`;
}

/** A node's state (its data) as text: a lone string as it is, else one "key: value" line per field. */
export function stateText(data: Record<string, unknown>): string {
  const entries = Object.entries(data);
  if (entries.length === 1 && typeof entries[0]?.[1] === 'string') return clip(entries[0][1], FIELD_CAPS.thought);
  const text = entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n');
  return clip(text, FIELD_CAPS.thought);
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The log's own visit count in an edge's data, when it has one. */
function loggedVisits(data: Record<string, unknown>): number | null {
  for (const name of VISIT_KEYS) {
    const n = finite(data[name]);
    if (n !== null && Number.isInteger(n) && n >= 0) return n;
  }
  return null;
}

/**
 * The depth MCTS visits nodes down to: the deepest depth at which any non-root node has a state in any snapshot;
 * null when no node has one (a data factory that logs nothing: the paths are then not cut).
 */
function depthLimit(snapshots: readonly Snapshot[]): number | null {
  let deepest: number | null = null;
  for (const snap of snapshots) {
    const stack: [string, number][] = [[snap.root, 0]];
    while (stack.length > 0) {
      const [id, depth] = stack.pop() as [string, number];
      if (depth > 0 && !isEmpty(snap.nodes.get(id)?.data ?? {})) deepest = Math.max(deepest ?? 0, depth);
      for (const edge of snap.children.get(id) ?? []) stack.push([edge.target, depth + 1]);
    }
  }
  return deepest;
}

/** The iteration's selected path: the chain of selected edges from the root, no deeper than `limit`. */
function selectedPath(snap: Snapshot, limit: number | null): string[] {
  const path = [snap.root];
  const seen = new Set(path);
  for (;;) {
    const next = snap.nodes.get(path[path.length - 1] as string)?.selected ?? null;
    if (next === null || seen.has(next) || (limit !== null && path.length > limit)) return path;
    path.push(next);
    seen.add(next);
  }
}

interface Annotation {
  mcts: MctsStats;
  scores: Record<string, number>;
  metadata: Record<string, JsonValue>;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The changes from `before` to `now` as a node.annotated payload's parts; null when nothing changed. */
function annotationDiff(before: Annotation | undefined, now: Annotation) {
  const mcts: Partial<MctsStats> = {};
  for (const field of ['q', 'n', 'uct'] as const) {
    if (!before || before.mcts[field] !== now.mcts[field]) mcts[field] = now.mcts[field] as never;
  }
  const diff = <V>(old: Record<string, V> | undefined, next: Record<string, V>) => {
    const out: Record<string, V | null> = {};
    for (const [k, v] of Object.entries(next)) if (!old || !sameJson(old[k], v)) out[k] = v;
    for (const k of Object.keys(old ?? {})) if (!(k in next)) out[k] = null;
    return Object.keys(out).length > 0 ? out : undefined;
  };
  const scores = diff(before?.scores, now.scores);
  const metadata = diff(before?.metadata, now.metadata);
  const hasMcts = Object.keys(mcts).length > 0;
  if (!hasMcts && !scores && !metadata) return null;
  return { ...(hasMcts ? { mcts } : {}), ...(scores ? { scores } : {}), ...(metadata ? { metadata } : {}) };
}

export function parseLlmReasonersLog(value: unknown, options: LlmReasonersOptions = {}): LlmReasonersParse {
  const parsed = llmReasonersLogSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: `not an llm-reasoners tree log: ${describeIssues(parsed.error)}` };
  const tooLong = checkJsonStringCaps(value, () => 'thought');
  if (tooLong) return { ok: false, error: `not a usable llm-reasoners tree log: ${tooLong}` };
  try {
    let total = 0;
    const snapshots = parsed.data.logs.map((raw, k) => {
      const snap = indexSnapshot(raw, `logs[${k}]`);
      total += snap.nodes.size;
      if (total > LLM_REASONERS_CAPS.nodesInAll) {
        throw new LogError(
          `logs: more than ${LLM_REASONERS_CAPS.nodesInAll.toLocaleString('en-US')} nodes over all snapshots`,
        );
      }
      return snap;
    });
    return { ok: true, runs: [replay(snapshots, options)] };
  } catch (error) {
    if (error instanceof LogError) return { ok: false, error: `not a usable llm-reasoners tree log: ${error.message}` };
    throw error;
  }
}

function replay(snapshots: readonly Snapshot[], options: LlmReasonersOptions): LlmReasonersDraft {
  const now = options.now ?? Date.now();
  const modelId = options.modelId?.trim() || LLM_REASONERS_DEFAULT_MODEL;
  const first = snapshots[0] as Snapshot;
  const last = snapshots[snapshots.length - 1] as Snapshot;
  const limit = depthLimit(snapshots);
  const logsVisits = snapshots.some((snap) => [...snap.inEdge.values()].some((e) => loggedVisits(e.data) !== null));
  const hasQ = snapshots.some((snap) => [...snap.inEdge.values()].some((e) => Q_KEY in e.data));

  const runId = 'llm-reasoners';
  const { tree, events, emit } = foldingLog(runId, () => now);

  const rootState = stateText(first.nodes.get(first.root)?.data ?? {});
  const goal = clip(rootState.trim() || 'an MCTS search from an llm-reasoners log', MAX_GOAL_CHARS);
  emit('run.started', {
    goal,
    taskId: LLM_REASONERS_TASK_ID,
    agentName: 'llm-reasoners',
    modelId,
    config: DEFAULT_TOT_CONFIG,
    external: {
      config: {
        source: 'llm-reasoners TreeLog (VisualizerClient JSON)',
        algorithm: hasQ ? 'MCTS' : 'tree search (no Q in the log)',
        iterations: snapshots.length,
        nodes: last.nodes.size,
        depthLimit: limit,
        visits: logsVisits ? "the log's own count" : 'iterations whose selected path holds the node',
        answer: 'the highest-Q path of the final tree',
      },
      commands: [],
    },
  });

  /** The log's node id -> ours. */
  const idOf = new Map<string, string>();
  const create = (logKey: string, parentId: string | null, edge: EdgeInfo | null, data: Record<string, unknown>) => {
    const nodeId = nextNodeId(tree);
    idOf.set(logKey, nodeId);
    const action = edge?.data[ACTION_KEY] ?? data[ACTION_KEY];
    const thought =
      parentId === null
        ? null
        : clip(
            typeof action === 'string'
              ? action
              : action !== undefined && action !== null
                ? JSON.stringify(action)
                : `node ${logKey}`,
            FIELD_CAPS.thought,
          );
    emit('node.created', {
      nodeId,
      parentId,
      branch: thought === null ? null : { thought, proposedAction: { type: 'response', content: thought } },
      score: null,
    });
    return nodeId;
  };
  create(first.root, null, null, first.nodes.get(first.root)?.data ?? {});

  const visits = new Map<string, number>();
  const annotations = new Map<string, Annotation>();
  const parentOf = new Map<string, string>();
  const complete = (nodeId: string, nodeData: Record<string, unknown>) => {
    const response = isEmpty(nodeData) ? '(the log has no state for it)' : stateText(nodeData);
    emit('node.completed', { nodeId, result: { response, iterations: 0, isAnswer: false } });
  };

  snapshots.forEach((snap, k) => {
    const at = `logs[${k}]`;
    if (snap.root !== first.root) throw new LogError(`${at}: the root is node ${snap.root}, not ${first.root}`);
    const path = selectedPath(snap, limit);
    const onPath = new Set(path);
    for (const id of path) visits.set(id, (visits.get(id) ?? 0) + 1);

    // the step: the node this iteration selected (its path's deepest node that existed before it)
    const selectedKey = [...path].reverse().find((id) => idOf.has(id)) as string;
    const selectedId = idOf.get(selectedKey) as string;
    emit('node.started', { nodeId: selectedId, mode: 'expand' });
    if (tree.inFlight?.previousStatus === 'pending') complete(selectedId, snap.nodes.get(selectedKey)?.data ?? {});

    // the tree top-down, in the log's order: first visits, new nodes under their parents
    const order: string[] = [];
    const stack = [snap.root];
    while (stack.length > 0) {
      const logKey = stack.pop() as string;
      order.push(logKey);
      const nodeId = idOf.get(logKey) as string;
      const nodeData = snap.nodes.get(logKey)?.data ?? {};
      if (tree.nodes[nodeId]?.status === 'pending' && (onPath.has(logKey) || !isEmpty(nodeData))) {
        complete(nodeId, nodeData);
      }
      const edges = snap.children.get(logKey) ?? [];
      const fresh: string[] = [];
      for (const edge of edges) {
        const known = parentOf.get(edge.target);
        if (known !== undefined && known !== logKey) {
          throw new LogError(`${at}: node ${edge.target} moves from parent ${known} to ${logKey}`);
        }
        parentOf.set(edge.target, logKey);
        if (!idOf.has(edge.target)) {
          fresh.push(create(edge.target, nodeId, edge, snap.nodes.get(edge.target)?.data ?? {}));
        }
      }
      if (fresh.length > 0) emit('node.expanded', { nodeId, childIds: fresh });
      for (let i = edges.length - 1; i >= 0; i--) stack.push((edges[i] as EdgeInfo).target);
    }
    // a step that grew nothing (a terminal or depth-limit node selected again) ends here
    if (tree.inFlight?.entry.nodeId === selectedId) emit('node.expanded', { nodeId: selectedId, childIds: [] });

    for (const logKey of order) {
      const nodeId = idOf.get(logKey) as string;
      const edgeData = snap.inEdge.get(logKey)?.data ?? {};
      const own = loggedVisits(edgeData);
      const uct = UCT_KEYS.map((name) => finite(edgeData[name])).find((v) => v !== null) ?? null;
      const scores: Record<string, number> = {};
      const metadata: Record<string, JsonValue> = {};
      for (const [name, v] of Object.entries(edgeData)) {
        if (STATS_KEYS.has(name) || v === null || v === undefined) continue;
        if (name.length > MAX_SCORE_NAME) {
          throw new LogError(`${at}: an edge into node ${logKey} has a key over ${MAX_SCORE_NAME} characters`);
        }
        const number = finite(v);
        if (number !== null) scores[name] = number;
        else metadata[name] = v as JsonValue;
      }
      const selected = snap.nodes.get(logKey)?.selected;
      if (selected != null) metadata.selected_edge = idOf.get(selected) as string;
      if (nodeId !== `n${logKey}` && logKey.length <= MAX_METADATA_KEY_CHARS) metadata.log_id = logKey;
      // the contract's caps on a node's metadata, as the ingest API and an export file are held to them
      const tooBig = metadataCapProblem(metadata);
      if (tooBig) {
        const where = tooBig.key === null ? '' : `.${tooBig.key}`;
        throw new LogError(`${at}: the metadata of node ${logKey}${where}: ${tooBig.message}`);
      }
      const current: Annotation = {
        mcts: { q: finite(edgeData[Q_KEY]), n: own ?? visits.get(logKey) ?? 0, uct },
        scores,
        metadata,
      };
      const change = annotationDiff(annotations.get(logKey), current);
      annotations.set(logKey, current);
      if (change) emit('node.annotated', { nodeId, ...change });
    }
  });

  // the answer: from the root, the visited child of highest Q (the earlier one on a tie), down to a node with none
  let at = last.root;
  for (;;) {
    let best: { key: string; q: number } | null = null;
    for (const edge of last.children.get(at) ?? []) {
      if (tree.nodes[idOf.get(edge.target) as string]?.status !== 'completed') continue;
      const q = finite(edge.data[Q_KEY]) ?? -Infinity;
      if (best === null || q > best.q) best = { key: edge.target, q };
    }
    if (best === null) break;
    at = best.key;
  }
  const bestNode = at === last.root ? null : (tree.nodes[idOf.get(at) as string] ?? null);
  emit('run.finished', {
    reason: 'node-limit',
    detail:
      `MCTS stops after its set number of iterations: this llm-reasoners log's ` +
      `${snapshots.length} iteration${snapshots.length === 1 ? '' : 's'} replayed, ` +
      `${last.nodes.size} nodes; the answer is the highest-Q path of the final tree (the log does not say which ` +
      `output strategy the search used); visits ${logsVisits ? 'as the log counts them' : 'counted from each iteration’s selected path'}`,
    bestNodeId: bestNode?.id ?? null,
    output: bestNode?.result?.response ?? '',
    answerSource: bestNode ? 'node' : 'none',
    success: bestNode !== null,
    verified: null,
  });

  return {
    taskId: LLM_REASONERS_TASK_ID,
    goal,
    modelId,
    modelLabel: `${modelId} (llm-reasoners log)`,
    modelSettings: { provider: 'llm-reasoners', model: modelId },
    config: DEFAULT_TOT_CONFIG,
    seed: null,
    createdAt: new Date(now),
    events,
    tree,
    source: {
      iterations: snapshots.length,
      nodes: last.nodes.size,
      visits: logsVisits ? 'logged' : 'counted',
      depthLimit: limit,
    },
  };
}
