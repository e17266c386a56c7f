/**
 * ThoughtTreeExecutor: the Tree-of-Thought search of the executor docs (shared/seeds/003_*), rule by rule.
 * Every change is emitted as an event and applied to the executor's own tree through reduce(), so the tree a
 * caller folds from the events is, by construction, the tree the executor searched.
 *
 * A step is one frontier entry: run a node (execute) or grow it (expand). node.started is emitted when a step
 * begins; everything else of the step (its model calls included) is emitted together, synchronously, when it
 * ends. A log cut off mid-step therefore holds only node.started, which run.resumed rolls back: resume() then
 * redoes that step exactly as the uninterrupted run did. Beam runs a level's steps as one batch whose calls run
 * together (within config.maxConcurrentCalls) while their outcomes are still written one step after another in
 * the strategy's order, so the log does not depend on timing (lib/engine/README.md, "Calls in flight").
 * Not responsible for storage, transport or who steers (lib/server), nor for prompts (tasks).
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { openGoalError } from '../contract/tasks';
import { BranchEvaluator, type EvaluatedBranch } from './branch-evaluator';
import { BudgetedModel, isBudgetReached, type SpendGate } from './budget';
import { BranchGenerator, type GeneratedBranches } from './branch-generator';
import { CallGate, StepCancelled, type StepTicket } from './call-gate';
import { mctsSettings, resolveConfig, resolveTimeout, type MctsSettings } from './config';
import { nextMctsMove, type MctsMove } from './mcts';
import { ExplorationControl, checkCommand, type SteeringCommand } from './control';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import type {
  AnswerSource,
  BranchScore,
  FinishReason,
  NodeResult,
  ThoughtBranch,
  ToTConfig,
} from '../contract/vocabulary';
import type {
  ActionOutcome,
  Agent,
  FrontierEntry,
  LanguageModel,
  ThoughtNode,
  ThoughtTask,
  ThoughtTree,
  ToTResult,
} from './types';
import { DEFAULT_MAX_CONCURRENT_CALLS, type ToTStats, type Verification } from '../contract/vocabulary';
import { FrontierQueue, comesBefore, findBacktrackTarget } from './frontier';
import { CutShort, callModel, type ModelCallRecord } from './model-call';
import type { PriceTable } from './pricing';
import { FINAL_MARKER, openGoalTask } from './prompts';
import { renderScratchpad } from './scratchpad';
import type { Breakpoint, BreakpointHit } from '../contract/breakpoints';
import { judgeEvent, treeHitContext } from './breakpoints';
import { findBestNode, fold, nextNodeId, pathTo, reduce, createEmptyTree, subtreeIds } from './tree';

export interface ToTCallbacks {
  onBranchGenerated?: (node: ThoughtNode, branches: ThoughtBranch[]) => void;
  onBranchEvaluated?: (branch: ThoughtBranch, score: BranchScore) => void;
  onNodeExplored?: (node: ThoughtNode) => void;
  onBacktrack?: (from: ThoughtNode, to: ThoughtNode | null) => void;
}

export interface ExploreOptions {
  /** Overrides config.timeout for this call (ms; 0 or null: no limit). */
  timeout?: number | null;
  abortSignal?: AbortSignal;
  onProgress?: (stats: ToTStats) => void;
  /** Every event, in seq order, as it is applied. */
  onEvent?: (event: ExplorationEvent) => void;
  /**
   * The same events in atomic groups: the tree is resumable after each group, not inside one. Storage should
   * write a group whole (one transaction), so that a crash never leaves half a step in the log.
   */
  onCommit?: (events: ExplorationEvent[]) => void;
  /** What is searched; the open goal by default. */
  task?: ThoughtTask;
  /** Steering: prune, expand, pause, resume, step, abort. */
  control?: ExplorationControl;
  runId?: string;
  prices?: PriceTable;
  /** Start paused, waiting for step or resume (explore only). */
  startPaused?: boolean;
  /** explore() only: the run's breakpoints from its start (a breakpoints.set right after run.started), and who set them. */
  breakpoints?: { breakpoints: Breakpoint[]; actor: string };
  /**
   * resume() records a run.resumed event (default); a fork's first start from its seed log has nothing to resume.
   * A log whose run waits (queued, interrupted) is always resumed with the event: it is what makes it run again.
   */
  announceResume?: boolean;
  /**
   * explore() only: the run's log so far, lifecycle events written before the search starts (its run.queued); the
   * search's own events follow them in seq order.
   */
  log?: readonly ExplorationEvent[];
  /**
   * Told the number of this run's model calls in flight whenever it changes (not part of the log: the run header's
   * live figure). Calls waiting for a slot are not in flight.
   */
  onCallsInFlight?: (count: number) => void;
  /** Clock for event timestamps (tests). */
  now?: () => number;
  /**
   * The most this explore() or resume() may spend, in USD, on top of what the run had spent before it (e.g. what is
   * left of a person's daily budget). The stricter of it and config.maxCostUsd applies, and reaching it ends the
   * run as 'budget' the same way. Null or absent: only the config's cap.
   */
  spendAllowanceUsd?: number | null;
  /**
   * A budget shared with other runs (team mode's daily budget, in the database): asked before each call, after the
   * run's own cap, and told what the call cost (lib/engine/budget.ts SpendGate). Its refusal ends the run as 'budget'.
   */
  spendGate?: SpendGate | null;
}

/** The most recent explored thoughts passed to generation: enough for novelty, bounded for long runs. */
export const MAX_EXPLORED_THOUGHTS = 50;

/** After this many model failures in a row the backend is considered down and the run ends. */
export const MAX_CONSECUTIVE_MODEL_FAILURES = 5;

/** What a step's calls are built from: the tree as it was when the step (or its batch) began. */
interface StepInputs {
  entry: FrontierEntry;
  node: ThoughtNode;
  /** Root first, ending with the node. */
  path: ThoughtNode[];
  /** Rendered only for the steps that send it (an expansion, a branch run). */
  scratchpad: string;
  /** An expansion's recent explored thoughts. */
  exploredThoughts: string[];
}

/** What a step's calls came back with, before any of it is written. */
type StepWork =
  | { kind: 'expand'; generated: GeneratedBranches; evaluations: EvaluatedBranch[] | null }
  | { kind: 'action'; outcome: ActionOutcome }
  | { kind: 'action-failed'; reason: string }
  | { kind: 'turns'; calls: ModelCallRecord[]; response: string | null; iterations: number; error: string | null };

