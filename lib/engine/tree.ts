/**
 * reduce(tree, event) -> tree: the one function that turns events into a search tree, used by the engine,
 * the server, the browser and the tests. fold(events) starts from nothing.
 *
 * Deterministic and free of I/O and clocks (times come from the events). For speed on runs of many thousand
 * events it updates the tree's containers in place and returns the same tree; node objects are replaced,
 * never mutated, so a React selector reading one node sees a new object exactly when that node changed.
 * Callers that need an older tree keep a copy (snapshotTree, or cloneTree for a deep one).
 * Not responsible for deciding anything: the executor decides, the events record, reduce folds.
 */
import { DEFAULT_TOT_CONFIG, mctsSettings } from './config';
import { backUp, mctsBestNode } from './mcts';
import type { EventOf, EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import type { CostedUsage, FrontierEntry, ThoughtNode, ThoughtTree } from './types';
import type { ToTStats } from '../contract/vocabulary';
import type { BreakpointHit } from '../contract/breakpoints';
import { endedUnanswered, type RunEnding } from '../contract/steering';

/**
 * The shape of the tree reduce() builds. Bump it whenever that shape or what reduce() derives changes, so that trees
 * stored by an older version (run snapshots) are folded again from their logs instead of being served stale.
 */
export const TREE_FORMAT = 9;

export function emptyUsage(): CostedUsage {
  return { inputTokens: 0, outputTokens: 0, cost: 0, unpricedCalls: 0 };
}

export function emptyStats(): ToTStats {
  return {
    totalNodes: 0,
    exploredNodes: 0,
    prunedNodes: 0,
    steeredPrunes: 0,
    searchPrunes: 0,
    maxDepthReached: 0,
    backtrackCount: 0,
    llmCalls: 0,
    modelCalls: 0,
    tokenUsage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    cost: 0,
    unpricedCalls: 0,
    retries: 0,
  };
}

export function createEmptyTree(runId = ''): ThoughtTree {
  return {
    runId,
    goal: '',
    taskId: '',
    agentName: '',
    modelId: '',
    config: { ...DEFAULT_TOT_CONFIG },
    status: 'running',
    resumeStatus: null,
    failure: null,
    rootId: null,
    nodes: {},
    nodeOrder: [],
    frontier: {},
    nextFrontierOrder: 0,
    deadEnds: [],
    inFlight: null,
    batch: null,
    stats: emptyStats(),
    mcts: null,
    usage: emptyUsage(),
    terminatedBy: null,
    stepping: false,
    breakpoints: [],
    breakpointHit: null,
    modelFailureStreak: 0,
    lastModelError: null,
    exploredThoughts: [],
    bestNodeId: null,
    output: null,
    success: null,
    verified: null,
    answerSource: null,
    finishReason: null,
    finishDetail: null,
    external: null,
    commands: [],
    startedAt: null,
    finishedAt: null,
    lastSeq: 0,
  };
}

/** The id the next created node gets; deterministic so a resumed run names nodes as the original would. */
export function nextNodeId(tree: ThoughtTree): string {
  return `n${tree.nodeOrder.length}`;
}

export function cloneTree(tree: ThoughtTree): ThoughtTree {
  return structuredClone(tree);
}

/**
 * A copy that later reduce() calls on either tree cannot change: only the containers reduce() mutates in place
 * are copied (the node map, the lists, the frontier map, stats and usage); node objects, frontier entries and
 * everything else reduce() only ever replaces are shared. O(nodes) pointer copies instead of a deep clone: what
 * time travel keeps per snapshot. Keep it in step with reduce(): a container mutated in place but not copied
 * here would leak later events into old snapshots (snapshot tests in lib/store fold every event type to catch it).
 */
export function snapshotTree(tree: ThoughtTree): ThoughtTree {
  return {
    ...tree,
    nodes: copyNodes(tree.nodes, tree.nodeOrder),
    nodeOrder: tree.nodeOrder.slice(),
    frontier: { ...tree.frontier },
    deadEnds: tree.deadEnds.slice(),
    exploredThoughts: tree.exploredThoughts.slice(),
    commands: tree.commands.slice(),
    stats: { ...tree.stats, tokenUsage: { ...tree.stats.tokenUsage } },
    usage: { ...tree.usage },
  };
}

/** The node map copied by walking nodeOrder (every node is in it): several times faster than a spread of a map
 * of thousands of keys, which V8 keeps in dictionary mode. */
function copyNodes(nodes: ThoughtTree['nodes'], order: readonly string[]): ThoughtTree['nodes'] {
  const copy: ThoughtTree['nodes'] = {};
  for (const id of order) copy[id] = nodes[id] as ThoughtNode;
  return copy;
}

export function fold(events: Iterable<ExplorationEvent>, from?: ThoughtTree): ThoughtTree {
  let tree = from ?? createEmptyTree();
  for (const event of events) tree = reduce(tree, event);
  return tree;
}

/**
 * A log written by a program rather than a search (a fork's seed, a foreign log's replay): `emit` gives each event
 * the next seq and the clock's time, folds it at once (so the writer reads the tree as it stands, e.g. nextNodeId)
 * and keeps it in `events`.
 */
export function foldingLog(runId: string, clock: () => number) {
  const tree = createEmptyTree(runId);
  const events: ExplorationEvent[] = [];
  const emit = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]): void => {
    const event = { runId, seq: tree.lastSeq + 1, ts: clock(), type, payload } as ExplorationEvent;
    reduce(tree, event);
    events.push(event);
  };
  return { tree, events, emit };
}

