/**
 * CallGate: when a run's model calls may start (issue 30). A run has one gate with its limit of calls in flight
 * (config.maxConcurrentCalls); each step takes a ticket from it, and every call of the step waits for its ticket's
 * admission: a free slot, the run not paused, the step not held. Waiting calls are admitted in the order they asked
 * (the search's order, since a batch starts its steps in order), so a small limit still serves the first steps first.
 *
 * The same gate, one slot per `acquire`, is lib/models' limit of requests in flight to one model server (every run
 * of the process queues on it): one definition of slots handed out in order with aborts honoured.
 *
 * Holding is how steering reaches calls not yet started at once: a pause holds every ticket, a prune on its way holds
 * the steps it may take out, and a "run to here" breakpoint holds its node's step until the run gets there. A held
 * call has not started; cancelling a ticket (its node was pruned) refuses its waiting calls with StepCancelled, while
 * its calls already in flight run to their end (the executor records them as spent).
 * Not responsible for deciding what is held (the executor does) or for the backend's own limits (lib/models).
 */
import type { CallAdmission } from './model-call';

/** A step's call refused because its node left the search (pruned) before the call could start. */
export class StepCancelled extends Error {
  constructor() {
    super('the step was cancelled: its node was pruned');
    this.name = 'StepCancelled';
  }
}

interface Waiter {
  ticket: StepTicket;
  admit: (release: () => void) => void;
  refuse: (reason: unknown) => void;
}

export class CallGate {
  private inFlight = 0;
  private paused = false;
  private readonly waiting: Waiter[] = [];
  private max: number;

  constructor(
    limit: number,
    readonly now: () => number = Date.now,
    private readonly onChange?: (inFlight: number) => void,
  ) {
    this.max = checkedLimit(limit);
  }

  get limit(): number {
    return this.max;
  }

  /** Calls waiting for a slot (held ones included). */
  get waitingCalls(): number {
    return this.waiting.length;
  }

  /** A new limit (an operator changed the setting); a raised one admits waiting calls at once. */
  setLimit(limit: number): void {
    this.max = checkedLimit(limit);
    this.pump();
  }

  /**
   * One slot, for a caller with no step to hold (a model server's requests): resolves with its release (a second
   * release frees nothing), or rejects with the signal's reason when it aborts while waiting.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return this.runningTicket().admit(signal);
  }

  ticket(): StepTicket {
    return new StepTicket(this);
  }

  /** A ticket for a call of the step under way (the synthesis): never held, still within the limit. */
  runningTicket(): StepTicket {
    const ticket = new StepTicket(this);
    ticket.running = true;
    return ticket;
  }

  /** While paused no call starts; calls in flight run on. */
  setPaused(paused: boolean): void {
    if (this.paused === paused) return;
    this.paused = paused;
    this.pump();
  }

  get callsInFlight(): number {
    return this.inFlight;
  }

  /** @internal StepTicket.admit. */
  admit(ticket: StepTicket, signal: AbortSignal | undefined): Promise<() => void> {
    if (ticket.cancelled) return Promise.reject(new StepCancelled());
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        ticket,
        admit: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        refuse: (reason) => {
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.pump();
    });
  }

  /** Refuses the waiting calls of cancelled tickets, then admits, in order, every waiting call that may start. */
  pump(): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const waiter = this.waiting[i] as Waiter;
      if (!waiter.ticket.cancelled) continue;
      this.waiting.splice(i, 1);
      waiter.refuse(new StepCancelled());
    }
    for (let i = 0; i < this.waiting.length && this.inFlight < this.max; ) {
      const waiter = this.waiting[i] as Waiter;
      // the step under way is never held: it is atomic and ends before any command applies
      if (!waiter.ticket.running && (this.paused || waiter.ticket.held)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.inFlight += 1;
      this.onChange?.(this.inFlight);
      waiter.admit(this.releaser());
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      this.onChange?.(this.inFlight);
      this.pump();
    };
  }
}

function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a call limit is a whole number >= 1 (got ${limit})`);
  return limit;
}

/** One step's admission: its calls wait on it; the executor holds, releases or cancels it. */
export class StepTicket implements CallAdmission {
  held = false;
  cancelled = false;
  /** The step under way: its calls go on whatever holds (pauses, prunes on their way). */
  running = false;

  constructor(private readonly gate: CallGate) {}

  admit(signal?: AbortSignal): Promise<() => void> {
    return this.gate.admit(this, signal);
  }

  now(): number {
    return this.gate.now();
  }

  /** Its step is under way now: held no longer, by anything. */
  start(): void {
    this.running = true;
    this.held = false;
    this.gate.pump();
  }

  hold(held = true): void {
    if (this.held === held) return;
    this.held = held;
    this.gate.pump();
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.gate.pump();
  }
}
