'use client';
// A command's life on a search Arborist does not run, where a person looks for it: beside the header's buttons (the
// last run-level command until applied), under the inspector's prune and expand (the node's last command), and as
// the run's list in the inspector's run details. Words from lib/store (steer-requests.ts); times on the page's clock.
// Not responsible for sending commands (useRunCommands.ts) nor for whether they may be sent (useSteering.ts).
import { formatClock } from '@/lib/event-log/index';
import type { SteerRequest } from '@/lib/engine/index';
import { commandState, commandWhat, runCommand } from '@/lib/store/index';
import { useRunStore } from '../page/RunStoreContext';
import styles from './SteerCommands.module.css';

/** A command's times read to the second: "since 21:03:04". */
function clock(ts: number): string {
  return formatClock(ts).slice(0, 8);
}

/** "Prune requested: waiting for the client since 21:03:04", "Pause refused: busy". */
function sentence(command: SteerRequest): string {
  const what = commandWhat(command);
  const state = commandState(command, clock);
  const head = `${what.charAt(0).toUpperCase()}${what.slice(1)}`;
  return command.outcome === 'requested' ? `${head} requested: ${state}` : `${head} ${state}`;
}

/** The header's note: the last pause, resume, step or abort asked of the client, until it is applied. */
export function RunCommandNote() {
  const command = useRunStore((s) => runCommand(s.tree.commands));
  if (!command) return null;
  const text = sentence(command);
  return (
    <span
      className={`${styles.note} ${styles[command.outcome]}`}
      role="status"
      title={`${text} (asked by ${command.actor})`}
      data-testid="run-command"
      data-outcome={command.outcome}
    >
      {text}
    </span>
  );
}

/** Under the inspector's prune and expand: the node's last command (lib/store nodeCommand), waiting or refused. */
export function NodeCommandNote({ command, className }: { command: SteerRequest; className?: string }) {
  return (
    <p className={className} role="status" data-testid="node-command" data-outcome={command.outcome}>
      {sentence(command)}
    </p>
  );
}

/** Said instead of the steering buttons when the search's client listens for no command. */
export function SteeringUnavailable({ reason }: { reason: string }) {
  const text = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`;
  return (
    <span className={styles.unavailable} role="note" title={text} data-testid="steering-unavailable">
      {text}
    </span>
  );
}

/** The run's commands, in order, each with who asked, when, and the client's answer. */
export function SteerCommandList() {
  const commands = useRunStore((s) => s.tree.commands);
  const select = useRunStore((s) => s.select);
  if (commands.length === 0) return <p className={styles.who}>No command asked of this search yet.</p>;
  return (
    <ol className={styles.list} data-testid="steer-commands">
      {commands.map((command) => (
        <li key={command.seq} className={styles.item} data-testid="steer-command" data-outcome={command.outcome}>
          <span className={`${styles.outcome} ${styles[command.outcome]}`}>{command.outcome}</span>
          <span>
            <span className={styles.what}>
              {command.kind}{' '}
              {command.nodeId && (
                <button type="button" className={styles.linkButton} onClick={() => select(command.nodeId)}>
                  {command.nodeId}
                </button>
              )}
            </span>{' '}
            <span className={styles.who}>
              by {command.actor} at {clock(command.requestedAt)} · #{command.seq}
            </span>
          </span>
          <span className={styles.state}>
            {commandState(command, clock)}
            {command.answeredAt !== null && (
              <span className={styles.who}> · answered at {clock(command.answeredAt)}</span>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}