export class EventOrderError extends Error {
  constructor(expected: number, got: number) {
    super(`event seq ${got} cannot follow seq ${expected - 1} (expected ${expected})`);
    this.name = 'EventOrderError';
  }
}

/** Applies one event. Events must arrive in seq order without gaps; an older seq is ignored (idempotent). */
export function reduce(tree: ThoughtTree, event: ExplorationEvent): ThoughtTree {
  if (event.seq <= tree.lastSeq) return tree;
  if (event.seq !== tree.lastSeq + 1) throw new EventOrderError(tree.lastSeq + 1, event.seq);
  tree.lastSeq = event.seq;
  if (!tree.runId) tree.runId = event.runId;
  APPLY[event.type](tree, event as never);
  return tree;
}

type Appliers = { [K in ExplorationEvent['type']]: (tree: ThoughtTree, event: EventOf<K>) => void };

const APPLY: Appliers = {
  'run.queued'(tree) {
    holdStatus(tree);
    tree.status = 'queued';
  },

  'run.started'(tree, { payload, ts }) {
    tree.goal = payload.goal;
    tree.taskId = payload.taskId;
    tree.agentName = payload.agentName;
    tree.modelId = payload.modelId;
    tree.config = { ...payload.config };
    tree.external = payload.external
      ? { config: payload.external.config, commands: [...payload.external.commands] }
      : null;
    tree.status = 'running';
    tree.resumeStatus = null;
    tree.startedAt = ts;
  },

  'node.created'(tree, { payload, seq }) {
    const parent = payload.parentId ? tree.nodes[payload.parentId] : undefined;
    const depth = parent ? parent.depth + 1 : 0;
    const node = newNode({
      id: payload.nodeId,
      parentId: payload.parentId,
      depth,
      branch: payload.branch,
      score: payload.score,
      cumulativeScore: (parent?.cumulativeScore ?? 0) + (payload.score?.composite ?? 0),
      // The root is the goal itself: nothing to run, ready to be expanded.
      status: parent ? 'pending' : 'completed',
      createdSeq: seq,
    });
    tree.nodes[node.id] = node;
    tree.nodeOrder.push(node.id);
    if (parent) {
      replaceNode(tree, parent.id, { childIds: [...parent.childIds, node.id] });
      tree.stats.totalNodes += 1;
      tree.stats.maxDepthReached = Math.max(tree.stats.maxDepthReached, depth);
    } else {
      tree.rootId = node.id;
    }
  },

  'branches.generated'() {
    // Recorded for the inspector and the event log; the tree changes when candidates are scored and created.
  },

  'branch.scored'() {
    // As above: the score reaches the tree with node.created or candidate.dropped.
  },

  'candidate.dropped'(tree, { payload, seq }) {
    const parent = tree.nodes[payload.nodeId];
    if (parent) {
      replaceNode(tree, parent.id, {
        dropped: [...parent.dropped, { branch: payload.branch, score: payload.score, reason: payload.reason, seq }],
      });
    }
    tree.stats.prunedNodes += 1;
  },

  'node.restored'(tree, { payload, seq }) {
    const parent = tree.nodes[payload.parentId];
    if (!parent) return;
    const depth = parent.depth + 1;
    tree.nodes[payload.nodeId] = newNode({
      id: payload.nodeId,
      parentId: payload.parentId,
      depth,
      branch: payload.branch,
      score: payload.score,
      cumulativeScore: parent.cumulativeScore + (payload.score?.composite ?? 0),
      status: payload.status,
      result: payload.result,
      verification: payload.verification,
      createdSeq: seq,
      finishedSeq: payload.status === 'completed' ? seq : null,
    });
    tree.nodeOrder.push(payload.nodeId);
    replaceNode(tree, parent.id, {
      childIds: [...parent.childIds, payload.nodeId],
      expansions: Math.max(parent.expansions, 1),
    });
    tree.stats.totalNodes += 1;
    tree.stats.maxDepthReached = Math.max(tree.stats.maxDepthReached, depth);
    if (payload.status === 'completed' && payload.branch) tree.exploredThoughts.push(payload.branch.thought);
  },

  'node.queued'(tree, { payload }) {
    // A node sits in the frontier at most once: a new request replaces an older one.
    tree.frontier[payload.nodeId] = {
      nodeId: payload.nodeId,
      mode: payload.mode,
      urgent: payload.urgent,
      order: tree.nextFrontierOrder++,
    };
  },

  'node.started'(tree, { payload, seq }) {
    const node = tree.nodes[payload.nodeId];
    const entry: FrontierEntry = tree.frontier[payload.nodeId] ?? {
      nodeId: payload.nodeId,
      mode: payload.mode,
      urgent: true,
      order: tree.nextFrontierOrder++,
    };
    delete tree.frontier[payload.nodeId];
    if (payload.batch) tree.batch = { startSeq: seq, nodeIds: payload.batch };
    if (!node) return;
    tree.inFlight = { entry, previousStatus: node.status };
    replaceNode(tree, node.id, {
      status: 'running',
      // when it ran; a node only ever expanded (an external search's, an imported log's) started when first expanded
      startedSeq: payload.mode === 'execute' ? seq : (node.startedSeq ?? seq),
    });
  },

  'model.called'(tree, { payload, seq }) {
    const tokens = payload.usage;
    tree.modelFailureStreak = payload.error === null ? 0 : tree.modelFailureStreak + 1;
    if (payload.error !== null) tree.lastModelError = payload.error;
    tree.stats.modelCalls += 1;
    if (payload.purpose !== 'execute') tree.stats.llmCalls += 1;
    if (payload.attempts && payload.attempts.length > 1) tree.stats.retries += payload.attempts.length - 1;
    tree.stats.tokenUsage.inputTokens += tokens.inputTokens;
    tree.stats.tokenUsage.outputTokens += tokens.outputTokens;
    tree.stats.tokenUsage.totalTokens += tokens.inputTokens + tokens.outputTokens;
    addUsage(tree.usage, payload.usage, payload.cost);
    tree.stats.cost = tree.usage.cost;
    tree.stats.unpricedCalls = tree.usage.unpricedCalls;
    const node = payload.nodeId ? tree.nodes[payload.nodeId] : undefined;
    if (node) {
      const usage = { ...node.usage };
      addUsage(usage, payload.usage, payload.cost);
      replaceNode(tree, node.id, {
        usage,
        modelCallSeqs: [...node.modelCallSeqs, seq],
        modelMs: node.modelMs + payload.latencyMs,
      });
    }
  },

  'node.completed'(tree, { payload, seq }) {
    const node = tree.nodes[payload.nodeId];
    tree.inFlight = null;
    if (!node) return;
    noteMctsRun(tree, node.id);
    tree.stats.exploredNodes += 1;
    if (node.branch) tree.exploredThoughts.push(node.branch.thought);
    replaceNode(tree, node.id, { status: 'completed', result: payload.result, finishedSeq: seq });
    if ((node.score?.confidence ?? 0) >= tree.config.terminationConfidence) tree.terminatedBy = node.id;
  },

  'node.verified'(tree, { payload }) {
    const node = tree.nodes[payload.nodeId];
    if (node) replaceNode(tree, node.id, { verification: { passed: payload.passed, trace: payload.trace } });
  },

  'node.expanded'(tree, { payload }) {
    const node = tree.nodes[payload.nodeId];
    const previous = tree.inFlight?.entry.nodeId === payload.nodeId ? tree.inFlight.previousStatus : null;
    tree.inFlight = null;
    if (!node) return;
    replaceNode(tree, node.id, {
      expansions: node.expansions + 1,
      status: previous ?? (node.status === 'running' ? 'completed' : node.status),
    });
  },

  'node.failed'(tree, { payload, seq }) {
    const node = tree.nodes[payload.nodeId];
    const wasExecution = tree.inFlight?.entry.nodeId === payload.nodeId && tree.inFlight.entry.mode === 'execute';
    tree.inFlight = null;
    if (!node) return;
    if (wasExecution) {
      noteMctsRun(tree, node.id);
      tree.stats.exploredNodes += 1;
      if (node.branch) tree.exploredThoughts.push(node.branch.thought);
    }
    noteDeadEnd(tree, node);
    replaceNode(tree, node.id, { status: 'failed', failureReason: payload.reason, finishedSeq: seq });
    // a node that failed its verification does not end the search, however confident it was
    if (tree.terminatedBy === node.id) tree.terminatedBy = null;
  },

  backtrack(tree) {
    tree.stats.backtrackCount += 1;
  },

  'node.annotated'(tree, { payload }) {
    const node = tree.nodes[payload.nodeId];
    if (!node) return;
    const patch: Partial<ThoughtNode> = {};
    if (payload.scores) {
      const scores = { ...node.scores };
      for (const [name, value] of Object.entries(payload.scores)) {
        if (value === null) delete scores[name];
        else scores[name] = value;
      }
      patch.scores = scores;
    }
    if (payload.metadata) {
      const metadata = { ...node.metadata };
      for (const [key, value] of Object.entries(payload.metadata)) {
        if (value === null) delete metadata[key];
        else metadata[key] = value;
      }
      patch.metadata = metadata;
    }
    if (payload.mcts) patch.mcts = { q: null, n: null, uct: null, ...node.mcts, ...payload.mcts };
    replaceNode(tree, node.id, patch);
  },

  'mcts.selected'(tree, { payload }) {
    tree.mcts = {
      iterations: payload.iteration,
      current: { iteration: payload.iteration, leafId: payload.leafId, tipId: payload.leafId, executed: 0 },
      solvedBy: tree.mcts?.solvedBy ?? null,
    };
    for (const hop of payload.hops) {
      for (const candidate of hop.candidates) {
        const node = tree.nodes[candidate.nodeId];
        if (node) replaceNode(tree, node.id, { mcts: { q: null, n: null, ...node.mcts, uct: candidate.uct } });
      }
    }
  },

  'mcts.backpropagated'(tree, { payload }) {
    const { value } = payload;
    if (value !== null) {
      const rule = mctsSettings(tree.config).mctsBackup;
      for (const id of payload.path) {
        const node = tree.nodes[id];
        if (node) replaceNode(tree, id, { mcts: backUp(node.mcts, value, rule) });
      }
    }
    const solved = payload.source === 'verified' && tree.nodes[payload.nodeId]?.result?.isAnswer === true;
    tree.mcts = {
      iterations: tree.mcts?.iterations ?? payload.iteration,
      current: null,
      solvedBy: tree.mcts?.solvedBy ?? (solved ? payload.nodeId : null),
    };
  },

  'node.pruned'(tree, { payload }) {
    pruneSubtree(tree, payload.nodeId, { prunedBy: null, pruneReason: payload.reason }, 'searchPrunes');
  },

  'steer.prune'(tree, { payload }) {
    pruneSubtree(tree, payload.nodeId, { prunedBy: payload.actor, pruneReason: null }, 'steeredPrunes');
  },

  'steer.requested'(tree, { payload, seq, ts }) {
    tree.commands = [
      ...tree.commands,
      {
        seq,
        kind: payload.kind,
        nodeId: payload.nodeId,
        actor: payload.actor,
        outcome: 'requested',
        reason: null,
        ackSeq: null,
        requestedAt: ts,
        answeredAt: null,
        hit: payload.hit ?? null,
      },
    ];
    // the server asks an external search to pause at a breakpoint: the page says why once the client has paused
    if (payload.hit) stopAt(tree, payload.hit);
  },

  'steer.acked'(tree, { payload, seq, ts }) {
    const asked = tree.commands.find((command) => command.seq === payload.requestSeq);
    tree.commands = tree.commands.map((command) =>
      command.seq === payload.requestSeq
        ? { ...command, outcome: payload.outcome, reason: payload.reason, ackSeq: seq, answeredAt: ts }
        : command,
    );
    // a client that refuses a breakpoint's pause goes on running: the run is not stopped there
    const hit = tree.breakpointHit;
    if (payload.outcome === 'refused' && asked?.hit && hit && sameHit(asked.hit, hit)) tree.breakpointHit = null;
  },

  'steer.expand'() {
    // The expansion itself arrives as node.queued (urgent); this event records who asked.
  },

  'steer.pause'(tree) {
    tree.stepping = false;
    if (tree.status === 'running') tree.status = 'paused';
  },

  'steer.resume'(tree) {
    tree.stepping = false;
    tree.breakpointHit = null;
    if (tree.status === 'paused') tree.status = 'running';
  },

  'steer.step'(tree) {
    tree.stepping = true;
    tree.breakpointHit = null;
    if (tree.status === 'paused') tree.status = 'running';
  },

  'breakpoints.set'(tree, { payload }) {
    tree.breakpoints = payload.breakpoints;
  },

  'steer.abort'() {
    // run.finished follows with reason "aborted".
  },

  'run.paused'(tree, { payload }) {
    tree.stepping = false;
    if (tree.status === 'running') tree.status = 'paused';
    if (payload.reason === 'breakpoint') stopAt(tree, payload.hit);
  },

  'run.resumed'(tree) {
    rollBackInFlight(tree);
    // a log written before lifecycle events has no run.queued or run.interrupted before this: its status stands
    if (tree.status === 'queued' || tree.status === 'interrupted') tree.status = tree.resumeStatus ?? 'running';
    tree.resumeStatus = null;
  },

  'run.interrupted'(tree) {
    holdStatus(tree);
    tree.status = 'interrupted';
    endUnanswered(tree, 'interrupted');
  },

  'run.failed'(tree, { payload, ts }) {
    rollBackInFlight(tree);
    endUnanswered(tree, 'failed');
    tree.status = 'failed';
    tree.resumeStatus = null;
    tree.failure = payload.error;
    tree.finishedAt = ts;
  },

  'run.finished'(tree, { payload, ts }) {
    rollBackInFlight(tree);
    endUnanswered(tree, payload.reason === 'aborted' ? 'aborted' : 'finished');
    tree.status = 'finished';
    tree.breakpointHit = null;
    tree.resumeStatus = null;
    tree.finishReason = payload.reason;
    tree.finishDetail = payload.detail;
    tree.bestNodeId = payload.bestNodeId;
    tree.output = payload.output;
    tree.success = payload.success;
    tree.verified = payload.verified;
    tree.answerSource = payload.answerSource;
    tree.finishedAt = ts;
  },
};

