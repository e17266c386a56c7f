/**
 * A command's life on a search Arborist does not run, as the page tells it: asked (waiting for the client, since
 * when), then applied, refused with the client's reason, or ended unanswered with the run (tree.commands, folded from
 * steer.requested, steer.acked and the run's end). Which one a node's card shows, which one the header shows beside its buttons, and the words for each.
 * Pure: the clock's format comes in as a function, so the words are unit-tested without a time zone.
 * Not responsible for folding the commands (lib/engine reduce) nor for sending them (components/run/steering/useRunCommands).
 */
import type { SteerRequest } from '@/lib/engine/index';

/** What was asked: "prune n3", "pause". */
export function commandWhat(command: Pick<SteerRequest, 'kind' | 'nodeId'>): string {
  return command.nodeId ? `${command.kind} ${command.nodeId}` : command.kind;
}

/**
 * Where a command stands, in a person's words: "waiting for the client since 21:03:04", "applied", "refused: busy",
 * "ended: the run finished before the client answered".
 */
export function commandState(command: SteerRequest, clock: (ts: number) => string): string {
  switch (command.outcome) {
    case 'requested':
      return `waiting for the client since ${clock(command.requestedAt)}`;
    case 'applied':
      return command.reason ? `applied: ${command.reason}` : 'applied';
    case 'refused':
      return command.reason ? `refused: ${command.reason}` : 'refused (no reason given)';
    case 'ended':
      return command.reason ? `ended: ${command.reason}` : 'ended with the run';
  }
}

/** The last command naming this node, whatever its outcome (the inspector says it under its buttons). */
export function lastNodeCommand(commands: readonly SteerRequest[], nodeId: string): SteerRequest | null {
  for (let i = commands.length - 1; i >= 0; i--) {
    const command = commands[i];
    if (command?.nodeId === nodeId) return command;
  }
  return null;
}

/**
 * The command a node's card shows: the last one naming the node, while it waits for the client or once refused (an
 * applied one shows itself, by its effect: the node pruned, new children). Null when there is none to show.
 */
export function nodeCommand(commands: readonly SteerRequest[], nodeId: string): SteerRequest | null {
  const command = lastNodeCommand(commands, nodeId);
  return command?.outcome === 'applied' ? null : command;
}

/** The command the header shows beside its buttons: the last run-level one (pause, resume, step, abort) unless applied. */
export function runCommand(commands: readonly SteerRequest[]): SteerRequest | null {
  for (let i = commands.length - 1; i >= 0; i--) {
    const command = commands[i];
    if (!command || command.nodeId !== null) continue;
    return command.outcome === 'applied' ? null : command;
  }
  return null;
}

/** How many commands still wait for the client. */
export function waitingCount(commands: readonly SteerRequest[]): number {
  return commands.filter((c) => c.outcome === 'requested').length;
}
