/**
 * The run manager (server-only): starts engine runs in this process with a limit on how many run at once (the rest
 * wait as `queued`), hands the groups the engine commits to the log room's live writer (each group whole, several per
 * transaction under load; published once committed), and forwards a person's commands to the running engine. On startup, runs a dead server left `running` or `paused` become `interrupted` and continue from
 * their event log (automatically, or when asked).
 * A run's whole life is in its log: the engine writes run.started, run.paused, run.resumed and run.finished; this
 * manager writes what happens outside a search (run.queued, run.interrupted, run.failed, and the abort of a run that
 * never started) while the run is not live, so the engine and it never write the same seq. Every write goes through
 * the log room (run-log/: RunLog, its live batching for the engine's groups); nothing here touches a row itself.
 * In a cluster (PostgreSQL, lib/server/cluster) runs wait as jobs instead of in this process's queue: the instance
 * that claims a run's lease executes it, every batch is written only while that lease is held (checked inside the
 * batch's transaction), a run whose lease is lost is detached (stopped here, nothing more written: another instance
 * owns its log), and commands for a run executing elsewhere are forwarded to its instance.
 * A live run's calls in flight (the engine's count) go to its followers on this instance as a transient figure of
 * the bus, throttled (calls-in-flight.ts), never to the log.
 * Not responsible for the search (lib/engine), writing the log (run-log/), external runs (ingest/, which the routers
 * send their commands to) or the API's shape (trpc/).
 */
import { randomUUID } from 'node:crypto';
import type { ExplorationEvent } from '../../contract/events';
import type { ToTConfig } from '../../contract/vocabulary';
import { createEmptyTree, fold, resolveConfig, type ThoughtTree } from '../../engine/index';
import {
  ExplorationControl,
  forkedNodeId,
  forkEvents,
  type SteeringCommand,
  SteeringError,
  ThoughtTreeExecutor,
} from '../../engine/server';
import { getTaskEntry } from '../../tasks/index';
import type { PrismaClient } from '../db/client';
import { ConflictError, InputError, NotFoundError } from '../core/errors';
import { type Cluster, type ClusterHost, LeaseLostError } from '../cluster/index';
import { type Logger, loggerFromFunction } from '../core/logger';
import { type Recording, recordingFromEvents } from '../../models/index';
import { isTeamMode, loadPriceTable, readEnv } from '../core/env';
import { dailySpendGate, remainingDailyBudget } from './daily-budget';
import { type ModelSpec, modelSpecSchema } from '../../contract/model-spec';
import { createModel, modelLabel, specModelId } from './model-factory';
import {
  type AlsoWrite,
  createWriteState,
  drainWrites,
  dropPending,
  type EventDraft,
  enqueueWrite,
  EventAppendError,
  listEvents,
  type RunLog,
  type RunWriteState,
  type RunWriterDeps,
  STREAMS_CLOSING,
} from '../run-log/index';
import { copyDiscussion } from '../repositories/discussion';
import { externalRunIds } from '../repositories/ingest';
import type { RunRecord } from '../../contract/run';
import { findRunsByStatus, getRun } from '../repositories/runs';
import { hasEnded } from '../../contract/run-status';
import type { Breakpoint } from '../../contract/breakpoints';
import { admitNewRun, type Caller } from './policy';
import { CallsInFlightRelay } from './calls-in-flight';

/**
 * Whether a failed write means the log is no longer this instance's to write (cluster mode): its lease was taken over,
 * another writer's events are there (duplicate, gap), or the run was deleted. Such a run is detached, never failed.
 */
export function lostTheLog(error: unknown): boolean {
  if (error instanceof LeaseLostError) return true;
  return error instanceof EventAppendError && ['duplicate', 'gap', 'run-missing'].includes(error.reason);
}

export interface RunManagerOptions {
  prisma: PrismaClient;
  /** The one writer of every run's log. */
  runLog: RunLog;
  /** Runs executing at once; the rest wait as queued. */
  maxConcurrentRuns: number;
  /** After a restart: continue interrupted runs at once, or only when a person asks. */
  resumeMode: 'auto' | 'manual';
  /** The logger (a plain function is taken as text lines, as before the structured logger). */
  log?: Logger | ((message: string) => void);
  /** Cluster mode (PostgreSQL): runs wait as jobs and execute under a lease (lib/server/cluster). Absent: this process. */
  cluster?: Cluster;
  /** This instance's name (the cluster's, when there is one). */
  instanceId?: string;
}