/**
 * The commands an external search's client never answered end with the run (lib/contract/steering.ts): no client is
 * left to answer them, and a page or a poll must not show them waiting forever. Folded here, not written as events,
 * so every log ends its commands alike: live ones, imported ones and those stored before this rule.
 */
function endUnanswered(tree: ThoughtTree, ending: RunEnding): void {
  if (!tree.commands.some((command) => command.outcome === 'requested')) return;
  const reason = endedUnanswered(ending);
  tree.commands = tree.commands.map((command) =>
    command.outcome === 'requested' ? { ...command, outcome: 'ended', reason } : command,
  );
}

/**
 * A node as it enters the tree: what the event says, and nothing done to it yet. Exported for test support that
 * builds a tree by hand (the one place a node's empty fields are listed).
 */
export function newNode(
  fields: Pick<
    ThoughtNode,
    'id' | 'parentId' | 'depth' | 'branch' | 'score' | 'cumulativeScore' | 'status' | 'createdSeq'
  > &
    Partial<ThoughtNode>,
): ThoughtNode {
  // Written out field by field, in the order a spread of the defaults and then the fields gave (key order shows in
  // JSON): a literal V8 builds in one allocation, where a spread into it added the fields one by one.
  return {
    childIds: fields.childIds ?? [],
    prunedBy: fields.prunedBy ?? null,
    pruneReason: fields.pruneReason ?? null,
    result: fields.result ?? null,
    verification: fields.verification ?? null,
    failureReason: fields.failureReason ?? null,
    expansions: fields.expansions ?? 0,
    dropped: fields.dropped ?? [],
    usage: fields.usage ?? emptyUsage(),
    modelCallSeqs: fields.modelCallSeqs ?? [],
    modelMs: fields.modelMs ?? 0,
    startedSeq: fields.startedSeq ?? null,
    finishedSeq: fields.finishedSeq ?? null,
    scores: fields.scores ?? {},
    metadata: fields.metadata ?? {},
    mcts: fields.mcts ?? null,
    id: fields.id,
    parentId: fields.parentId,
    depth: fields.depth,
    branch: fields.branch,
    score: fields.score,
    cumulativeScore: fields.cumulativeScore,
    status: fields.status,
    createdSeq: fields.createdSeq,
  };
}

