/**
 * One instance's part in a cluster of `npm start` processes on one PostgreSQL database: it takes run jobs from the
 * queue (queue.ts) and claims each run's lease before executing it, renews its leases on a heartbeat and lets go of a
 * run whose lease it lost, sweeps for runs whose instance died and takes them over, forwards commands to the instance
 * that executes a run (commands.ts), turns PostgreSQL's notifications into `more` for the event streams
 * (notifications.ts), and on shutdown hands its runs back so another instance resumes them at once.
 * The run manager is its host: the cluster decides who executes what and when; the manager executes, stops and
 * writes a run's log (ClusterHost). README.md has the design and the failure cases.
 * Not responsible for a run's search or log (run-manager.ts), nor for the SQL (run-log/leases.ts).
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { SteeringCommand } from '../../engine/server';
import type { Db, PrismaClient } from '../db/client';
import type { EventBus } from '../run-log/index';
import type { Logger } from '../core/logger';
import { EVENTS_CHANNEL, parseEventsNotice } from '../run-log/index';
import {
  claimQueuedRun,
  clearLapsedQueuedLeases,
  holdsLease,
  leaseOwnerOf,
  releaseLease,
  renewLeases,
  takeOverLapsedRuns,
  unclaimedQueuedRuns,
} from '../run-log/index';
import { CommandRelay, COMMANDS_CHANNEL, REPLIES_CHANNEL } from './commands';
import { NotificationListener } from './notifications';
import { JobQueue } from './queue';

/** What the cluster asks of the run manager. */
export interface ClusterHost {
  /** Executes a run this instance has claimed; settles when it has stopped here (ended, failed or detached). */
  executeClaimed(runId: string): Promise<void>;
  /** Stops a run live here at once and writes nothing more of it (its log now belongs to another instance). */
  detach(runId: string, why: string): Promise<void>;
  /** Applies a person's command to a run live here; throws with a reason a person can read. */
  applyCommand(runId: string, command: SteeringCommand): void;
  /**
   * Writes a run's interruption (run.interrupted with the reason, then run.queued when it is to resume) through the
   * manager's lifecycle write; writes nothing when the run's log says it is not running or paused.
   */
  interrupt(runId: string, reason: string, requeue: boolean): Promise<void>;
}

export interface ClusterOptions {
  prisma: PrismaClient;
  /** The PostgreSQL URL (the queue and the LISTEN connection open their own connections on it). */
  connectionString: string;
  instanceId: string;
  leaseMs: number;
  heartbeatMs: number;
  /** Jobs (runs) this instance executes at once. */
  concurrency: number;
  bus: EventBus;
  log: Logger;
  /** A run taken over resumes at once ('auto') or waits as interrupted for a person ('manual'). */
  resumeMode: 'auto' | 'manual';
  commandTimeoutMs?: number;
  /** How often the failover sweep runs (default half the lease). */
  sweepIntervalMs?: number;
  /** How often an idle queue looks for jobs it was not told about (ms). */
  pollIntervalMs?: number;
}

/** `<hostname>-<pid>-<4 hex>`: unique per process, readable in logs. */
export function defaultInstanceId(): string {
  return `${hostname()}-${process.pid}-${randomBytes(2).toString('hex')}`;
}

export class Cluster {
  readonly instanceId: string;
  private readonly queue: JobQueue;
  private readonly listener: NotificationListener;
  private readonly relay: CommandRelay;
  /** Runs whose lease this instance holds (claimed, executing, or being written as taken over). */
  private readonly held = new Set<string>();
  /** Runs being handed back: the hand-back releases their lease, not the job's end. */
  private readonly handingBack = new Set<string>();
  private host: ClusterHost | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;
  private draining = false;
  private crashed = false;

  constructor(private readonly options: ClusterOptions) {
    this.instanceId = options.instanceId;
    this.queue = new JobQueue({
      connectionString: options.connectionString,
      concurrency: options.concurrency,
      log: options.log,
      ...(options.pollIntervalMs !== undefined && { pollIntervalMs: options.pollIntervalMs }),
    });
    this.relay = new CommandRelay({
      instanceId: options.instanceId,
      notify: (channel, payload) => this.notify(channel, payload),
      apply: (runId, command) => this.requireHost().applyCommand(runId, command),
      log: options.log,
      ...(options.commandTimeoutMs !== undefined && { timeoutMs: options.commandTimeoutMs }),
    });
    this.listener = new NotificationListener({
      connectionString: options.connectionString,
      log: options.log,
      channels: {
        [EVENTS_CHANNEL]: (payload) => this.onEventsNotification(payload),
        [COMMANDS_CHANNEL]: (payload) => this.relay.onRequest(payload),
        [REPLIES_CHANNEL]: (payload) => this.relay.onReply(payload),
      },
      // a notification missed while the connection was down must never lose an event: every stream reads again
      onReconnect: () => this.options.bus.announceAll(),
    });
  }

