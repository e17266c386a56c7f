/**
 * ExplorationControl: how a person steers a running search. Commands are checked at once against the live tree
 * (a bad one throws SteeringError, which the API turns into a clear CONFLICT) and applied by the executor at
 * the next step boundary, where each becomes a steer.* event naming its actor.
 * Not responsible for applying commands (the executor) or for who may send them (the server).
 */
import type { ThoughtTree } from './types';
import { hasEnded } from '../contract/run-status';
import type { SteeringCommand } from '../contract/vocabulary';
import type { Breakpoint } from '../contract/breakpoints';

/** What a person asks of a running search (defined with its schema in lib/contract/vocabulary.ts). */
export type { SteeringCommand };

export class SteeringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SteeringError';
  }
}

/** Why a command cannot apply to this tree, or null when it can. Shared by the control and the server. */
export function checkCommand(tree: ThoughtTree, command: SteeringCommand): string | null {
  if (hasEnded(tree.status)) return 'the run has finished';
  switch (command.type) {
    case 'prune': {
      const node = tree.nodes[command.nodeId];
      if (!node) return `no node ${command.nodeId} in this run`;
      if (node.parentId === null) return 'the root cannot be pruned; abort the run instead';
      if (node.status === 'pruned') return `node ${command.nodeId} is already pruned`;
      return null;
    }
    case 'expand':
      return tree.nodes[command.nodeId] ? null : `no node ${command.nodeId} in this run`;
    case 'pause':
      return tree.status === 'paused' ? 'the run is already paused' : null;
    case 'resume':
      return tree.status === 'paused' ? null : 'the run is not paused';
    case 'step':
    case 'abort':
      return null;
    case 'breakpoints': {
      // "run to here" names a node: one that is not in the tree would never stop the run
      for (const { condition } of command.breakpoints) {
        if (condition.kind !== 'node-runs') continue;
        const node = tree.nodes[condition.nodeId];
        if (!node) return `no node ${condition.nodeId} in this run`;
      }
      return null;
    }
  }
}

export class ExplorationControl {
  private queue: SteeringCommand[] = [];
  private waiters: (() => void)[] = [];
  private tree: (() => ThoughtTree) | null = null;
  private abortListener: (() => void) | null = null;
  private sentListener: ((command: SteeringCommand) => void) | null = null;

  /** The executor listens here so a pause or a prune holds the calls not yet started at once (call-gate.ts). */
  onSent(listener: ((command: SteeringCommand) => void) | null): void {
    this.sentListener = listener;
  }

  /** The executor listens here so an abort cancels the step in flight instead of waiting for it. */
  onAbort(listener: (() => void) | null): void {
    this.abortListener = listener;
  }

  /** Called by the executor so commands can be checked against the live tree. */
  attach(getTree: () => ThoughtTree): void {
    this.tree = getTree;
  }

  send(command: SteeringCommand): void {
    const tree = this.tree?.();
    const problem = tree ? checkCommand(tree, command) : null;
    if (problem) throw new SteeringError(problem);
    this.queue.push(command);
    for (const wake of this.waiters.splice(0)) wake();
    this.sentListener?.(command);
    if (command.type === 'abort') this.abortListener?.();
  }

  prune(nodeId: string, actor = 'person') {
    this.send({ type: 'prune', nodeId, actor });
  }
  expand(nodeId: string, actor = 'person') {
    this.send({ type: 'expand', nodeId, actor });
  }
  pause(actor = 'person') {
    this.send({ type: 'pause', actor });
  }
  resume(actor = 'person') {
    this.send({ type: 'resume', actor });
  }
  step(actor = 'person') {
    this.send({ type: 'step', actor });
  }
  abort(actor = 'person') {
    this.send({ type: 'abort', actor });
  }
  /** The run's whole breakpoint list from the next step boundary on. */
  setBreakpoints(breakpoints: Breakpoint[], actor = 'person') {
    this.send({ type: 'breakpoints', breakpoints, actor });
  }

  /** Commands waiting to be applied, oldest first; the queue is emptied. */
  take(): SteeringCommand[] {
    return this.queue.splice(0);
  }

  hasPending(): boolean {
    return this.queue.length > 0;
  }

  /** Resolves when a command arrives or the signal aborts. */
  waitForCommand(signal?: AbortSignal): Promise<void> {
    if (this.queue.length > 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