/** A node an MCTS iteration ran becomes the node its value is read from. */
function noteMctsRun(tree: ThoughtTree, nodeId: string): void {
  const current = tree.mcts?.current;
  if (!tree.mcts || !current) return;
  tree.mcts = { ...tree.mcts, current: { ...current, tipId: nodeId, executed: current.executed + 1 } };
}

/** A node and everything below it leave the search (a person's prune or the search's own), counted in `stat`. */
function pruneSubtree(
  tree: ThoughtTree,
  topId: string,
  why: Pick<ThoughtNode, 'prunedBy' | 'pruneReason'>,
  stat: 'steeredPrunes' | 'searchPrunes',
): void {
  const top = tree.nodes[topId];
  if (top && top.status !== 'failed' && top.status !== 'pruned') noteDeadEnd(tree, top);
  for (const id of subtreeIds(tree, topId)) {
    delete tree.frontier[id];
    const node = tree.nodes[id];
    if (!node || node.status === 'failed' || node.status === 'pruned') continue;
    replaceNode(tree, id, { status: 'pruned', ...why });
    tree.stats[stat] += 1;
  }
}

/**
 * The run stops at a breakpoint's hit (the engine's run.paused, or the pause the server asks of an external search).
 * "Run to here" is used once, like a debugger's run-to-cursor: the node is reached, the breakpoint turns off.
 */