export interface ForkRunInput {
  runId: string;
  nodeId: string;
  /** The node's thought edited by hand (it then runs again with it). */
  thought?: string | null;
  /** Config changes for the fork (strategy, beam width, ...); the rest is the source run's. */
  config?: Partial<ToTConfig>;
  model?: ModelSpec;
  actor?: string;
  /** The user the new run belongs to (team mode). */
  ownerId?: string | null;
  /** Who asks, for the policy (goal, model, budget: policy.ts). */
  caller?: Caller;
}

export interface StartRunInput {
  taskId: string;
  goal: string;
  config?: Partial<ToTConfig>;
  model: ModelSpec;
  /** Who started it (kept for the record). */
  actor?: string;
  /** The user it belongs to (team mode). */
  ownerId?: string | null;
  /** The breakpoints it starts with: a breakpoints.set after its run.queued, so the search judges from its first step. */
  breakpoints?: Breakpoint[];
  /** Who asks, for the policy (goal, model, budget: policy.ts); absent for the server's own runs (the demo). */
  caller?: Caller;
  /** The new run's id, when its producer must name it before it exists (an experiment's cell claims it). */
  id?: string;
  /**
   * Written in the run's own creation transaction (an experiment's cell claimed for it): when it throws, the run is
   * not created.
   */
  alsoWrite?: AlsoWrite;
}

interface LiveRun extends RunWriteState {
  control: ExplorationControl;
  /** The engine's count of calls in flight, on its way to the run's followers (not the log). */
  callsInFlight: CallsInFlightRelay;
  /** Settles when the run has stopped and everything is written. */
  done: Promise<void>;
}

/**
 * The source nodes a fork's seed copied, each to the fork's own copy and the step (seq) that made it: every
 * node.restored names its source node (`from`); the fork's root, created afresh, stands for the source's root. A node
 * whose thought was edited in the fork is left out: what was said of it was said of words it no longer has.
 */
function forkedNodes(
  seed: readonly ExplorationEvent[],
  source: ThoughtTree,
): Map<string, { nodeId: string; step: number }> {
  const nodes = new Map<string, { nodeId: string; step: number }>();
  for (const event of seed) {
    if (event.type === 'node.created' && event.payload.parentId === null && source.rootId !== null)
      nodes.set(source.rootId, { nodeId: event.payload.nodeId, step: event.seq });
    if (event.type !== 'node.restored' || !event.payload.from) continue;
    const original = source.nodes[event.payload.from.nodeId];
    if (original && original.branch?.thought !== event.payload.branch?.thought) continue;
    nodes.set(event.payload.from.nodeId, { nodeId: event.payload.nodeId, step: event.seq });
  }
  return nodes;
}

/** A run.queued payload with who asked, when someone did (an automatic resume after a restart has no actor). */
function withActor<P extends { reason: 'new' | 'fork' | 'resume' }>(payload: P, actor: string | undefined) {
  return actor ? { ...payload, actor } : payload;
}

export class RunManager implements ClusterHost {
  private readonly live = new Map<string, LiveRun>();
  private readonly waiting: string[] = [];
  private readonly log: Logger;
  private readonly cluster: Cluster | null;
  private draining = false;

  constructor(private readonly options: RunManagerOptions) {
    const log = options.log ?? ((message: string) => console.log(`[arborist] ${message}`));
    this.log = typeof log === 'function' ? loggerFromFunction(log) : log;
    this.cluster = options.cluster ?? null;
  }

  private get runLog(): RunLog {
    return this.options.runLog;
  }

  /** This instance's name (logs, leases, the health endpoint). */
  get instanceId(): string {
    return this.cluster?.instanceId ?? this.options.instanceId ?? 'local';
  }

  /** Whether this instance is draining (graceful shutdown): it takes no new runs, and its health says 503. */
  get shuttingDown(): boolean {
    return this.draining;
  }

  /** Runs executing in this process now. */
  get executingHere(): number {
    return this.live.size;
  }