/** A step's work done, or cut short (an abort, the time limit, the cost cap, its node pruned) with the calls spent. */
type StepResult = { ok: true; work: StepWork } | { ok: false; spent: ModelCallRecord[]; cause: unknown };

/** A step under way: what it was built from, the admission of its calls, and its result (never rejects). */
interface Step {
  inputs: StepInputs;
  ticket: StepTicket;
  result: Promise<StepResult>;
}

function turns(
  calls: ModelCallRecord[],
  response: string | null,
  iterations: number,
  error: string | null,
): StepResult {
  return { ok: true, work: { kind: 'turns', calls, response, iterations, error } };
}

/** Every call a step made that answered: what a step that is not applied still spent. */
function spentCalls(result: StepResult): ModelCallRecord[] {
  if (!result.ok) return result.spent;
  const work = result.work;
  if (work.kind === 'expand') return [work.generated.call, ...(work.evaluations ?? []).map((e) => e.call)];
  return work.kind === 'turns' ? work.calls : [];
}

export class ThoughtTreeExecutor {
  readonly config: ToTConfig;
  private readonly callbacks: ToTCallbacks;

  constructor(config: Partial<ToTConfig> & ToTCallbacks = {}) {
    const { onBranchGenerated, onBranchEvaluated, onNodeExplored, onBacktrack, ...rest } = config;
    this.callbacks = { onBranchGenerated, onBranchEvaluated, onNodeExplored, onBacktrack };
    this.config = resolveConfig(rest);
  }

  /** Searches for `goal`; refuses an invalid goal before any model call. */
  async explore(agent: Agent, goal: string, options: ExploreOptions = {}): Promise<ToTResult> {
    const task = options.task ?? openGoalTask;
    const problem = (task.validateGoal ?? openGoalError)(goal);
    if (problem) throw new Error(`Cannot explore: ${problem}`);
    if (options.timeout !== undefined) resolveTimeout(options.timeout); // refused before anything is emitted
    const session = new Session(
      agent,
      this.config,
      this.callbacks,
      options,
      fold(options.log ?? [], createEmptyTree(options.runId ?? options.log?.[0]?.runId ?? randomUUID())),
      largestCompletion(options.log ?? []),
    );
    session.start(goal, task.id);
    session.commit();
    return session.run();
  }

  /**
   * Continues a run from its event log (after a restart): the log is folded, a step cut short is rolled back,
   * and the search goes on. With a deterministic model the rest equals the uninterrupted run.
   * The run's own config (from run.started) is used; this executor's config is not.
   */
  async resume(agent: Agent, events: readonly ExplorationEvent[], options: ExploreOptions = {}): Promise<ToTResult> {
    const tree = fold(events);
    if (!tree.rootId) throw new Error('Cannot resume: the event log has no run.started and root');
    if (options.timeout !== undefined) resolveTimeout(options.timeout);
    const session = new Session(agent, tree.config, this.callbacks, options, tree, largestCompletion(events));
    if (tree.status === 'finished') return session.result();
    const waiting = tree.status === 'queued' || tree.status === 'interrupted';
    if (options.announceResume !== false || tree.inFlight || waiting) {
      session.emit('run.resumed', { rolledBackNodeId: tree.inFlight?.entry.nodeId ?? null });
      session.commit();
    }
    session.restoreBatch(events);
    return session.run();
  }
}

/** One exploration: owns the tree, emits events, runs steps. */
class Session {
  private readonly task: ThoughtTask;
  private readonly generator: BranchGenerator;
  private readonly evaluator: BranchEvaluator;
  private readonly control: ExplorationControl;
  private readonly abort = new AbortController();
  private readonly now: () => number;
  /** The agent's model behind the cost cap (when there is one): every call of the search goes through it. */
  private readonly model: LanguageModel;

  constructor(
    private readonly agent: Agent,
    private readonly config: ToTConfig,
    private readonly callbacks: ToTCallbacks,
    private readonly options: ExploreOptions,
    readonly tree: ThoughtTree,
    largestCompletionSoFar = 0,
  ) {
    this.task = options.task ?? openGoalTask;
    const cap = strictestCap(config.maxCostUsd ?? null, options.spendAllowanceUsd ?? null, tree.usage.cost);
    const gate = options.spendGate ?? null;
    // without a cap or a gate the wrapper would only pass calls through: each call is spared a layer of promises
    this.model =
      cap === null && gate === null
        ? agent.model
        : new BudgetedModel(agent.model, {
            cap,
            prices: options.prices,
            spent: tree.usage.cost,
            largestCompletion: largestCompletionSoFar,
            gate,
          });
    this.generator = new BranchGenerator(this.model, this.task, options.prices);
    this.evaluator = new BranchEvaluator({
      model: this.model,
      task: this.task,
      confidenceWeight: config.confidenceWeight,
      progressWeight: config.progressWeight,
      noveltyWeight: config.noveltyWeight,
      prices: options.prices,
    });
    this.mcts = config.explorationStrategy === 'mcts' ? mctsSettings(config) : null;
    this.control = options.control ?? new ExplorationControl();
    this.control.attach(() => this.tree);
    this.now = options.now ?? Date.now;
    this.queue = new FrontierQueue(tree);
    // every call waiting for a slot or sleeping in a backend listens to the run's signal; they are removed as each
    // call ends, so many at once is the design (a batch of a wide level), not a leak
    setMaxListeners(0, this.abort.signal);
    this.gate = new CallGate(
      config.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS,
      this.now,
      options.onCallsInFlight,
    );
  }

  /** The run's limit of calls in flight, and the holds steering puts on calls not yet started. */
  private readonly gate: CallGate;

  /** An MCTS run's settings (issue 31); null for beam, best-first and dfs. */
  private readonly mcts: MctsSettings | null;

  /** performance.now() at which the time limit passes; null for none. */
  private deadlineAt: number | null = null;

  /**
   * True once the run must start no more model calls: the abort signal fired, or the time limit passed (checked on
   * the clock too, so a timer that fires late never lets a call through). Checked before every call a step makes.
   */
  private stopped(): boolean {
    if (!this.abort.signal.aborted && this.deadlineAt !== null && performance.now() >= this.deadlineAt) {
      this.abort.abort(new TimeoutReason());
    }
    return this.abort.signal.aborted;
  }