function stopAt(tree: ThoughtTree, hit: BreakpointHit): void {
  tree.breakpointHit = hit;
  if (hit.condition.kind === 'node-runs') {
    tree.breakpoints = tree.breakpoints.map((b) => (b.id === hit.breakpointId ? { ...b, enabled: false } : b));
  }
}

function sameHit(a: BreakpointHit, b: BreakpointHit): boolean {
  return a.breakpointId === b.breakpointId && a.seq === b.seq && a.eventType === b.eventType;
}

/** A run about to wait (queued again, interrupted) remembers whether it was running or paused, for run.resumed. */
function holdStatus(tree: ThoughtTree): void {
  if (tree.status === 'running' || tree.status === 'paused') tree.resumeStatus = tree.status;
}

/** A step cut short (abort, crash) leaves no trace: its node returns to its status and its frontier slot. */
function rollBackInFlight(tree: ThoughtTree): void {
  const inFlight = tree.inFlight;
  if (!inFlight) return;
  tree.inFlight = null;
  const node = tree.nodes[inFlight.entry.nodeId];
  if (node) replaceNode(tree, node.id, { status: inFlight.previousStatus });
  tree.frontier[inFlight.entry.nodeId] = inFlight.entry;
}

/** Remembers the topmost node of a dead branch (one whose parent is not dead already). */
function noteDeadEnd(tree: ThoughtTree, node: ThoughtNode): void {
  const parent = node.parentId ? tree.nodes[node.parentId] : undefined;
  if (!node.branch || (parent && (parent.status === 'failed' || parent.status === 'pruned'))) return;
  tree.deadEnds.push(node.id);
}