  /** A stored queued run waits for a slot: a job in a cluster (any instance may take it), else this process's queue. */
  private async dispatch(runId: string): Promise<void> {
    if (this.cluster) return this.cluster.enqueue(runId);
    if (!this.waiting.includes(runId) && !this.live.has(runId)) this.waiting.push(runId);
    this.schedule();
  }

  /** Validates, stores the run as queued and starts it when a slot is free. */
  async create(input: StartRunInput): Promise<RunRecord> {
    const entry = (() => {
      try {
        return getTaskEntry(input.taskId);
      } catch (error) {
        throw new InputError('taskId', (error as Error).message);
      }
    })();
    const goal = input.goal.trim();
    const requested = modelSpecSchema.parse(input.model);
    // a replay answers the recorded calls of another run: the same task and goal, so the same prompts come up (its
    // source is read once, here, for the policy and the run alike)
    const source = requested.provider === 'replay' ? await getRun(this.options.prisma, requested.recordingRunId) : null;
    const admitted = input.caller
      ? await admitNewRun(this.options.prisma, input.caller, {
          taskId: source?.taskId ?? input.taskId,
          goal: source?.goal ?? goal,
          model: requested,
          config: input.config ?? {},
        })
      : (input.config ?? {});
    // the contract's check (the same words as the form's), then the server's own (a bench project or folder exists)
    const problem = entry.validateGoal(goal) ?? entry.task.validateGoal?.(goal) ?? null;
    if (problem) throw new InputError('goal', problem);
    let config: ToTConfig;
    try {
      config = resolveConfig(admitted);
    } catch (error) {
      const issue = (error as { issues?: { path: string; message: string }[] }).issues?.[0];
      throw new InputError(issue ? `config.${issue.path}` : 'config', (error as Error).message);
    }
    const model = requested;
    let modelId = specModelId(model);
    let label = modelLabel(model);
    let task: string = entry.id;
    let replayGoal = goal;
    if (model.provider === 'replay') {
      if (!source) throw new InputError('model', `no run ${model.recordingRunId} to replay`);
      modelId = source.modelId;
      label = `${source.modelId} (replay)`;
      task = source.taskId;
      replayGoal = source.goal;
    }
    const breakpoints = input.breakpoints ?? [];
    const { record } = await this.runLog.open(
      {
        ...(input.id && { id: input.id }),
        taskId: task,
        goal: replayGoal,
        modelId,
        modelLabel: label,
        modelSettings: model,
        config,
        seed: model.seed,
        ownerId: input.ownerId ?? null,
      },
      [
        { type: 'run.queued', payload: withActor({ reason: 'new' }, input.actor) },
        ...(breakpoints.length > 0
          ? [{ type: 'breakpoints.set' as const, payload: { breakpoints, actor: input.actor ?? 'person' } }]
          : []),
      ],
      input.alsoWrite ? { also: input.alsoWrite } : {},
    );
    await this.dispatch(record.id);
    return record;
  }

