/**
 * In-process publish/subscribe of stored events, per run. On SQLite (one process) the run manager publishes a batch
 * only after it is committed, so a subscriber never sees an event the database does not have. In a cluster
 * (PostgreSQL) the bus carries no events at all (`carriesEvents: false`): the table is the only source, and the
 * cluster's listener (lib/server/cluster/notifications.ts) tells each subscriber `more` when PostgreSQL announces a
 * committed batch, from whichever instance wrote it, and `more` without a seq after a reconnect (read again: a
 * notification may have been missed).
 * Beside the log it carries one transient figure per run, never stored: the run's model calls in flight (issue 30,
 * `publishLive`), for the run header. Only the newest matters, so the bus keeps the newest for a follower that
 * subscribes later and drops it when the run's streams close; it reaches followers in this process only.
 * It also says when a run's discussion changed (`discussed`: a comment or label written, issue 34): not part of the log,
 * a signal with nothing in it, on which a page reads the discussion again. In a cluster it arrives through the events
 * channel like `more`, from whichever instance wrote it.
 * Not responsible for catch-up from the database (the subscription does that) or for reaching other processes.
 */
import type { ExplorationEvent } from '../../contract/events';

export type BusMessage =
  | { kind: 'events'; events: ExplorationEvent[] }
  /** The table has more of the run's log, up to `seq` (unknown after a reconnect: read whatever is there). */
  | { kind: 'more'; seq: number | null }
  | { kind: 'closed'; reason: string }
  /** A transient figure of the live run (not an event, not in the log): only the newest counts. */
  | { kind: 'live'; live: LiveFigures }
  /** The run's comments or labels changed (not in the log): read them again. */
  | { kind: 'discussed' };

/** What a running run says about itself that is not part of its log: how many of its model calls are in flight. */
export interface LiveFigures {
  callsInFlight: number;
}
/** The close reason that ends every stream of an instance going away, whatever its run's state. */
export const STREAMS_CLOSING = 'the server is shutting down';

type Listener = (message: BusMessage) => void;

export interface EventBusOptions {
  /**
   * Whether published batches reach subscribers as events (one process, SQLite). False in a cluster: subscribers
   * read the table when told `more`, so the log has one source whichever instance wrote it.
   */
  carriesEvents?: boolean;
}

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly latestLive = new Map<string, LiveFigures>();
  readonly carriesEvents: boolean;

  constructor(options: EventBusOptions = {}) {
    this.carriesEvents = options.carriesEvents ?? true;
  }

  subscribe(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(runId);
    };
  }

  publish(runId: string, events: ExplorationEvent[]): void {
    if (events.length === 0 || !this.carriesEvents) return;
    this.deliver(runId, { kind: 'events', events });
  }

  /** The table holds the run's log up to `seq` (a cluster's notification). */
  announce(runId: string, seq: number | null): void {
    this.deliver(runId, { kind: 'more', seq });
  }

  /** Every subscriber reads its run's log again (a missed notification must never lose an event). */
  announceAll(): void {
    for (const runId of [...this.listeners.keys()]) this.announce(runId, null);
  }

  /** The live run's transient figures (the run manager throttles them); kept only until the run's streams close. */
  publishLive(runId: string, live: LiveFigures): void {
    this.latestLive.set(runId, live);
    this.deliver(runId, { kind: 'live', live });
  }

  /** The run's discussion changed here (SQLite), or another instance said so (a cluster's notice). */
  discussed(runId: string): void {
    this.deliver(runId, { kind: 'discussed' });
  }

  /** The newest figures of a live run, for a follower arriving mid-run (null: none said, or the run stopped). */
  liveOf(runId: string): LiveFigures | null {
    return this.latestLive.get(runId) ?? null;
  }

  /** The run stopped here: a later follower is told nothing (its page hides the figure once the run is not running). */
  clearLive(runId: string): void {
    this.latestLive.delete(runId);
  }

  /** No more events will come for this run from here (it finished, failed, stopped or was deleted). */
  close(runId: string, reason: string): void {
    this.latestLive.delete(runId);
    this.deliver(runId, { kind: 'closed', reason });
  }

  /** Every subscriber's stream ends (an instance shutting down: browsers reconnect to another instance). */
  closeAll(reason: string): void {
    for (const runId of [...this.listeners.keys()]) this.close(runId, reason);
  }

  subscriberCount(runId: string): number {
    return this.listeners.get(runId)?.size ?? 0;
  }

  private deliver(runId: string, message: BusMessage): void {
    for (const listener of this.listeners.get(runId) ?? []) listener(message);
  }
}
