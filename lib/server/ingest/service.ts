/**
 * External runs (the ingest API's server side): a program that runs its own tree search creates a run, appends its
 * items in idempotent batches, polls for the commands people aim at it and answers them, and shows it is alive.
 * Every write of one run goes through one queue (queue.ts): a client's batch, a person's steering request and the
 * sweeper's interruption each fold onto the stored end of the log and hand the events to the log room (RunLog.commit:
 * one transaction with the node projection, the row's summary and, beside them, the client's numbering; then
 * published, and the run ended there when the batch ended it), so a page watching sees an external run exactly like
 * one the engine runs. A client's events are judged against the run's
 * breakpoints as they are folded (the engine's judge): a hit asks the client to pause, in the same write.
 * Made beside the run manager (services.ts), which knows nothing of it: the routers send a person's commands for an
 * external run here (trpc/steer.ts).
 * Not responsible for HTTP, bodies or who may call it (http.ts, body.ts), checking items (validate.ts) or turning
 * operations into events (to-events.ts).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { BreakpointHit } from '../../contract/breakpoints';
import type { ExplorationEvent } from '../../contract/events';
import {
  BREAKPOINT_ACTOR,
  ingestCreateSchema,
  ingestFinishSchema,
  type IngestAppended,
  type IngestCommand,
  type IngestCommands,
  type IngestCreated,
  type IngestHeartbeat,
  type IngestItem,
} from '../../contract/ingest';
import { externalBreakpointBlock, externalSteerBlock } from '../../contract/steering';
import {
  createEmptyTree,
  fold,
  judgeEvent,
  resolveConfig,
  treeHitContext,
  type ThoughtNode,
  type ThoughtTree,
} from '../../engine/index';
import {
  EventAppendError,
  type EventDraft,
  foldTouched,
  listEvents,
  numberDrafts,
  type RunLog,
} from '../run-log/index';
import { checkCommand, type SteeringCommand } from '../../engine/server';
import { checkEventFieldCaps, foldChecked } from '../../formats/index';
import type { PrismaClient } from '../db/client';
import { ConflictError } from '../core/errors';
import {
  createIngestClient,
  getIngestClient,
  ingestClientOfTrace,
  type IngestClientRecord,
  silentIngestRuns,
  storedItemHashes,
  storeIngestItems,
  touchIngestClient,
} from '../repositories/ingest';
import { getRun } from '../repositories/runs';
import { itemHash } from './canonical';
import { KeyedQueue } from './queue';
import { IngestRefusal, invalidBatch } from './refusal';
import { finishEvent, itemEvents } from './to-events';
import { validateBatch, formatPath } from './validate';
import { hasEnded } from '../../contract/run-status';

export interface IngestOptions {
  prisma: PrismaClient;
  /** The one writer of every run's log (its bus wakes a poll when another instance writes a command). */
  runLog: RunLog;
  /** A running or paused external run whose client is silent this long is marked interrupted. */
  timeoutMs: number;
  /** How often a client is asked to show it is alive (the create response says so). */
  heartbeatMs: number;
  log: (message: string) => void;
}

/** The longest a commands poll waits, and at most half the timeout: a client in a poll must not look silent. */
export const MAX_POLL_WAIT_MS = 25_000;

/** Who creates an external run. */
export interface IngestCreator {
  ownerId: string | null;
  actor: string;
}

/** The run a trace is, as the trace receiver (lib/server/otel) continues it. */
export interface TraceRunState {
  runId: string;
  ownerId: string | null;
  status: string;
  /** The client seq the receiver's next item must have. */
  nextSeq: number;
  nodeIds: string[];
}

/** A run's state as loaded inside its queue. */
interface Loaded {
  client: IngestClientRecord;
  tree: ThoughtTree;
}

/** What a commit writes besides the events: the client's items (and its numbering), or only that it was heard. */
interface ClientWrite {
  items?: { clientSeq: number; hash: string }[];
  /** The client itself sent this request (false: a person's steering request, the sweeper). */
  heard: boolean;
}

const LIVE = new Set(['running', 'paused']);

/** A 400 naming the fields of a request's body (create, finish). */
function invalidBody(error: z.ZodError): IngestRefusal {
  return invalidBatch(
    error.issues.map((i) => ({ path: formatPath('', i.path).slice(1) || '(body)', message: i.message })),
  );
}

