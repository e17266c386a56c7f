/**
 * In-process publish/subscribe of stored events, per run. The run manager publishes a batch only after it is
 * committed to SQLite, so a subscriber never sees an event the database does not have.
 * Not responsible for catch-up from the database (the subscription does that) or for other processes.
 */
import type { ExplorationEvent } from '../contract/events';

export type BusMessage = { kind: 'events'; events: ExplorationEvent[] } | { kind: 'closed'; reason: string };
type Listener = (message: BusMessage) => void;

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener>>();

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
    if (events.length === 0) return;
    for (const listener of this.listeners.get(runId) ?? []) listener({ kind: 'events', events });
  }

  /** No more events will come for this run (it finished, failed or was deleted). */
  close(runId: string, reason: string): void {
    for (const listener of this.listeners.get(runId) ?? []) listener({ kind: 'closed', reason });
  }

  subscriberCount(runId: string): number {
    return this.listeners.get(runId)?.size ?? 0;
  }
}