  /**
   * A new run whose tree starts as the path to a node of another run (live, finished or imported), with the node's
   * thought optionally edited and its own config and model. Its seed events are stored at once, with the discussion
   * of the path's nodes copied onto the fork's copies (comments on the run as a whole and on other nodes stay with
   * the source); it then runs like any run with a log.
   */
  /** A new run from a node of another; `nodeId` is the fork's own copy of that node (ids are renumbered). */
  async fork(input: ForkRunInput): Promise<{ run: RunRecord; nodeId: string }> {
    const prisma = this.options.prisma;
    const source = await getRun(prisma, input.runId);
    if (!source) throw new NotFoundError(`no run ${input.runId}`);
    const sourceTree = fold(await listEvents(prisma, input.runId), createEmptyTree(input.runId));
    if (sourceTree.external) {
      // its task is a label here and its search is a program elsewhere: the engine has nothing to continue it with
      throw new ConflictError(
        'this search runs outside Arborist: the engine cannot continue it, so it cannot be forked',
      );
    }
    const node = sourceTree.nodes[input.nodeId];
    if (!node) throw new InputError('nodeId', `no node ${input.nodeId} in run ${input.runId}`);
    if (input.thought !== undefined && input.thought !== null && !input.thought.trim()) {
      throw new InputError('thought', 'the edited thought is empty');
    }
    if (!node.branch && input.thought)
      throw new InputError('thought', 'the root is the goal: fork from a node below it');
    // a fork without a model of its own runs on its parent's: that spec must be one this caller may use too
    const sourceModel = modelSpecSchema.safeParse(source.modelSettings);
    const ownCap = input.config && 'maxCostUsd' in input.config ? input.config.maxCostUsd : source.config.maxCostUsd;
    const changes = input.caller
      ? await admitNewRun(prisma, input.caller, {
          taskId: source.taskId,
          goal: source.goal,
          model: input.model ?? (sourceModel.success ? sourceModel.data : null),
          config: { ...(input.config ?? {}), maxCostUsd: ownCap ?? null },
        })
      : (input.config ?? {});
    let config: ToTConfig;
    try {
      config = resolveConfig({ ...source.config, ...changes });
    } catch (error) {
      const issue = (error as { issues?: { path: string; message: string }[] }).issues?.[0];
      throw new InputError(issue ? `config.${issue.path}` : 'config', (error as Error).message);
    }
    const model = modelSpecSchema.parse(
      input.model ?? (sourceModel.success ? sourceModel.data : { provider: 'simulated', seed: source.seed ?? 1 }),
    );
    const id = randomUUID();
    const seed = forkEvents({
      runId: id,
      source: sourceTree,
      nodeId: input.nodeId,
      editedThought: input.thought ?? null,
      config,
      agentName: 'arborist',
      modelId: specModelId(model),
    });
    const { record } = await this.runLog.open(
      {
        id,
        taskId: source.taskId,
        goal: source.goal,
        modelId: specModelId(model),
        modelLabel: modelLabel(model),
        modelSettings: model,
        config,
        seed: model.seed,
        parentRunId: source.id,
        parentNodeId: input.nodeId,
        ownerId: input.ownerId ?? null,
      },
      // the seed (the path to the node, numbered from 1 by forkEvents), then the run waits like any new one
      [
        ...seed.map(({ type, payload, ts }) => ({ type, payload, ts }) as EventDraft),
        { type: 'run.queued', payload: withActor({ reason: 'fork' }, input.actor) },
      ],
      // the comments and labels of the path's nodes onto the fork's copies, in the fork's own creation transaction
      // (nobody follows the fork yet: nothing to announce)
      { also: (tx) => copyDiscussion(tx, source.id, id, forkedNodes(seed, sourceTree)).then(() => {}) },
    );
    await this.dispatch(id);
    return { run: record, nodeId: forkedNodeId(seed) };
  }

  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  /** Settles when a live run has stopped and all its events are written (at once if it is not live). */
  async settled(runId: string): Promise<void> {
    await this.live.get(runId)?.done;
  }

  /** A person's command; throws NotFoundError or ConflictError (with a reason a person can read). */
  async command(runId: string, command: SteeringCommand, attempt = 1): Promise<void> {
    if (this.live.has(runId)) return this.applyCommand(runId, command);
    if (this.cluster) {
      // executing on another instance: the command goes to it, and its answer (or refusal) comes back
      const owner = await this.cluster.ownerOf(runId);
      if (owner && owner !== this.cluster.instanceId) return this.cluster.forward(runId, owner, command);
    }
    const record = await getRun(this.options.prisma, runId);
    if (!record) throw new NotFoundError(`no run ${runId}`);
    if (record.status === 'queued') {
      if (command.type !== 'abort') throw new ConflictError('the run is queued and has not started yet');
      this.removeWaiting(runId);
      // it never ran in this life: it ends with no answer (a run queued again after a restart keeps its tree)
      try {
        await this.abortQueued(runId, command.actor);
      } catch (error) {
        // in a cluster an instance may have claimed and started it meanwhile (its run.started took the seq): the
        // abort goes to that instance instead
        if (this.cluster && error instanceof EventAppendError && attempt < 3) {
          return this.command(runId, command, attempt + 1);
        }
        throw error;
      }
      return;
    }
    if (record.status === 'interrupted') {
      if (command.type === 'resume') return this.resumeInterrupted(runId, command.actor);
      throw new ConflictError('the run was interrupted by a server restart: resume it first');
    }
    if (hasEnded(record.status)) throw new ConflictError('the run has finished');
    throw new ConflictError(`the run is ${record.status} but not running in this server`);
  }