function addUsage(target: CostedUsage, tokens: { inputTokens: number; outputTokens: number }, cost: number | null) {
  target.inputTokens += tokens.inputTokens;
  target.outputTokens += tokens.outputTokens;
  if (cost === null) target.unpricedCalls += 1;
  else target.cost += cost;
}

function replaceNode(tree: ThoughtTree, id: string, patch: Partial<ThoughtNode>): void {
  const node = tree.nodes[id];
  if (node) tree.nodes[id] = { ...node, ...patch };
}

/** The node and all its descendants, parents before children. */
export function subtreeIds(tree: ThoughtTree, rootId: string): string[] {
  const out: string[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop() as string;
    const node = tree.nodes[id];
    if (!node) continue;
    out.push(id);
    for (let i = node.childIds.length - 1; i >= 0; i--) stack.push(node.childIds[i] as string);
  }
  return out;
}

/** Root first, the node last. */
export function pathTo(tree: ThoughtTree, nodeId: string): ThoughtNode[] {
  const path: ThoughtNode[] = [];
  let node = tree.nodes[nodeId];
  while (node) {
    path.push(node);
    node = node.parentId ? tree.nodes[node.parentId] : undefined;
  }
  return path.reverse();
}

/**
 * What "best" means, everywhere (the run's winner, the live badge, an import's answer): the best node that completed
 * its run, verified first. A candidate is a node below the root that ran to a result (node.completed), was not
 * pruned, and did not fail its verification; among them a node whose verification passed comes before any that no
 * check has passed, then a final answer (result.isAnswer) before a step that is not one, then the highest cumulative
 * score, and a tie goes to the earlier node. A node whose own run
 * completed keeps its result when its expansion later dead-ends (status failed, reason: every candidate too weak),
 * so it can still be best; a node that failed its verification never is, nor one that never ran or whose run
 * failed. With no candidate there is no best node (null), never "the best of the rest".
 * An MCTS search (issue 31) answers by its own rule first: its verified answer, else the deepest candidate on the
 * walk from the root by visits (or Q, mctsBestBy); the rule above only when that walk finds none.
 */
