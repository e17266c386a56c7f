/**
 * The SDK's built-in steering for a search loop that calls `run.checkpoint()` before each step and skips nodes for
 * which `run.isPruned(id)` is true: pause, resume, step, abort and prune, each checked against what the SDK knows,
 * applied here, and recorded as the same steer.* events the engine writes (the requester as actor), so the page shows
 * their effect exactly as for a run Arborist runs itself. A pause the server asks for because a breakpoint hit is
 * applied as a person's pause, the hit kept (stoppedAt) until the search goes on. Expand needs the program's own
 * handler (onCommand).
 * Not responsible for receiving commands or acknowledging them (run.ts), nor for sending the events it records.
 */
import type { BreakpointHit } from '../contract/breakpoints';
import type { IngestCommand } from '../contract/ingest';
import type { SteerKind } from '../contract/vocabulary';

/** The commands the built-in handling applies. */
export const BUILTIN_COMMANDS: readonly SteerKind[] = ['prune', 'pause', 'resume', 'step', 'abort'];

/** A command the program will not apply; its message is the reason the page shows. */
export class CommandRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandRefused';
  }
}

/** What the steering records: a canonical steer.* event, or run.paused when a step is done. */
export type SteeringEvent =
  | { type: 'steer.prune'; payload: { nodeId: string; actor: string } }
  | { type: 'steer.pause' | 'steer.resume' | 'steer.step' | 'steer.abort'; payload: { actor: string } }
  | { type: 'run.paused'; payload: { reason: 'step' } };

export class Steering {
  private paused = false;
  private stepping = false;
  private stepTaken = false;
  private abortedBy: string | null = null;
  private hit: BreakpointHit | null = null;
  private readonly pruned = new Set<string>();
  private readonly parents = new Map<string, string | null>();
  private waiters: (() => void)[] = [];

  constructor(private readonly record: (event: SteeringEvent) => void) {}

  /** A node the search created, so prunes can be checked and isPruned() can see ancestors. */
  noteNode(id: string, parent: string | null): void {
    if (!this.parents.has(id)) this.parents.set(id, parent);
  }

  /** The search pruned a node by its own rule. */
  notePruned(id: string): void {
    this.pruned.add(id);
  }

  /** True when the node or one of its ancestors was pruned (by a person or the search). */
  isPruned(id: string): boolean {
    const seen = new Set<string>();
    for (let at: string | null | undefined = id; at != null && !seen.has(at); at = this.parents.get(at)) {
      if (this.pruned.has(at)) return true;
      seen.add(at);
    }
    return false;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Who aborted the run, or null. */
  get aborted(): string | null {
    return this.abortedBy;
  }

  /** The breakpoint hit the search is paused at (a pause the server asked for), until it goes on; else null. */
  get stoppedAt(): BreakpointHit | null {
    return this.hit;
  }

  /** Applies a command or throws CommandRefused with the reason. */
  apply(command: Pick<IngestCommand, 'kind' | 'nodeId' | 'actor'> & { hit?: BreakpointHit | null }): void {
    const actor = command.actor;
    if (this.abortedBy !== null) throw new CommandRefused(`the run was aborted by ${this.abortedBy}`);
    switch (command.kind) {
      case 'prune': {
        const id = command.nodeId;
        if (id === null || !this.parents.has(id)) throw new CommandRefused(`no node ${id} in this run`);
        if (this.parents.get(id) === null) throw new CommandRefused('the root cannot be pruned; abort the run instead');
        if (this.isPruned(id)) throw new CommandRefused(`node ${id} is already pruned`);
        this.pruned.add(id);
        this.record({ type: 'steer.prune', payload: { nodeId: id, actor } });
        return;
      }
      case 'pause':
        // a breakpoint's pause is a person's pause (its actor says "breakpoint"), with the hit kept to say why
        if (this.paused) throw new CommandRefused('the run is already paused');
        this.paused = true;
        this.stepping = false;
        this.hit = command.hit ?? null;
        this.record({ type: 'steer.pause', payload: { actor } });
        return;
      case 'resume':
        if (!this.paused) throw new CommandRefused('the run is not paused');
        this.paused = false;
        this.stepping = false;
        this.hit = null;
        this.record({ type: 'steer.resume', payload: { actor } });
        this.wake();
        return;
      case 'step':
        this.paused = false;
        this.stepping = true;
        this.stepTaken = false;
        this.hit = null;
        this.record({ type: 'steer.step', payload: { actor } });
        this.wake();
        return;
      case 'abort':
        this.hit = null;
        this.abortedBy = actor;
        this.record({ type: 'steer.abort', payload: { actor } });
        this.wake();
        return;
      case 'expand':
        throw new CommandRefused('this program does not expand nodes on request (it gave no onCommand handler)');
    }
  }

  /**
   * Called before each step: waits while paused, lets one step through after `step` (and pauses at the next
   * call, recording run.paused), and returns false once the run was aborted (or `stop` resolved).
   */
  async checkpoint(): Promise<boolean> {
    if (this.stepping && this.stepTaken) {
      this.stepping = false;
      this.stepTaken = false;
      this.paused = true;
      this.record({ type: 'run.paused', payload: { reason: 'step' } });
    }
    while (this.paused && this.abortedBy === null) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    if (this.abortedBy !== null) return false;
    if (this.stepping) this.stepTaken = true;
    return true;
  }

  /** Releases every checkpoint waiting (the run is over); they return as the state says. */
  release(): void {
    this.paused = false;
    this.wake();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