  /** A command applied to a run live here (a person's, or one another instance forwarded). */
  applyCommand(runId: string, command: SteeringCommand): void {
    const live = this.live.get(runId);
    if (!live || live.detached) throw new ConflictError('the run is not running on this server');
    try {
      live.control.send(command);
    } catch (error) {
      if (error instanceof SteeringError) throw new ConflictError(error.message);
      throw error;
    }
  }

  /** A queued run aborted: steer.abort and run.finished (aborted) in its log; a job still waiting finds it ended. */
  private async abortQueued(runId: string, actor: string): Promise<void> {
    await this.writeLifecycle(runId, [
      { type: 'steer.abort', payload: { actor } },
      {
        type: 'run.finished',
        payload: {
          reason: 'aborted',
          detail: 'aborted while queued',
          bestNodeId: null,
          output: '',
          answerSource: 'none',
          success: false,
          verified: null,
        },
      },
    ]);
  }

  /** Continues an interrupted run from its event log. */
  async resumeInterrupted(runId: string, actor?: string): Promise<void> {
    const record = await getRun(this.options.prisma, runId);
    if (!record) throw new NotFoundError(`no run ${runId}`);
    if (record.status !== 'interrupted') throw new ConflictError(`the run is ${record.status}, not interrupted`);
    await this.writeLifecycle(runId, [{ type: 'run.queued', payload: withActor({ reason: 'resume' }, actor) }]);
    await this.dispatch(runId);
  }

  /** Stops a live run if needed, then deletes it with its events and nodes. */
  async delete(runId: string): Promise<void> {
    const live = this.live.get(runId);
    if (live) {
      live.abort.abort();
      await live.done;
    }
    this.removeWaiting(runId);
    // every instance's streams hear it (in a cluster an instance executing it elsewhere loses its lease and stops)
    if (!(await this.runLog.delete(runId))) throw new NotFoundError(`no run ${runId}`);
  }

  /**
   * Startup: runs left running or paused by a dead server become interrupted (and continue, in auto mode);
   * queued runs wait again in their order.
   */
  async recover(): Promise<{ interrupted: string[]; resumed: string[] }> {
    // a cluster's running runs may be live on other instances: only those whose lease lapsed are taken over
    if (this.cluster) return this.cluster.start(this);
    // external runs are left to the ingest sweeper: their search is a program elsewhere, which may still be sending
    // (their silence is counted from this start)
    const found = await findRunsByStatus(this.options.prisma, ['running', 'paused']);
    const external = await externalRunIds(
      this.options.prisma,
      found.map((r) => r.id),
    );
    const stale = found.filter((r) => !external.has(r.id));
    const queued = await findRunsByStatus(this.options.prisma, ['queued']);
    const auto = this.options.resumeMode === 'auto';
    for (const run of stale) {
      await this.writeLifecycle(run.id, [
        { type: 'run.interrupted', payload: { reason: `the server stopped while the run was ${run.status}` } },
        ...(auto ? [{ type: 'run.queued' as const, payload: { reason: 'resume' as const } }] : []),
      ]);
    }
    const resumed = auto ? stale.map((r) => r.id) : [];
    for (const run of [...queued].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
      if (!this.waiting.includes(run.id) && !this.live.has(run.id)) this.waiting.push(run.id);
    }
    for (const id of resumed) this.waiting.push(id);
    if (stale.length)
      this.log.info(`${stale.length} run(s) interrupted by the last shutdown; ${resumed.length} resuming`);
    this.schedule();
    return { interrupted: stale.map((r) => r.id), resumed };
  }

  /**
   * Graceful shutdown: this instance takes no more runs; each live run stops with nothing more written (its unwritten
   * events dropped). In a cluster each is handed back (run.interrupted + run.queued, its lease released, a job
   * added) so another instance resumes it at once; on SQLite they stay `running` and the next start recovers them.
   * Then every stream ends, so browsers reconnect (to another instance, behind a load balancer).
   */
  async shutdown(): Promise<{ handedBack: string[]; stopped: string[] }> {
    this.draining = true;
    this.waiting.length = 0;
    let handedBack: string[] = [];
    const stopped: string[] = [];
    if (this.cluster) {
      handedBack = await this.cluster.shutdown();
    } else {
      const ids = [...this.live.keys()];
      await Promise.all(ids.map((id) => this.detach(id, 'shutting down')));
      stopped.push(...ids);
    }
    this.runLog.bus.closeAll(STREAMS_CLOSING);
    this.log.info('shut down', { handedBack: handedBack.length, stopped: stopped.length });
    return { handedBack, stopped };
  }

