/** A typed event emitter: each event name has one payload type. */

export type Listener<T> = (payload: T) => void;

export class Emitter<Events extends Record<string, unknown>> {
  private listeners: { [K in keyof Events]?: Set<Listener<Events[K]>> } = {};

  /** Calls `listener` on every `event` until the returned function is called. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    const set = (this.listeners[event] ??= new Set());
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of [...(this.listeners[event] ?? [])]) listener(payload);
  }

  listenerCount(event: keyof Events): number {
    return this.listeners[event]?.size ?? 0;
  }
}