/**
 * How long one write keeps trying while another instance's writes overtake it; past it the error reaches the caller.
 * A write loses only to a commit made between its read of the log's end and its own commit (tens of milliseconds), so
 * at a client's pace (the SDK sends every 250 ms) the next try wins. A client sending back to back without a pause
 * through one instance can still starve a person's write through another for this long: no lock spans the read.
 */
const WRITE_RETRY_MS = 10_000;

/** Another writer moved the run's log between this write's read of its end and its commit (nothing was written). */
function lostTheRace(error: unknown): boolean {
  return error instanceof EventAppendError && error.reason === 'duplicate';
}

function notFound(runId: string): IngestRefusal {
  return new IngestRefusal(404, { error: 'not-found', message: `no ingest run ${runId}` });
}

export class IngestRuns {
  private readonly queue = new KeyedQueue();
  /** Each external run's tree as last written (valid while its lastSeq is the row's); only touched in the queue. */
  private readonly trees = new Map<string, ThoughtTree>();
  /** Commands polls waiting, per run. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** A run the last server left running has its silence counted from this server's start. */
  private readonly bootedAt = Date.now();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly options: IngestOptions) {}

  /**
   * A write of `runId`, after the run's earlier writes here (the queue). Across instances the log room's fence decides:
   * a write built on an end of the log another instance has since moved (a person steering through A while the
   * client appends through B) is refused whole by the compare-and-set on the run's lastSeq, and is built again here on
   * the new end, so neither the client nor the person sees the cluster's race. A client's retried batch is then
   * recognised as stored (duplicates), as on one instance.
   */
  private write<T>(runId: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(runId, async () => {
      const giveUpAt = Date.now() + WRITE_RETRY_MS;
      for (;;) {
        try {
          return await task();
        } catch (error) {
          if (!lostTheRace(error) || Date.now() > giveUpAt) throw error;
          this.trees.delete(runId);
          // the other writer is mid-flight: a short, uneven pause lets it finish before this one reads the end again
          await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 20));
        }
      }
    });
  }

  get heartbeatMs(): number {
    return this.options.heartbeatMs;
  }

  /** Whether an ingest client streams this run (it is external: Arborist never runs its search). */
  async isExternal(runId: string): Promise<boolean> {
    return (await getIngestClient(this.options.prisma, runId)) !== null;
  }

  /** A new external run, running at once: run.queued and run.started (with the program's config and commands). */
  async create(body: unknown, creator: IngestCreator, options: { traceId?: string } = {}): Promise<IngestCreated> {
    const parsed = ingestCreateSchema.safeParse(body);
    if (!parsed.success) throw invalidBody(parsed.error);
    const input = parsed.data;
    const runId = randomUUID();
    const now = Date.now();
    // the engine's defaults, with nothing cut by its evaluator's threshold and no early stop: the program decides
    const config = resolveConfig({ confidenceThreshold: 0, terminationConfidence: 1 });
    const { tree } = await this.options.runLog.open(
      {
        id: runId,
        taskId: input.task,
        goal: input.goal,
        modelId: input.model,
        modelLabel: input.model,
        config,
        ownerId: creator.ownerId,
      },
      [
        { type: 'run.queued', payload: { reason: 'new', actor: creator.actor } },
        {
          type: 'run.started',
          payload: {
            goal: input.goal,
            taskId: input.task,
            agentName: input.agent,
            modelId: input.model,
            config,
            external: { config: input.config, commands: input.commands },
          },
        },
        ...(input.breakpoints?.length
          ? [{ type: 'breakpoints.set' as const, payload: { breakpoints: input.breakpoints, actor: creator.actor } }]
          : []),
      ].map((draft) => ({ ...draft, ts: now }) as EventDraft),
      // the client's row in the same transaction: the run is external from its first event
      { also: (tx) => createIngestClient(tx, runId, new Date(now), options.traceId ?? null), startedAt: new Date(now) },
    );
    this.trees.set(runId, tree);
    return { runId, url: `/runs/${runId}`, nextSeq: 1, heartbeatMs: this.options.heartbeatMs };
  }

  /**
   * The run an OpenTelemetry trace is (lib/server/otel), as the trace receiver continues it: where the client's
   * numbering stands and the nodes the run has; null when no run has the trace.
   */
  async traceRun(traceId: string): Promise<TraceRunState | null> {
    const client = await ingestClientOfTrace(this.options.prisma, traceId);
    if (!client) return null;
    return this.write(client.runId, async () => {
      const { client: current, tree } = await this.load(client.runId);
      const run = await getRun(this.options.prisma, client.runId);
      return {
        runId: client.runId,
        ownerId: run?.ownerId ?? null,
        status: tree.status,
        nextSeq: current.lastClientSeq + 1,
        nodeIds: Object.keys(tree.nodes),
      };
    });
  }

  /**
   * A batch of raw items: checked whole (400 naming the item, nothing written), retries recognised by seq and hash
   * (stored once; a different item under a stored seq is a 409 conflict), the first new seq must follow the stored
   * ones (else a 409 gap), and the new events must fold onto the stored tree; then all is written in one transaction.
   */
  async append(runId: string, raw: readonly unknown[]): Promise<IngestAppended> {
    const checked = validateBatch(raw);
    if ('issues' in checked) throw invalidBatch(checked.issues);
    const items = checked.items;
    return this.write(runId, async () => {
      const { client, tree } = await this.load(runId);
      const last = client.lastClientSeq;
      const firstNew = items.findIndex((item) => item.seq > last);
      const repeated = firstNew < 0 ? items : items.slice(0, firstNew);
      const fresh = firstNew < 0 ? [] : items.slice(firstNew);
      await this.checkRepeats(runId, repeated, last);
      if (fresh.length > 0 && fresh[0]!.seq !== last + 1) {
        throw new IngestRefusal(409, {
          error: 'gap',
          expectedSeq: last + 1,
          message: `items[${firstNew}] has seq ${fresh[0]!.seq}, but the next item must be seq ${last + 1}: send the missing items first`,
        });
      }
      if (fresh.length > 0 && hasEnded(tree.status)) {
        throw new IngestRefusal(409, {
          error: 'closed',
          expectedSeq: last + 1,
          message: `the run has ${tree.status}: it takes no more items`,
        });
      }
      const drafts: EventDraft[] = this.revival(tree);
      const origin: number[] = drafts.map(() => -1);
      const times: number[] = drafts.map(() => Date.now());
      for (const [i, item] of fresh.entries()) {
        const made = itemEvents(item, tree.modelId);
        drafts.push(...made);
        for (const _ of made) {
          origin.push(firstNew + i);
          times.push(item.ts ?? Date.now());
        }
      }
      const events = numberDrafts(
        runId,
        tree.lastSeq,
        drafts.map((d, i) => ({ ...d, ts: times[i]! }) as EventDraft),
      );
      const { nodes, hit } = this.foldBatch(runId, tree, events, (index, message) => {
        const at = origin[index]!;
        return { path: `items[${at}]`, message: `seq ${items[at]!.seq}: ${message}` };
      });
      // a breakpoint hit on the client's events: ask it to pause, in the same write (its poll wakes on it)
      const pause = hit && this.breakpointPause(runId, tree, hit, events.at(-1)?.seq ?? tree.lastSeq);
      if (pause) events.push(pause);
      const stored = fresh.map((item) => ({ clientSeq: item.seq, hash: itemHash(item) }));
      await this.commit(runId, tree, events, nodes, { items: stored, heard: true });
      return {
        accepted: fresh.length,
        duplicates: repeated.length,
        nextSeq: (fresh.at(-1)?.seq ?? last) + 1,
        status: tree.status,
      };
    });
  }

  /** The finish route: run.finished, not counted in the client's seqs. */
  async finish(runId: string, body: unknown): Promise<IngestAppended> {
    const parsed = ingestFinishSchema.safeParse(body ?? {});
    if (!parsed.success) throw invalidBody(parsed.error);
    const finish = parsed.data;
    return this.write(runId, async () => {
      const { client, tree } = await this.load(runId);
      if (hasEnded(tree.status)) {
        throw new IngestRefusal(409, {
          error: 'closed',
          expectedSeq: client.lastClientSeq + 1,
          message: `the run has ${tree.status} already`,
        });
      }
      const drafts = [...this.revival(tree), finishEvent(finish)];
      const events = numberDrafts(runId, tree.lastSeq, drafts, Date.now());
      const { nodes } = this.foldBatch(runId, tree, events, (_, message) => ({ path: '(body)', message }));
      await this.commit(runId, tree, events, nodes, { heard: true });
      return { accepted: 0, duplicates: 0, nextSeq: client.lastClientSeq + 1, status: tree.status };
    });
  }

  /** The client is alive: its silence clock restarts, and an interrupted run continues. */
  async heartbeat(runId: string): Promise<IngestHeartbeat> {
    return this.write(runId, async () => {
      const { client, tree } = await this.load(runId);
      await this.heard(runId, tree);
      return { status: tree.status, nextSeq: client.lastClientSeq + 1 };
    });
  }

  /**
   * The commands aimed at the run after log seq `after` that the client has not answered, oldest first; when there
   * are none and the run is live, waits up to `waitMs` (capped) for one, or for the run to end.
   */
  async commands(runId: string, after: number, waitMs: number, signal?: AbortSignal): Promise<IngestCommands> {
    const read = () =>
      this.write(runId, async () => {
        const { tree } = await this.load(runId);
        await this.heard(runId, tree);
        return { tree, pending: tree.commands.filter((c) => c.outcome === 'requested' && c.seq > after) };
      });
    let { tree, pending } = await read();
    const wait = Math.min(Math.max(0, waitMs), MAX_POLL_WAIT_MS, Math.floor(this.options.timeoutMs / 2));
    const deadline = Date.now() + wait;
    // in a cluster a wake may be another instance's batch of any kind (a notification says only "more"): the poll
    // reads again and waits on until a command comes or its time is up
    while (pending.length === 0 && Date.now() < deadline && LIVE.has(tree.status) && !signal?.aborted) {
      await this.waitForWake(runId, deadline - Date.now(), signal);
      ({ tree, pending } = await read());
    }
    const times = new Map<number, number>();
    if (pending.length > 0) {
      const rows = await this.options.prisma.event.findMany({
        where: { runId, seq: { in: pending.map((c) => c.seq) } },
        select: { seq: true, ts: true },
      });
      for (const row of rows) times.set(row.seq, Number(row.ts));
    }
    const commands: IngestCommand[] = pending.map((c) => ({
      seq: c.seq,
      kind: c.kind,
      nodeId: c.nodeId,
      actor: c.actor,
      ts: times.get(c.seq) ?? 0,
      hit: c.hit ?? null, // a snapshot folded before hits were recorded has none
    }));
    return { commands, status: tree.status };
  }

  /**
   * A person's command for an external run: recorded as steer.requested for the client to apply (its effect and its
   * answer come later as the client's items). Refused when the client does not take that kind, the run is not live,
   * or the command does not fit the tree.
   */
  async request(runId: string, command: SteeringCommand): Promise<void> {
    await this.write(runId, async () => {
      const { tree } = await this.load(runId);
      // the page disables the control with the same words (one definition: lib/contract/steering.ts); a breakpoint
      // stops an external search by asking it to pause, so it needs a client that takes pause
      const external = tree.external ?? { commands: [] };
      const refusal =
        command.type === 'breakpoints'
          ? externalBreakpointBlock(external, tree.agentName)
          : externalSteerBlock(external, tree.agentName, command.type);
      if (refusal) throw new ConflictError(refusal);
      if (tree.status === 'interrupted') {
        throw new ConflictError('the client has stopped sending: the run continues when it sends again');
      }
      if (!LIVE.has(tree.status)) throw new ConflictError(`the run is ${tree.status}`);
      const problem = checkCommand(tree, command);
      if (problem) throw new ConflictError(problem);
      const nodeId = command.type === 'prune' || command.type === 'expand' ? command.nodeId : null;
      const events = numberDrafts(
        runId,
        tree.lastSeq,
        [
          command.type === 'breakpoints'
            ? { type: 'breakpoints.set', payload: { breakpoints: command.breakpoints, actor: command.actor } }
            : { type: 'steer.requested', payload: { kind: command.type, nodeId, actor: command.actor } },
        ],
        Date.now(),
      );
      const { nodes } = this.foldBatch(runId, tree, events, (_, message) => ({ path: 'command', message }));
      await this.commit(runId, tree, events, nodes, { heard: false });
    });
  }

  /** Marks interrupted every live external run whose client has been silent longer than the timeout. */
  async sweep(now = Date.now()): Promise<string[]> {
    const timeout = this.options.timeoutMs;
    if (now - this.bootedAt < timeout) return [];
    const cutoff = new Date(now - timeout);
    const silent = await silentIngestRuns(this.options.prisma, ['running', 'paused'], cutoff);
    const interrupted: string[] = [];
    for (const candidate of silent) {
      await this.write(candidate.runId, async () => {
        const { client, tree } = await this.load(candidate.runId);
        if (client.lastSeenAt >= cutoff || !LIVE.has(tree.status)) return;
        const reason = `the client stopped sending heartbeats (last seen ${client.lastSeenAt.toISOString()})`;
        const events = numberDrafts(
          candidate.runId,
          tree.lastSeq,
          [{ type: 'run.interrupted', payload: { reason } }],
          now,
        );
        const { nodes } = this.foldBatch(candidate.runId, tree, events, (_, message) => ({
          path: 'sweep',
          message,
        }));
        await this.commit(candidate.runId, tree, events, nodes, { heard: false });
        interrupted.push(candidate.runId);
      }).catch((error: unknown) => {
        if (!(error instanceof IngestRefusal)) throw error;
      });
    }
    if (interrupted.length)
      this.options.log(`${interrupted.length} external run(s) interrupted: their clients fell silent`);
    return interrupted;
  }

  /** Sweeps now and then, on a timer that does not keep the process alive. */
  startSweeper(): void {
    if (this.sweeper) return;
    const every = Math.max(250, Math.min(Math.floor(this.options.timeoutMs / 4), 5_000));
    this.sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => this.options.log(`ingest sweep failed: ${String(error)}`));
    }, every);
    this.sweeper.unref();
  }

  stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** The run's client row and tree (in its queue); 404 when it is not an ingest run. */
  private async load(runId: string): Promise<Loaded> {
    const prisma = this.options.prisma;
    const run = await getRun(prisma, runId);
    let tree = run ? this.trees.get(runId) : undefined;
    if (run && (!tree || tree.lastSeq !== run.lastSeq)) {
      tree = fold(await listEvents(prisma, runId, { light: true }), createEmptyTree(runId));
      this.trees.set(runId, tree);
    }
    // the client's row is read last: another instance's commit writes it with its events, so a row read after the
    // tree knows every item the tree holds (it may know more: then this write's events fail the log's fence and are
    // built again). Read first, it could miss items the tree holds, and a retried batch would be folded twice.
    const client = run ? await getIngestClient(prisma, runId) : null;
    if (!run || !client || !tree) {
      this.trees.delete(runId);
      throw notFound(runId);
    }
    return { client, tree };
  }

  /** The events that continue an interrupted run when its client is heard again (none otherwise). */
  private revival(tree: ThoughtTree): EventDraft[] {
    if (tree.status !== 'interrupted') return [];
    return [{ type: 'run.resumed', payload: { rolledBackNodeId: tree.inFlight?.entry.nodeId ?? null } }];
  }

  /** The client was heard: an interrupted run continues, otherwise its silence clock restarts. */
  private async heard(runId: string, tree: ThoughtTree): Promise<void> {
    const drafts = this.revival(tree);
    if (drafts.length === 0) {
      await touchIngestClient(this.options.prisma, runId, new Date());
      return;
    }
    const events = numberDrafts(runId, tree.lastSeq, drafts, Date.now());
    const { nodes } = this.foldBatch(runId, tree, events, (_, message) => ({ path: '(revive)', message }));
    await this.commit(runId, tree, events, nodes, { heard: true });
  }

  /** Items at or below the stored end must be what was stored under their seq. */
  private async checkRepeats(runId: string, repeated: readonly IngestItem[], last: number): Promise<void> {
    if (repeated.length === 0) return;
    const stored = await storedItemHashes(
      this.options.prisma,
      runId,
      repeated.map((item) => item.seq),
    );
    for (const [index, item] of repeated.entries()) {
      if (stored.get(item.seq) !== itemHash(item)) {
        throw new IngestRefusal(409, {
          error: 'conflict',
          expectedSeq: last + 1,
          message: `items[${index}] (seq ${item.seq}) differs from the item stored under seq ${item.seq}: a retry must resend the same item`,
        });
      }
    }
  }

  /**
   * Folds the events onto the run's tree, each checked first (the import's field caps, one root, foldChecked), noting
   * the nodes they change and the first breakpoint hit (each event judged against the tree just before it, as the
   * engine judges its own). A problem is a 400 naming the item (`where`), and the tree, changed up to it, is
   * dropped: it is folded again next time.
   */
  private foldBatch(
    runId: string,
    tree: ThoughtTree,
    events: readonly ExplorationEvent[],
    where: (index: number, message: string) => { path: string; message: string },
  ): { nodes: ThoughtNode[]; hit: BreakpointHit | null } {
    let hit: BreakpointHit | null = null;
    let refused: { index: number; problem: string } | null = null;
    const checkedFold = (folding: ThoughtTree, event: ExplorationEvent, index: number) => {
      if (!hit && folding.breakpoints.length > 0) hit = judgeEvent(folding.breakpoints, event, treeHitContext(folding));
      const problem =
        checkEventFieldCaps(event) ??
        (event.type === 'node.created' && event.payload.parentId === null && folding.rootId !== null
          ? `the run has a root already ("${folding.rootId}"): a node needs a parent`
          : foldChecked(folding, [event])?.message);
      if (problem) {
        refused = { index, problem };
        throw new Error(problem);
      }
    };
    try {
      return { nodes: foldTouched(tree, events, checkedFold), hit };
    } catch (error) {
      this.trees.delete(runId);
      const at = refused as { index: number; problem: string } | null;
      if (!at) throw error;
      throw invalidBatch([where(at.index, at.problem)]);
    }
  }

  /**
   * The pause to ask of the client for a breakpoint hit, folded onto the tree (steer.requested with the hit, after
   * `lastSeq`), or null when none is asked: the run is not running (paused already, ended by this batch), a pause is
   * asked already and unanswered, or the client does not take pause (then it could hold no breakpoints).
   */
  private breakpointPause(
    runId: string,
    tree: ThoughtTree,
    hit: BreakpointHit,
    lastSeq: number,
  ): ExplorationEvent | null {
    if (tree.status !== 'running') return null;
    if (externalSteerBlock(tree.external ?? { commands: [] }, tree.agentName, 'pause')) return null;
    if (tree.commands.some((c) => c.kind === 'pause' && c.outcome === 'requested')) return null;
    const [pause] = numberDrafts(
      runId,
      lastSeq,
      [{ type: 'steer.requested', payload: { kind: 'pause', nodeId: null, actor: BREAKPOINT_ACTOR, hit } }],
      Date.now(),
    );
    this.foldBatch(runId, tree, [pause!], (_, message) => ({ path: 'breakpoint', message }));
    return pause!;
  }

  /**
   * Hands the events, with the nodes they changed, to the log room: one transaction with the client's items (or that
   * it was heard), then published, and the run ended there when this batch ended it. Then the polls wake.
   */
  private async commit(
    runId: string,
    tree: ThoughtTree,
    events: readonly ExplorationEvent[],
    nodes: readonly ThoughtNode[],
    client: ClientWrite,
  ): Promise<void> {
    const now = new Date();
    try {
      await this.options.runLog.commit(runId, tree, events, nodes, {
        also: async (tx) => {
          if (client.items?.length) await storeIngestItems(tx, runId, client.items, now);
          else if (client.heard) await touchIngestClient(tx, runId, now);
        },
      });
    } catch (error) {
      this.trees.delete(runId);
      throw error;
    }
    // a client gone quiet may never come back, and an ended run takes nothing more: either is folded again if asked
    if (tree.status === 'interrupted' || hasEnded(tree.status)) this.trees.delete(runId);
    if (events.some((e) => e.type === 'steer.requested' || e.type === 'run.interrupted') || hasEnded(tree.status)) {
      this.wake(runId);
    }
  }

  private wake(runId: string): void {
    for (const wake of this.waiters.get(runId) ?? []) wake();
  }

  private waitForWake(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(runId);
      if (!set) this.waiters.set(runId, (set = new Set()));
      // in a cluster a person's command may be written by another instance: its notification wakes this poll too
      const bus = this.options.runLog.bus;
      const unsubscribe = bus.carriesEvents ? () => {} : bus.subscribe(runId, () => done());
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        signal?.removeEventListener('abort', done);
        set.delete(done);
        if (set.size === 0 && this.waiters.get(runId) === set) this.waiters.delete(runId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }
}