  private group: ExplorationEvent[] = [];
  private readonly queue: FrontierQueue;
  /** The first breakpoint hit among the events of the step under way: the run pauses when the step ends. */
  private stepHit: BreakpointHit | null = null;

  emit<K extends ExplorationEventType>(type: K, payload: EventPayloads[K]): void {
    const event = {
      runId: this.tree.runId,
      seq: this.tree.lastSeq + 1,
      ts: this.now(),
      type,
      payload,
    } as ExplorationEvent;
    // judged against the tree before it is applied: what the condition saw is what the page will show at seq - 1
    if (this.stepHit === null && this.tree.breakpoints.length > 0) {
      this.stepHit = judgeEvent(this.tree.breakpoints, event, treeHitContext(this.tree));
    }
    reduce(this.tree, event);
    // keep the heap in step with the frontier: new entries, and a rolled-back step's entry back in place
    if (type === 'node.queued' || type === 'run.resumed') {
      const id =
        type === 'node.queued'
          ? (payload as EventPayloads['node.queued']).nodeId
          : (payload as EventPayloads['run.resumed']).rolledBackNodeId;
      const entry = id ? this.tree.frontier[id] : undefined;
      if (entry) this.queue.push(entry);
    }
    this.group.push(event);
    this.options.onEvent?.(event);
  }

  /** Ends an atomic group: called before every wait, so a group never spans an await. */
  commit(): void {
    if (this.group.length === 0) return;
    const group = this.group;
    this.group = [];
    this.options.onCommit?.(group);
  }

  start(goal: string, taskId: string): void {
    this.emit('run.started', {
      goal,
      taskId,
      agentName: this.agent.name,
      modelId: this.agent.model.id,
      config: { ...this.config },
    });
    const breakpoints = this.options.breakpoints;
    if (breakpoints && breakpoints.breakpoints.length > 0) this.emit('breakpoints.set', breakpoints);
    const rootId = nextNodeId(this.tree);
    this.emit('node.created', { nodeId: rootId, parentId: null, branch: null, score: null });
    // an MCTS run's first iteration selects the root and grows it
    if (!this.mcts) this.emit('node.queued', { nodeId: rootId, mode: 'expand', urgent: false });
    if (this.options.startPaused) this.emit('steer.pause', { actor: 'system' });
  }

  async run(): Promise<ToTResult> {
    const timeout = resolveTimeout(this.options.timeout !== undefined ? this.options.timeout : this.config.timeout);
    this.deadlineAt = timeout ? performance.now() + timeout : null;
    const timer = timeout ? setTimeout(() => this.abort.abort(new TimeoutReason()), timeout) : null;
    const outer = this.options.abortSignal;
    const onOuterAbort = () => this.abort.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    // An abort command cancels the model call in flight at once; the loop then records who aborted.
    const onCommandAbort = () => this.abort.abort(new Error('aborted by command'));
    this.control.onAbort(onCommandAbort);
    this.control.onSent((command) => this.onCommandSent(command));
    try {
      if (await this.prepared()) await this.loop();
    } finally {
      this.commit();
      if (timer) clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
      this.control.onAbort(null);
      this.control.onSent(null);
    }
    return this.result();
  }

