/**
 * A person's command to a run that executes on another instance: sent as a NOTIFY on the request channel with a
 * request id and the instance meant, applied there to the run's ExplorationControl, answered on the reply channel.
 * The sender waits for the answer up to a timeout: the owner's refusal (a SteeringError's words) comes back as a
 * ConflictError, and silence as one too (the owner may be dying: its run will be taken over).
 * Not responsible for applying a command (run-manager.ts) nor for the connection (notifications.ts).
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { steeringCommandSchema } from '../../contract/vocabulary';
import type { SteeringCommand } from '../../engine/server';
import { ConflictError } from '../core/errors';
import type { Logger } from '../core/logger';

export const COMMANDS_CHANNEL = 'arborist_commands';
export const REPLIES_CHANNEL = 'arborist_command_replies';

/** How long a forwarded command waits for its owner's answer. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;

const requestSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  runId: z.string(),
  command: steeringCommandSchema,
});

const replySchema = z.object({
  id: z.string(),
  to: z.string(),
  ok: z.boolean(),
  error: z.string().optional(),
});

type Request = z.infer<typeof requestSchema>;

export interface CommandRelayOptions {
  instanceId: string;
  /** Sends a notification (a pooled connection's pg_notify). */
  notify: (channel: string, payload: string) => Promise<void>;
  /** Applies a command to a run live here; throws with a reason a person can read when it cannot. */
  apply: (runId: string, command: SteeringCommand) => void;
  log: Logger;
  timeoutMs?: number;
}

export class CommandRelay {
  private readonly waiting = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();

  constructor(private readonly options: CommandRelayOptions) {}

  /** Sends a command to the instance that executes the run, and waits for its answer. */
  async forward(runId: string, owner: string, command: SteeringCommand): Promise<void> {
    const id = randomUUID();
    const request: Request = { id, from: this.options.instanceId, to: owner, runId, command };
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const answered = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new ConflictError(`the server running this search (${owner}) did not answer: try again in a moment`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    // the answer may come back before the NOTIFY's own statement returns: a rejection then must not be "unhandled"
    answered.catch(() => undefined);
    try {
      await this.options.notify(COMMANDS_CHANNEL, JSON.stringify(request));
    } catch (error) {
      this.waiting.get(id)?.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.options.log.debug('command forwarded', { runId, owner, command: command.type });
    return answered;
  }

  /** A request heard on the commands channel: applied when it is meant for this instance. */
  onRequest(payload: string): void {
    const parsed = requestSchema.safeParse(JSON.parse(payload));
    if (!parsed.success || parsed.data.to !== this.options.instanceId) return;
    const { id, from, runId, command } = parsed.data;
    let error: string | undefined;
    try {
      this.options.apply(runId, command);
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const reply = { id, to: from, ok: error === undefined, ...(error !== undefined && { error }) };
    this.options.notify(REPLIES_CHANNEL, JSON.stringify(reply)).catch((cause: unknown) => {
      this.options.log.warn('a command reply was not sent', { runId, error: cause });
    });
  }

  /** A reply heard on the replies channel: settles the waiting command it answers. */
  onReply(payload: string): void {
    const parsed = replySchema.safeParse(JSON.parse(payload));
    if (!parsed.success || parsed.data.to !== this.options.instanceId) return;
    const waiting = this.waiting.get(parsed.data.id);
    if (!waiting) return;
    this.waiting.delete(parsed.data.id);
    if (parsed.data.ok) waiting.resolve();
    else waiting.reject(new ConflictError(parsed.data.error ?? 'the command was refused'));
  }

  /** Every command still waiting fails (the instance is closing). */
  close(): void {
    for (const waiting of this.waiting.values()) waiting.reject(new ConflictError('the server is shutting down'));
    this.waiting.clear();
  }
}