export function findBestNode(tree: ThoughtTree): ThoughtNode | null {
  if (tree.mcts) {
    const solved = tree.mcts.solvedBy ? tree.nodes[tree.mcts.solvedBy] : undefined;
    if (solved && isCandidateForBest(solved)) return solved;
    const walked = mctsBestNode(tree, mctsSettings(tree.config).mctsBestBy, isCandidateForBest);
    if (walked) return walked;
  }
  let best: ThoughtNode | null = null;
  for (const id of tree.nodeOrder) {
    const node = tree.nodes[id];
    if (!node || !isCandidateForBest(node)) continue;
    if (!best || beats(node, best)) best = node;
  }
  return best;
}

/**
 * The node the "best" badge marks: a finished run's winner as run.finished named it (an importer may choose its
 * answer by a rule of its own log, and a run without a winner has none), else findBestNode as the run goes on.
 */
export function markedBestNode(tree: ThoughtTree): ThoughtNode | null {
  if (tree.status === 'finished') return tree.bestNodeId ? (tree.nodes[tree.bestNodeId] ?? null) : null;
  return findBestNode(tree);
}

function isCandidateForBest(node: ThoughtNode): boolean {
  return (
    node.parentId !== null && node.result !== null && node.status !== 'pruned' && node.verification?.passed !== false
  );
}

/**
 * Verified first, then a final answer before a step that is not one (a code change that makes every test pass beats
 * a verified partial step, however well that one scored), then the higher cumulative score; a tie keeps the earlier.
 */
function beats(node: ThoughtNode, than: ThoughtNode): boolean {
  const verified = node.verification?.passed === true;
  const thanVerified = than.verification?.passed === true;
  if (verified !== thanVerified) return verified;
  const answer = node.result?.isAnswer === true;
  const thanAnswer = than.result?.isAnswer === true;
  if (answer !== thanAnswer) return answer;
  return node.cumulativeScore > than.cumulativeScore;
}