  /**
   * The task's preparation (ThoughtTask.prepare) before the first step; false when it failed and ended the run. An
   * abort during it is left to the loop, which ends the run the way it ends any cut.
   */
  private async prepared(): Promise<boolean> {
    if (!this.task.prepare || this.tree.status === 'finished') return true;
    try {
      await this.task.prepare(this.tree.goal, this.abort.signal);
      return true;
    } catch (error) {
      if (this.abort.signal.aborted) return true;
      await this.finish('error', `the task could not start: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  private async loop(): Promise<void> {
    for (;;) {
      const abortedBy = this.applyCommands();
      this.reconcileBatch();
      if (this.tree.status === 'finished') return;
      if (abortedBy !== null) {
        await this.settleBatch();
        return this.finish('aborted', `aborted by ${abortedBy}`);
      }
      if (this.stopped()) {
        await this.settleBatch();
        return this.finishAborted();
      }
      this.gate.setPaused(this.tree.status === 'paused');
      if (this.tree.status === 'paused') {
        this.commit();
        await this.control.waitForCommand(this.abort.signal);
        continue;
      }
      // Everything the loop decides on lives in the tree, so a resumed run decides the same. A search that stops
      // here with a batch under way waits for the batch's calls and records them as spent: all of them, so the log
      // does not depend on how far they had got.
      const stop = this.stopReason();
      if (stop) {
        await this.settleBatch(false);
        return this.finish(stop.reason, stop.detail);
      }
      // Urgent entries (a backtrack, a person's expand) run next, alone, even between the steps of a batch.
      const peeked = this.queue.peek();
      // MCTS decides its next move when nothing is queued: a selection, the iteration's next step, or its backup
      if (this.mcts && !peeked) {
        const move = nextMctsMove(this.tree, this.mcts, (node) => this.canExpand(node), {
          mayRun: this.tree.stats.exploredNodes < this.config.maxTotalNodes,
          stop: this.mustStop(),
        });
        if (move.kind === 'exhausted') return this.finish('frontier-empty', null);
        this.applyMctsMove(move);
        continue;
      }
      const urgent = peeked?.urgent ? peeked : null;
      const next = urgent ? null : await this.nextOfBatch();
      // a batch's steps whose nodes were pruned were settled: the commands that came meanwhile go first
      if (next === 'settled') continue;
      const entry = urgent ?? next?.inputs.entry ?? peeked;
      if (!entry) return this.finish('frontier-empty', null);
      // "run to here": the node's step is about to start; the run stops with the node still queued
      const before = this.tree.breakpoints.length > 0 ? this.judgeStepStart(entry) : null;
      if (before) {
        this.emit('run.paused', { reason: 'breakpoint', hit: before });
        continue;
      }
      this.commit();
      this.stepHit = null;
      const step = next ? this.continueBatch(next) : this.beginStep(entry);
      this.commit();
      this.current = step;
      step.ticket.start();
      let result: StepResult;
      try {
        result = await step.result;
      } finally {
        this.current = null;
      }
      if (!result.ok) {
        // A step cut short by an abort is rolled back by run.finished; the calls it had made that answered were
        // spent all the same, so they are recorded (stats, tokens and cost count every answered call).
        this.emitCalls(entry.nodeId, result.spent);
        // the cost cap refused the step's next call: the search stops as it would on a time limit
        if (isBudgetReached(result.cause) && !this.abort.signal.aborted) this.abort.abort(result.cause);
        if (this.abort.signal.aborted) continue;
        throw result.cause;
      }
      this.commitStep(step.inputs, result.work);
      this.options.onProgress?.({ ...this.tree.stats, tokenUsage: { ...this.tree.stats.tokenUsage } });
      const hit = this.stepHit;
      this.stepHit = null;
      if (hit) this.emit('run.paused', { reason: 'breakpoint', hit });
      // an MCTS run steps by iteration: it pauses once the iteration's value is backed up
      else if (this.tree.stepping && !this.tree.terminatedBy && !this.tree.mcts?.current) {
        this.emit('run.paused', { reason: 'step' });
      }
    }
  }

  // ---- MCTS (issue 31) --------------------------------------------------------------------------------------------
  //
  // nextMctsMove (mcts.ts) reads the tree and says what comes next; this writes it as an event. A step is queued
  // (node.queued) and run by the loop like any other, so commands, breakpoints, the limits and a restart apply to an
  // MCTS run's steps as to every other run's. Everything an iteration needs is folded into tree.mcts.

  /** Whether a ran node can be grown: below maxDepth and not terminal for the task (afterCompleted's own rule). */
  private canExpand(node: ThoughtNode): boolean {
    return (
      node.depth < this.config.maxDepth && !this.task.isTerminal?.(node, pathTo(this.tree, node.id), this.tree.goal)
    );
  }

  /** A rule of the search says it ends at the next boundary (rule 7's confidence, a backend that keeps failing). */
  private mustStop(): boolean {
    return this.tree.terminatedBy !== null || this.tree.modelFailureStreak >= MAX_CONSECUTIVE_MODEL_FAILURES;
  }

  private applyMctsMove(move: Exclude<MctsMove, { kind: 'exhausted' }>): void {
    this.stepHit = null;
    switch (move.kind) {
      case 'select':
        this.emit('mcts.selected', { iteration: move.iteration, hops: move.hops, leafId: move.leafId });
        break;
      case 'step':
        this.emit('node.queued', { nodeId: move.nodeId, mode: move.mode, urgent: false });
        break;
      case 'backup':
        this.emit('mcts.backpropagated', {
          iteration: move.iteration,
          nodeId: move.nodeId,
          value: move.value,
          source: move.source,
          path: move.path,
        });
        break;
    }
    const hit = this.stepHit;
    this.stepHit = null;
    if (hit) this.emit('run.paused', { reason: 'breakpoint', hit });
    else if (move.kind === 'backup' && this.tree.stepping && !this.tree.terminatedBy) {
      this.emit('run.paused', { reason: 'step' });
    }
  }

  // ---- Steps and batches (issue 30) -------------------------------------------------------------------------------
  //
  // A step's calls are made by its work (async, writes nothing) and its outcome is written by its commit (sync, one
  // group), so calls can run ahead of the log while the log stays in the search's own order. A step that runs alone
  // builds its inputs just after its node.started, as it always did. Beam runs a level's steps as one batch: every
  // step's inputs are built from the tree just before the batch's first node.started (which names the batch), all
  // their calls start at once within the run's limit, and their outcomes are written one step after another in the
  // strategy's order, each a step of its own (commands and breakpoints apply between them). So the log does not
  // depend on when calls return, nor on the limit: a limit of 1 writes the same log as 16.

  /** The step under way (its calls are never held: a step is atomic, it ends before any command applies). */
  private current: Step | null = null;
  /** The beam batch under way: its steps in order, and the index of the next one to start. */
  private batch: { steps: Step[]; next: number; nodeIds: string[] } | null = null;

  /** Starts the step of `entry`: a beam level's batch when it has more than one step, else the step alone. */
  private beginStep(entry: FrontierEntry): Step {
    const members = this.batchFor(entry);
    if (members.length > 1) {
      const steps = members.map((member) => this.launch(this.inputsFrom(this.tree, member)));
      this.batch = { steps, next: 1, nodeIds: members.map((m) => m.nodeId) };
      this.holdRunsToHere();
      this.emit('node.started', { nodeId: entry.nodeId, mode: entry.mode, batch: members.map((m) => m.nodeId) });
      return steps[0] as Step;
    }
    this.emit('node.started', { nodeId: entry.nodeId, mode: entry.mode });
    return this.launch(this.inputsFrom(this.tree, entry));
  }

  /**
   * Starts the batch's next step: its calls may have answered already; its node starts in the log now. The batch's
   * first step, redone after a restart cut it, names the batch again, as the uninterrupted run's did.
   */
  private continueBatch(step: Step): Step {
    const batch = this.batch as { steps: Step[]; next: number; nodeIds: string[] };
    batch.next += 1;
    const { nodeId, mode } = step.inputs.entry;
    const first = batch.nodeIds[0] === nodeId;
    this.emit('node.started', first ? { nodeId, mode, batch: batch.nodeIds } : { nodeId, mode });
    return step;
  }

  /**
   * The steps that run together with `entry`'s: for beam, every queued entry of its level (same depth and mode, not
   * urgent) in the strategy's order, at most as many executions as the node limit has room for. Urgent entries (a
   * backtrack, a person's expand) run alone, before the batch's next step. The other strategies run one node at a time.
   */
  private batchFor(entry: FrontierEntry): FrontierEntry[] {
    const node = this.tree.nodes[entry.nodeId];
    if (this.config.explorationStrategy !== 'beam' || entry.urgent || !node) return [entry];
    const level = Object.values(this.tree.frontier).filter(
      (e) => !e.urgent && e.mode === entry.mode && this.tree.nodes[e.nodeId]?.depth === node.depth,
    );
    level.sort((a, b) => (comesBefore(this.tree, a, b) ? -1 : 1));
    const room =
      entry.mode === 'execute' ? Math.max(1, this.config.maxTotalNodes - this.tree.stats.exploredNodes) : level.length;
    return level.slice(0, room);
  }

  /** What a step's calls are built from, read from `tree` (the live tree, or the tree before a resumed batch). */
  private inputsFrom(tree: ThoughtTree, entry: FrontierEntry): StepInputs {
    const node = tree.nodes[entry.nodeId] as ThoughtNode;
    const action = node.branch?.proposedAction;
    const usesScratchpad =
      entry.mode === 'expand' ||
      this.task.runAction !== undefined ||
      (action !== undefined && action.type !== 'response' && action.type !== 'code_change');
    return {
      entry,
      node,
      path: pathTo(tree, entry.nodeId),
      scratchpad: usesScratchpad ? renderScratchpad(tree, entry.nodeId) : '',
      exploredThoughts: entry.mode === 'expand' ? tree.exploredThoughts.slice(-MAX_EXPLORED_THOUGHTS) : [],
    };
  }

  /** Starts a step's work; its result is a promise that never rejects. */
  private launch(inputs: StepInputs): Step {
    const ticket = this.gate.ticket();
    const work = inputs.entry.mode === 'execute' ? this.executeWork(inputs, ticket) : this.expandWork(inputs, ticket);
    const result = work.catch((cause: unknown): StepResult => ({ ok: false, spent: [], cause }));
    return { inputs, ticket, result };
  }

  /** Whether the entry's step is still to run: its node is queued with the very entry the batch took. */
  private stillQueued(entry: FrontierEntry): boolean {
    return this.tree.frontier[entry.nodeId]?.order === entry.order;
  }

  /**
   * The batch's next step still queued, or null when the batch is done. A step whose node left the queue (pruned,
   * or queued anew by a person) is cancelled and settled on its turn: its calls that answered are recorded as spent,
   * never applied; 'settled' says some were.
   */
  private async nextOfBatch(): Promise<Step | null | 'settled'> {
    const batch = this.batch;
    if (!batch) return null;
    let settled = false;
    while (batch.next < batch.steps.length) {
      const step = batch.steps[batch.next] as Step;
      if (this.stillQueued(step.inputs.entry)) return step;
      batch.next += 1;
      await this.settle(step);
      settled = true;
    }
    this.batch = null;
    return settled ? 'settled' : null;
  }

  /**
   * Waits for a step that will not be applied and records the calls it made. Cancelled, its calls not yet started
   * never start (its node was pruned, the run was cut); else they all run (the search ended by its own rule).
   */
  private async settle(step: Step, cancel = true): Promise<void> {
    if (cancel) step.ticket.cancel();
    else step.ticket.start();
    this.commit();
    const result = await step.result;
    this.emitCalls(step.inputs.entry.nodeId, spentCalls(result));
  }

  /** The run is ending: every step of the batch not yet applied is settled (cancelled when the run was cut). */
  private async settleBatch(cancel = true): Promise<void> {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    const rest = batch.steps.slice(batch.next);
    for (const step of rest) if (!cancel) step.ticket.start();
    for (const step of rest) await this.settle(step, cancel);
  }

  /** After commands applied: a batch step whose node left the queue stops its calls; holds follow the breakpoints. */
  private reconcileBatch(): void {
    const batch = this.batch;
    if (!batch) return;
    for (const step of batch.steps.slice(batch.next)) {
      if (!this.stillQueued(step.inputs.entry)) step.ticket.cancel();
    }
    this.holdRunsToHere();
  }

  /** A batch step with a "run to here" breakpoint on its node makes no call before the run gets there. */
  private holdRunsToHere(): void {
    const batch = this.batch;
    if (!batch) return;
    const targets = new Set<string>();
    for (const { enabled, condition } of this.tree.breakpoints) {
      if (enabled !== false && condition.kind === 'node-runs') targets.add(condition.nodeId);
    }
    for (const step of batch.steps.slice(batch.next)) step.ticket.hold(targets.has(step.inputs.entry.nodeId));
  }

  /** A command just sent: a pause or a prune reaches the calls not yet started at once, before its step boundary. */
  private onCommandSent(command: SteeringCommand): void {
    if (command.type === 'pause') this.gate.setPaused(true);
    const batch = this.batch;
    if (command.type !== 'prune' || !batch) return;
    const doomed = new Set(subtreeIds(this.tree, command.nodeId));
    for (const step of batch.steps.slice(batch.next)) {
      if (step !== this.current && doomed.has(step.inputs.entry.nodeId)) step.ticket.hold();
    }
  }

  /**
   * After a restart: a batch the log had begun (tree.batch) goes on with the steps still queued, their inputs built
   * from the tree as it was before the batch's first node.started, exactly as the uninterrupted run built them.
   */
  restoreBatch(events: readonly ExplorationEvent[]): void {
    const marker = this.tree.batch;
    if (!marker) return;
    const at = events.findIndex((event) => event.seq === marker.startSeq);
    if (at < 0) return;
    const before = fold(events.slice(0, at));
    const steps: Step[] = [];
    for (const nodeId of marker.nodeIds) {
      const entry = before.frontier[nodeId];
      if (!entry || !before.nodes[nodeId] || this.tree.frontier[nodeId]?.order !== entry.order) continue;
      steps.push(this.launch(this.inputsFrom(before, entry)));
    }
    if (steps.length === 0) return;
    this.batch = { steps, next: 0, nodeIds: marker.nodeIds };
    this.holdRunsToHere();
  }

  /**
   * Why the search ends before its next step (rule 7: termination), or null when it goes on. An MCTS run ends only
   * between iterations (an iteration under way backs up what it has first), also by a verified answer or its budget.
   */
  private stopReason(): { reason: FinishReason; detail: string | null } | null {
    if (this.mcts && this.tree.mcts?.current) return null;
    if (this.tree.terminatedBy) return { reason: 'terminated', detail: null };
    if (this.tree.modelFailureStreak >= MAX_CONSECUTIVE_MODEL_FAILURES) {
      const streak = this.tree.modelFailureStreak;
      return { reason: 'error', detail: `the model failed ${streak} times in a row: ${this.tree.lastModelError}` };
    }
    if (this.tree.stats.exploredNodes >= this.config.maxTotalNodes) {
      return { reason: 'node-limit', detail: `${this.config.maxTotalNodes} nodes executed` };
    }
    const mcts = this.tree.mcts;
    if (this.mcts && mcts?.solvedBy) return { reason: 'terminated', detail: `${mcts.solvedBy} is a verified answer` };
    if (this.mcts && (mcts?.iterations ?? 0) >= this.mcts.mctsIterations) {
      return { reason: 'iteration-limit', detail: `${this.mcts.mctsIterations} iterations run` };
    }
    return null;
  }

  /** A node-runs breakpoint on the entry's node, judged against the node.started its step would write. */
  private judgeStepStart(entry: FrontierEntry): BreakpointHit | null {
    const runs = this.tree.breakpoints.filter((b) => b.condition.kind === 'node-runs');
    if (runs.length === 0) return null;
    const started = { type: 'node.started', seq: null, payload: { nodeId: entry.nodeId, mode: entry.mode } } as const;
    return judgeEvent(runs, started, treeHitContext(this.tree));
  }

  /** Applies a person's commands at a step boundary; returns the actor of an abort, if one came. */
  private applyCommands(): string | null {
    for (const command of this.control.take()) {
      if (checkCommand(this.tree, command)) continue; // the run moved on since it was checked
      switch (command.type) {
        case 'prune':
          this.emit('steer.prune', { nodeId: command.nodeId, actor: command.actor });
          break;
        case 'expand':
          this.emit('steer.expand', { nodeId: command.nodeId, actor: command.actor });
          this.emit('node.queued', { nodeId: command.nodeId, mode: 'expand', urgent: true });
          break;
        case 'pause':
          this.emit('steer.pause', { actor: command.actor });
          break;
        case 'resume':
          this.emit('steer.resume', { actor: command.actor });
          break;
        case 'step':
          this.emit('steer.step', { actor: command.actor });
          break;
        case 'abort':
          this.emit('steer.abort', { actor: command.actor });
          return command.actor;
        case 'breakpoints':
          this.emit('breakpoints.set', { breakpoints: command.breakpoints, actor: command.actor });
          break;
      }
    }
    return null;
  }

  private emitCalls(nodeId: string | null, calls: ModelCallRecord[]): void {
    for (const call of calls) this.emit('model.called', { nodeId, ...call });
  }

  // ---- A step's work: its calls, nothing written ---------------------------------------------------------------

  /**
   * Runs a node's calls: a task that carries out actions itself (runAction) does it; otherwise a direct response is
   * taken as is, a code change is its diff, and a sub-goal or tool call runs the model for a few turns.
   */
  private async executeWork(inputs: StepInputs, ticket: StepTicket): Promise<StepResult> {
    const { node, path } = inputs;
    if (this.task.runAction) {
      let outcome;
      try {
        outcome = await this.task.runAction({ goal: this.tree.goal, node, path, signal: this.abort.signal });
      } catch (error) {
        if (this.abort.signal.aborted) return { ok: false, spent: [], cause: this.abort.signal.reason };
        const reason = `could not run the action: ${error instanceof Error ? error.message : String(error)}`;
        return { ok: true, work: { kind: 'action-failed', reason } };
      }
      // a cut during the task's work ends the step with nothing written
      if (this.abort.signal.aborted) return { ok: false, spent: [], cause: this.abort.signal.reason };
      if (outcome) return { ok: true, work: { kind: 'action', outcome } };
    }
    const action = node.branch?.proposedAction ?? { type: 'response', content: '' };
    if (action.type === 'response') return turns([], action.content, 0, null);
    if (action.type === 'code_change') return turns([], action.diff, 0, null);
    const calls: ModelCallRecord[] = [];
    const messages = this.task.buildExecutionPrompt({
      goal: this.tree.goal,
      instructions: this.agent.instructions,
      node,
      path,
      scratchpad: inputs.scratchpad,
    });
    let response: string | null = null;
    let iterations = 0;
    while (iterations < this.config.maxIterationsPerBranch) {
      // no further turn once the deadline has passed; the turns that answered are kept with the cut
      if (this.stopped()) return { ok: false, spent: calls, cause: this.abort.signal.reason };
      let outcome;
      try {
        outcome = await callModel(this.model, {
          purpose: 'execute',
          messages,
          signal: this.abort.signal,
          prices: this.options.prices,
          admission: ticket,
        });
      } catch (error) {
        if (this.abort.signal.aborted || isBudgetReached(error) || error instanceof StepCancelled) {
          return { ok: false, spent: calls, cause: error };
        }
        throw error;
      }
      iterations += 1;
      calls.push(outcome.record);
      if (outcome.text === null) return turns(calls, response, iterations, `model error: ${outcome.record.error}`);
      response = outcome.text;
      if (this.task.isExecutionDone(outcome.text)) break;
      messages.push({ role: 'assistant', content: outcome.text }, { role: 'user', content: 'Continue.' });
    }
    if (response !== null && response.includes(FINAL_MARKER)) {
      response = response.slice(response.lastIndexOf(FINAL_MARKER) + FINAL_MARKER.length).trim();
    }
    return turns(calls, response, iterations, null);
  }

  /** Grows a node's candidates: the generation, then every candidate's evaluation at once. */
  private async expandWork(inputs: StepInputs, ticket: StepTicket): Promise<StepResult> {
    const { node, path } = inputs;
    let generated: GeneratedBranches;
    try {
      generated = await this.generator.generate(
        {
          goal: this.tree.goal,
          instructions: this.agent.instructions,
          node,
          path,
          count: this.config.branchFactor,
          exploredThoughts: inputs.exploredThoughts,
          scratchpad: inputs.scratchpad,
        },
        this.abort.signal,
        ticket,
      );
    } catch (cause) {
      return { ok: false, spent: [], cause };
    }
    if (generated.error !== null) return { ok: true, work: { kind: 'expand', generated, evaluations: null } };
    const branches = generated.branches;
    // A generation that answered past the deadline launches no evaluation; it was spent, so it is kept.
    if (this.stopped()) return { ok: false, spent: [generated.call], cause: this.abort.signal.reason };
    try {
      const evaluations = await this.evaluator.evaluateBatch(
        branches.map((branch) => ({
          goal: this.tree.goal,
          instructions: this.agent.instructions,
          path,
          branch,
          siblings: branches,
        })),
        this.abort.signal,
        ticket,
      );
      // Every evaluation answered (even past the deadline, from a model that ignores the signal): the step is whole.
      return { ok: true, work: { kind: 'expand', generated, evaluations } };
    } catch (error) {
      if (error instanceof CutShort) return { ok: false, spent: [generated.call, ...error.spent], cause: error.cause };
      return { ok: false, spent: [generated.call], cause: error };
    }
  }

  // ---- A step's commit: its outcome, one synchronous group --------------------------------------------------------

  private commitStep(inputs: StepInputs, work: StepWork): void {
    const nodeId = inputs.entry.nodeId;
    switch (work.kind) {
      case 'expand':
        return this.commitExpansion(inputs, work.generated, work.evaluations);
      case 'action-failed':
        this.emit('node.failed', { nodeId, reason: work.reason });
        this.afterExplored(nodeId);
        this.backtrack(nodeId, 'action failed');
        return;
      case 'action':
        this.emit('node.completed', {
          nodeId,
          result: { response: work.outcome.response, iterations: 0, isAnswer: work.outcome.isAnswer },
        });
        this.afterCompleted(nodeId, work.outcome.verification);
        return;
      case 'turns':
        return this.commitExecution(inputs, work);
    }
  }

  private commitExecution(inputs: StepInputs, work: Extract<StepWork, { kind: 'turns' }>): void {
    const nodeId = inputs.entry.nodeId;
    this.emitCalls(nodeId, work.calls);
    if (work.error !== null || work.response === null) {
      this.emit('node.failed', { nodeId, reason: work.error ?? 'no result' });
      this.afterExplored(nodeId);
      this.backtrack(nodeId, work.error ?? 'no result');
      return;
    }
    const isAnswer = this.task.isAnswer ? this.task.isAnswer(inputs.node, inputs.path, this.tree.goal) : true;
    const result: NodeResult = { response: work.response, iterations: work.iterations, isAnswer };
    this.emit('node.completed', { nodeId, result });
    const completed = this.tree.nodes[nodeId] as ThoughtNode;
    const verification = this.task.verify?.(completed, pathTo(this.tree, nodeId), this.tree.goal) ?? null;
    this.afterCompleted(nodeId, verification);
  }

  /** After node.completed: its verification (failing it backtracks), then termination or its next expansion. */
  private afterCompleted(nodeId: string, verification: Verification | null): void {
    const completed = this.tree.nodes[nodeId] as ThoughtNode;
    if (verification) this.emit('node.verified', { nodeId, passed: verification.passed, trace: verification.trace });
    if (verification && !verification.passed) {
      this.emit('node.failed', { nodeId, reason: `verification failed: ${verification.trace}` });
      this.afterExplored(nodeId);
      this.backtrack(nodeId, 'verification failed');
      return;
    }
    if (this.tree.terminatedBy === nodeId || this.mcts) {
      // the search stops at the top of the loop; an MCTS run grows a node when an iteration selects it
    } else if (
      completed.depth < this.config.maxDepth &&
      !this.task.isTerminal?.(completed, pathTo(this.tree, nodeId), this.tree.goal)
    ) {
      this.emit('node.queued', { nodeId, mode: 'expand', urgent: false });
    }
    this.afterExplored(nodeId);
  }

  private afterExplored(nodeId: string): void {
    const node = this.tree.nodes[nodeId];
    if (node) this.callbacks.onNodeExplored?.(node);
  }

  /** An expansion's outcome: candidates scored, the weak dropped, the rest created, the best queued. */
  private commitExpansion(
    inputs: StepInputs,
    generated: GeneratedBranches,
    evaluations: EvaluatedBranch[] | null,
  ): void {
    const nodeId = inputs.entry.nodeId;
    const node = inputs.node;
    if (generated.error !== null || evaluations === null) {
      this.emitCalls(nodeId, [generated.call]);
      this.emit('node.failed', { nodeId, reason: `model error while generating: ${generated.error}` });
      this.backtrack(nodeId, 'generation failed');
      return;
    }
    const branches = generated.branches;
    // The step's outcome, emitted as one synchronous group.
    this.emitCalls(nodeId, [generated.call]);
    this.emit('branches.generated', { nodeId, branches, fallback: generated.fallback, raw: generated.raw });
    this.callbacks.onBranchGenerated?.(node, branches);
    this.emitCalls(
      nodeId,
      evaluations.map((e) => e.call),
    );
    const threshold = this.config.confidenceThreshold;
    const survivors: { index: number; score: BranchScore; branch: ThoughtBranch }[] = [];
    branches.forEach((branch, index) => {
      const { score, raw } = evaluations[index] as (typeof evaluations)[number];
      this.emit('branch.scored', { nodeId, index, branch, score, raw });
      this.callbacks.onBranchEvaluated?.(branch, score);
      if (score.composite < threshold) {
        this.emit('candidate.dropped', {
          nodeId,
          index,
          branch,
          score,
          reason: `composite ${score.composite.toFixed(2)} is below the threshold ${threshold.toFixed(2)}`,
        });
      } else {
        survivors.push({ index, score, branch });
      }
    });

    if (survivors.length === 0) {
      const reason =
        branches.length === 0
          ? 'no candidates were generated'
          : `all ${branches.length} candidates scored below the threshold ${threshold.toFixed(2)}`;
      this.emit('node.failed', { nodeId, reason });
      this.backtrack(nodeId, reason);
      return;
    }

    const childIds = survivors.map((s) => {
      const childId = nextNodeId(this.tree);
      this.emit('node.created', { nodeId: childId, parentId: nodeId, branch: s.branch, score: s.score });
      return childId;
    });
    // Best first; ties keep generation order. The beamWidth best are queued, the rest wait as alternatives.
    const ranked = childIds
      .map((id, i) => ({ id, score: (survivors[i] as (typeof survivors)[number]).score.composite, i }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, this.config.beamWidth);
    // dfs pops the last one queued: queue the best last so it is on top.
    if (this.config.explorationStrategy === 'dfs') ranked.reverse();
    // MCTS queues none: the iteration runs its best child next, and selection picks the rest
    if (!this.mcts)
      for (const child of ranked) this.emit('node.queued', { nodeId: child.id, mode: 'execute', urgent: false });
    this.emit('node.expanded', { nodeId, childIds });
  }

  /**
   * After a dead end: queue the best deferred alternative next (or report that none is left). MCTS does not
   * backtrack: the dead end's value (0) is backed up and selection goes elsewhere.
   */
  private backtrack(fromId: string, reason: string): void {
    if (this.mcts) return;
    const target = findBacktrackTarget(this.tree, fromId);
    this.emit('backtrack', { fromId, toId: target?.id ?? null, reason });
    if (target) this.emit('node.queued', { nodeId: target.id, mode: 'execute', urgent: true });
    const from = this.tree.nodes[fromId];
    if (from) this.callbacks.onBacktrack?.(from, target ? (this.tree.nodes[target.id] ?? null) : null);
  }

  private finishAborted(): Promise<void> {
    const { reason, detail } = this.abortedReason();
    return this.finish(reason, detail);
  }

  /** Why the abort signal fired, as a finish reason. */
  private abortedReason(): { reason: 'timeout' | 'budget' | 'aborted'; detail: string } {
    const why: unknown = this.abort.signal.reason;
    if (why instanceof TimeoutReason) return { reason: 'timeout', detail: 'the time limit passed' };
    if (isBudgetReached(why)) return { reason: 'budget', detail: why.message };
    return { reason: 'aborted', detail: 'the abort signal fired' };
  }

  /**
   * Picks the winner (findBestNode: the best completed node, verified first) and ends the run. Its answer is the
   * output; without one, a synthesis call writes it, except after a timeout, abort, cost cap or backend failure,
   * where the best node so far is returned as it is. The synthesis is under the same deadline and cap as every other
   * call: a time limit or an abort that comes during it cuts it, and the run ends as timed out or aborted; a
   * synthesis the cap refuses ends the run as 'budget'.
   */
  private async finish(reason: FinishReason, detail: string | null): Promise<void> {
    if (this.tree.status === 'finished') return;
    const best = findBestNode(this.tree);
    const path = best ? pathTo(this.tree, best.id) : [];
    let output = best?.result?.isAnswer ? best.result.response : null;
    let finalReason = reason;
    let finalDetail = detail;
    const calls: ModelCallRecord[] = [];
    const cut = reason === 'aborted' || reason === 'timeout' || reason === 'budget' || reason === 'error';
    if (output === null && best && !cut) {
      this.commit();
      try {
        if (this.stopped()) throw this.abort.signal.reason;
        const outcome = await callModel(this.model, {
          purpose: 'synthesize',
          messages: this.task.buildSynthesisPrompt({
            goal: this.tree.goal,
            instructions: this.agent.instructions,
            path,
          }),
          signal: this.abort.signal,
          prices: this.options.prices,
          admission: this.gate.runningTicket(),
        });
        calls.push(outcome.record);
        output = outcome.text;
        if (outcome.text === null) finalDetail = `synthesis failed: ${outcome.record.error}`;
      } catch (error) {
        if (isBudgetReached(error) && !this.abort.signal.aborted) this.abort.abort(error);
        if (!this.abort.signal.aborted) throw error;
        const stop = this.abortedReason();
        finalReason = stop.reason;
        finalDetail = `${stop.detail} during the synthesis (the search had ended: ${reason})`;
      }
    }
    if (best?.result?.isAnswer && this.task.finalOutput) {
      try {
        output = await this.task.finalOutput(path, this.tree.goal, this.abort.signal);
      } catch (error) {
        const why = `the output could not be built from the winning path: ${error instanceof Error ? error.message : String(error)}`;
        finalDetail = finalDetail ? `${finalDetail}; ${why}` : why;
      }
    }
    const finalOutput = output ?? best?.result?.response ?? '';
    const answerSource = best?.result?.isAnswer ? 'node' : calls.length > 0 && output !== null ? 'synthesis' : 'none';
    this.emitCalls(null, calls);
    this.emit('run.finished', {
      reason: finalReason,
      detail: finalDetail,
      bestNodeId: best?.id ?? null,
      output: finalOutput,
      answerSource,
      success: best?.status === 'completed',
      verified: this.verifyOutput(finalOutput, answerSource, best),
    });
  }

  /** The task's check of the output; a winner's answer already checked at its node keeps that verdict. */
  private verifyOutput(output: string, source: AnswerSource, best: ThoughtNode | null): boolean | null {
    if (source === 'node' && best?.verification) return best.verification.passed;
    if (!this.task.verifyOutput) return null;
    if (source === 'none') return false;
    return this.task.verifyOutput(output, this.tree.goal)?.passed ?? null;
  }

  result(): ToTResult {
    const tree = this.tree;
    const best = tree.bestNodeId ? (tree.nodes[tree.bestNodeId] ?? null) : null;
    const bestPath = best ? pathTo(tree, best.id) : [];
    return {
      success: tree.success ?? false,
      output: tree.output ?? '',
      tree,
      bestPath,
      stats: { ...tree.stats, tokenUsage: { ...tree.stats.tokenUsage } },
      runId: tree.runId,
      agentId: tree.agentName,
      finishReason: tree.finishReason ?? 'error',
      verified: tree.verified,
      answerSource: tree.answerSource ?? 'none',
      usage: {
        inputTokens: tree.usage.inputTokens,
        outputTokens: tree.usage.outputTokens,
        totalTokens: tree.usage.inputTokens + tree.usage.outputTokens,
        cost: tree.usage.cost,
        duration: (tree.finishedAt ?? this.now()) - (tree.startedAt ?? this.now()),
      },
    };
  }
}

/** The cap that binds: the config's own, or what the run had spent plus this session's allowance, whichever is lower. */
function strictestCap(configCap: number | null, allowance: number | null, spent: number): number | null {
  const allowed = allowance === null ? null : spent + Math.max(0, allowance);
  if (configCap === null) return allowed;
  return allowed === null ? configCap : Math.min(configCap, allowed);
}

/** The largest completion (output tokens) among a log's model calls: the cost cap's guess of the next one. */
function largestCompletion(events: readonly ExplorationEvent[]): number {
  let largest = 0;
  for (const event of events) {
    if (event.type === 'model.called') largest = Math.max(largest, event.payload.usage.outputTokens);
  }
  return largest;
}

class TimeoutReason extends Error {
  constructor() {
    super('timeout');
    this.name = 'TimeoutReason';
  }
}