  /**
   * Test-only: this instance dies as under kill -9: its runs stop and nothing more is written (no event, no lease
   * released, no notification); in a cluster another instance takes them over once their leases lapse.
   */
  async crash(): Promise<void> {
    this.draining = true;
    this.waiting.length = 0;
    if (this.cluster) await this.cluster.crash();
    await Promise.all([...this.live.keys()].map((id) => this.detach(id, 'crashed')));
  }

  /** Executes a run this instance claimed in the cluster; settles when it has stopped here. */
  async executeClaimed(runId: string): Promise<void> {
    if (!this.live.has(runId)) this.launch(runId);
    await this.live.get(runId)?.done;
  }

  /** Stops a live run at once with nothing more written (its pending events dropped); settles when it has stopped. */
  async detach(runId: string, why: string): Promise<void> {
    const live = this.live.get(runId);
    if (!live) return;
    if (!live.detached) this.log.info(`run detached: ${why}`, { runId });
    live.detached = true;
    live.callsInFlight.stop(); // another instance may run it now: its figure is not this one's to say
    dropPending(live);
    live.abort.abort(new Error(`detached: ${why}`));
    await live.done;
  }

  /**
   * A run whose execution stopped outside its search (taken over from a dead instance, handed back on shutdown):
   * run.interrupted with the reason, then run.queued when it is to resume. Nothing when its log says it is not
   * running or paused (a claimed run that never started is still queued).
   */
  async interrupt(runId: string, reason: string, requeue: boolean): Promise<void> {
    const tree = await this.runLog.storedTree(runId);
    if (tree.status !== 'running' && tree.status !== 'paused') return;
    await this.runLog.append(
      runId,
      [
        { type: 'run.interrupted', payload: { reason } },
        ...(requeue ? [{ type: 'run.queued' as const, payload: { reason: 'resume' as const } }] : []),
      ],
      { tree },
    );
  }

  /** Stops every live run (tests, shutdown) and waits for their writes. */
  async stopAll(): Promise<void> {
    this.waiting.length = 0;
    const runs = [...this.live.values()];
    for (const run of runs) run.abort.abort();
    await Promise.allSettled(runs.map((r) => r.done));
    await this.cluster?.close();
  }

  private removeWaiting(runId: string) {
    const index = this.waiting.indexOf(runId);
    if (index >= 0) this.waiting.splice(index, 1);
  }

  private schedule(): void {
    if (this.draining || this.cluster) return;
    while (this.live.size < this.options.maxConcurrentRuns && this.waiting.length > 0) {
      const id = this.waiting.shift() as string;
      if (this.live.has(id)) continue;
      this.launch(id);
    }
  }

  /** Registers the run as live at once (so the concurrency limit holds), then runs it to the end. */
  private launch(runId: string): void {
    let finish!: () => void;
    const run: LiveRun = {
      ...createWriteState(runId, createEmptyTree(runId)),
      control: new ExplorationControl(),
      callsInFlight: new CallsInFlightRelay({
        send: (callsInFlight) => this.runLog.bus.publishLive(runId, { callsInFlight }),
      }),
      done: new Promise<void>((resolve) => (finish = resolve)),
    };
    this.live.set(runId, run);
    void this.execute(run)
      .catch((error: unknown) => this.log.error('run failed', { runId, error }))
      .finally(async () => {
        this.live.delete(runId);
        run.callsInFlight.stop();
        this.runLog.bus.clearLive(runId);
        // a run whose log ended was ended by the log room with the batch that ended it (snapshot, streams closed);
        // one that stopped otherwise (a write failed, even after the tree in memory ended) has its streams closed and
        // Prisma's queries forgotten here. A detached run's log goes on elsewhere (or after the next start): its
        // streams keep waiting for it.
        if (!run.detached && !run.endedByLog) await this.runLog.end(runId, null, 'stopped');
        finish();
        this.schedule();
      });
  }