  get shuttingDown(): boolean {
    return this.draining;
  }

  /** Runs executing (or claimed) here now. */
  get executingHere(): number {
    return this.held.size;
  }

  /**
   * Joins the cluster: the queue's schema migrated, the notification connection listening, the first failover
   * sweep done (this start's recovery: runs of dead instances taken over, queued runs given their jobs), then jobs
   * taken and the heartbeat and sweeper started.
   */
  async start(host: ClusterHost): Promise<{ interrupted: string[]; resumed: string[] }> {
    this.host = host;
    await this.queue.prepare();
    await this.listener.start();
    const swept = await this.sweep({ initial: true });
    await this.queue.start((runId) => this.handleJob(runId));
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.options.heartbeatMs);
    this.heartbeatTimer.unref();
    this.sweepTimer = setInterval(
      () => {
        this.sweeping ??= this.sweep({ initial: false })
          .catch((error: unknown) => this.options.log.warn('failover sweep failed', { error }))
          .finally(() => (this.sweeping = null));
      },
      this.options.sweepIntervalMs ?? Math.max(100, Math.floor(this.options.leaseMs / 2)),
    );
    this.sweepTimer.unref();
    this.options.log.info('joined the cluster', {
      leaseMs: this.options.leaseMs,
      heartbeatMs: this.options.heartbeatMs,
      concurrency: this.options.concurrency,
    });
    return swept;
  }

  /** Queues a run as a job (any instance may take it). */
  enqueue(runId: string): Promise<void> {
    return this.queue.enqueue(runId);
  }

  /** The instance holding a live lease on the run, or null. */
  ownerOf(runId: string): Promise<string | null> {
    return leaseOwnerOf(this.options.prisma, runId);
  }

  /** Inside a writer's transaction: whether this instance still holds the run (locks the row until the commit). */
  holds(tx: Db, runId: string): Promise<boolean> {
    return holdsLease(tx, runId, this.instanceId);
  }

  /** Sends a command to the instance that executes the run and waits for its answer. */
  forward(runId: string, owner: string, command: SteeringCommand): Promise<void> {
    return this.relay.forward(runId, owner, command);
  }

  /**
   * The failover sweep: runs whose instance stopped renewing their lease are taken over (one instance wins each),
   * written as interrupted (and queued again, in auto mode) and given a job; queued runs whose claimer died are
   * queued again; every unclaimed queued run gets its job, at start all of them and then those idle past a lease (a
   * job lost with a dead instance; the key makes a repeat harmless and keeps a waiting job's place).
   */
  async sweep({ initial }: { initial: boolean }): Promise<{ interrupted: string[]; resumed: string[] }> {
    const { prisma, log, leaseMs, resumeMode } = this.options;
    const host = this.requireHost();
    const interrupted: string[] = [];
    const resumed: string[] = [];
    if (this.draining) return { interrupted, resumed };
    const taken = await takeOverLapsedRuns(prisma, this.instanceId, leaseMs);
    for (const { runId, lostOwner, status } of taken) {
      this.held.add(runId);
      const reason = lostOwner
        ? `the instance running it (${lostOwner}) stopped answering while the run was ${status}`
        : `the server stopped while the run was ${status}`;
      const auto = resumeMode === 'auto';
      try {
        await host.interrupt(runId, reason, auto);
        interrupted.push(runId);
        log.warn('run taken over', { runId, lostInstance: lostOwner, status });
      } catch (error) {
        log.error('taking over a run failed: the next sweep tries again', { runId, error });
        continue;
      } finally {
        this.held.delete(runId);
        await releaseLease(prisma, runId, this.instanceId).catch(() => undefined);
      }
      if (auto) {
        await this.queue.enqueue(runId);
        resumed.push(runId);
      }
    }
    const requeue = await clearLapsedQueuedLeases(prisma);
    requeue.push(...(await unclaimedQueuedRuns(prisma, initial ? null : leaseMs)));
    for (const runId of new Set(requeue)) await this.queue.enqueue(runId);
    return { interrupted, resumed };
  }

  /**
   * Graceful shutdown: no new jobs, each live run handed back (stopped here with nothing more written, then
   * run.interrupted + run.queued, its lease released and a job added for another instance), then the connections
   * closed. The caller closes the streams and exits.
   */
  async shutdown(): Promise<string[]> {
    const host = this.requireHost();
    this.draining = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    const stopping = this.queue.stopTaking();
    const handedBack: string[] = [];
    await Promise.all(
      [...this.held].map(async (runId) => {
        this.handingBack.add(runId);
        try {
          await host.detach(runId, 'handed back');
          await host.interrupt(runId, `handed back: instance ${this.instanceId} shutting down`, true);
          await releaseLease(this.options.prisma, runId, this.instanceId);
          this.held.delete(runId);
          await this.queue.enqueue(runId);
          handedBack.push(runId);
          this.options.log.info('run handed back', { runId });
        } catch (error) {
          // its lease lapses instead, and another instance's sweep takes it over
          this.options.log.error('handing a run back failed: its lease will lapse', { runId, error });
        }
      }),
    );
    await stopping;
    await this.close();
    return handedBack;
  }

  /**
   * Test-only: the instance dies as under kill -9. Its runs stop here and nothing more is written: no lease
   * released, no event, no notification; its timers and connections go. Another instance takes its runs over once
   * their leases lapse.
   */
  async crash(): Promise<void> {
    this.crashed = true;
    this.draining = true;
    const host = this.requireHost();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.all([...this.held].map((runId) => host.detach(runId, 'crashed')));
    await this.close();
  }

  /** Test-only: the LISTEN connection drops as on a network failure (it reconnects by itself). */
  dropNotificationConnection(): void {
    this.listener.dropConnection();
  }

  /** Stops the timers and closes the queue and the notification connection. */
  async close(): Promise<void> {
    this.draining = true;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.sweeping;
    this.relay.close();
    await this.queue.close();
    await this.listener.close();
  }

  private requireHost(): ClusterHost {
    if (!this.host) throw new Error('the cluster has not started');
    return this.host;
  }

  /** A job's run: claimed (or left alone when it cannot be), executed here, its lease released at the end. */
  private async handleJob(runId: string): Promise<void> {
    const { prisma, leaseMs, log } = this.options;
    if (this.draining) {
      // taken just as this instance stopped taking: a new job for another instance (this one is locked here)
      await this.queue.enqueue(runId);
      return;
    }
    if (!(await claimQueuedRun(prisma, runId, this.instanceId, leaseMs))) {
      log.debug('job found its run unclaimable (ended, aborted, or leased elsewhere)', { runId });
      return;
    }
    this.held.add(runId);
    if (this.draining) {
      // the instance began shutting down while it claimed: give the run straight back
      this.held.delete(runId);
      await releaseLease(prisma, runId, this.instanceId);
      await this.queue.enqueue(runId);
      return;
    }
    log.info('run claimed', { runId });
    try {
      await this.requireHost().executeClaimed(runId);
    } finally {
      if (!this.crashed && !this.handingBack.has(runId)) {
        this.held.delete(runId);
        await releaseLease(prisma, runId, this.instanceId).catch((error: unknown) =>
          log.warn('lease not released: it lapses instead', { runId, error }),
        );
      }
    }
  }

  /** Renews every lease held here in one statement; a run whose lease is gone is detached at once. */
  private async heartbeat(): Promise<void> {
    const ids = [...this.held];
    if (ids.length === 0 || this.crashed) return;
    try {
      const kept = new Set(await renewLeases(this.options.prisma, this.instanceId, ids, this.options.leaseMs));
      for (const runId of ids) {
        if (kept.has(runId) || !this.held.has(runId) || this.handingBack.has(runId)) continue;
        this.held.delete(runId);
        this.options.log.warn('lease lost (taken over after a stall): the run stops here', { runId });
        void this.requireHost().detach(runId, 'lease lost');
      }
    } catch (error) {
      // the database did not answer: the leases may lapse, and the write fence stops this instance writing then
      this.options.log.warn('lease renewal failed', { error });
    }
  }

  private onEventsNotification(payload: string): void {
    const notice = parseEventsNotice(payload);
    if (!notice) return;
    if ('closed' in notice) this.options.bus.close(notice.runId, notice.closed);
    else if ('discussed' in notice) this.options.bus.discussed(notice.runId);
    else this.options.bus.announce(notice.runId, notice.seq);
  }

  private async notify(channel: string, payload: string): Promise<void> {
    await this.options.prisma.$executeRaw`SELECT pg_notify(${channel}, ${payload})`;
  }
}

/** A writer found, inside its transaction, that this instance no longer holds the run: it stops writing it. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly runId: string) {
    super(`run ${runId}: this instance no longer holds its lease (another instance took it over)`);
  }
}