  private async execute(run: LiveRun): Promise<void> {
    const prisma = this.options.prisma;
    const record = await getRun(prisma, run.id);
    if (!record) return;
    try {
      const spec = modelSpecSchema.parse(record.modelSettings ?? { provider: 'simulated', seed: record.seed ?? 1 });
      const env = readEnv();
      // a replay's recording is the model.called events of the run it replays
      const recordings = new Map<string, Recording>();
      if (spec.provider === 'replay') {
        const source = await listEvents(prisma, spec.recordingRunId);
        if (source.length) recordings.set(spec.recordingRunId, recordingFromEvents(source));
      }
      const agent = { name: 'arborist', model: createModel(spec, { env, recordings, team: isTeamMode(env) }) };
      const task = getTaskEntry(record.taskId).task;
      const executor = new ThoughtTreeExecutor(record.config);
      const options = {
        runId: run.id,
        task,
        control: run.control,
        abortSignal: run.abort.signal,
        onCommit: (group: ExplorationEvent[]) => this.enqueueWrite(run, group),
        onCallsInFlight: (count: number) => run.callsInFlight.report(count),
        prices: loadPriceTable(env),
        // team mode's daily budget: what the run's owner may still spend today, read as it starts (a queued run may
        // start hours after it was made, and a resume continues on the day it resumes)
        spendAllowanceUsd: record.ownerId ? await remainingDailyBudget(prisma, record.ownerId, new Date(), env) : null,
        // and while it runs, each call held against the owner's day in the database (other runs, other instances)
        spendGate: record.ownerId ? dailySpendGate(prisma, record.ownerId, env) : null,
        // a fork's first start continues its seed log: nothing was interrupted
        announceResume: record.startedAt !== null,
      };
      // only while this instance holds the run (a stall past its lease lets another claim it)
      await this.runLog.markRunning(run.id, record.startedAt ?? new Date(), this.writerDeps);
      // the log so far: at least its run.queued (none in a database written before lifecycle events)
      const events = record.lastSeq > 0 ? await listEvents(prisma, run.id) : [];
      run.tree = fold(events, createEmptyTree(run.id));
      if (run.tree.rootId) {
        // A run with a search in its log continues from it: a fork, after a restart, or queued again after one.
        this.log.info(`resuming from seq ${record.lastSeq}`, { runId: run.id });
        await executor.resume(agent, events, options);
      } else {
        await executor.explore(agent, record.goal, { ...options, log: events });
      }
      await this.drain(run);
      if (run.writeError) throw run.writeError;
    } catch (error) {
      await this.drain(run).catch(() => undefined);
      if (run.detached || (this.cluster && lostTheLog(error))) {
        // another instance owns the log now (or this one is going away): nothing more of this run is written here
        run.detached = true;
        this.log.warn("run stopped here: its log is no longer this instance's to write", { runId: run.id, error });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      try {
        await this.writeLifecycle(run.id, [{ type: 'run.failed', payload: { error: message } }]);
        run.endedByLog = true; // the log room ended it with that batch
      } catch (writeError) {
        // the database itself failed (it may be why the run failed): the row says failed if it still can, and a
        // page watching learns it when the stream closes (it reads the row again then)
        this.log.error('run.failed not written', { runId: run.id, error: writeError });
        await this.runLog.markFailedOutsideLog(run.id, message);
      }
      throw error;
    }
  }

  /**
   * Appends events of the run's life written outside a search, after the stored log (only while the run is not live:
   * the engine owns the seqs then). The log room folds what is stored, not the run's in-memory tree: after a failed
   * write that tree holds events the database never took, and the next seq must follow what is stored.
   */
  private async writeLifecycle(runId: string, drafts: EventDraft[]): Promise<void> {
    await this.runLog.append(runId, drafts);
  }

  private enqueueWrite(run: LiveRun, group: ExplorationEvent[]): void {
    enqueueWrite(this.writerDeps, run, group);
  }

  private async drain(run: LiveRun): Promise<void> {
    await drainWrites(run);
  }

  private get writerDeps(): RunWriterDeps {
    const cluster = this.cluster;
    if (!cluster) return { runLog: this.runLog };
    return {
      runLog: this.runLog,
      fence: (tx, runId) => cluster.holds(tx, runId),
      fenceError: (runId) => new LeaseLostError(runId),
      lostTheLog,
    };
  }
}
