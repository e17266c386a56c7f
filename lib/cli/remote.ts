/**
 * `explore --server URL`: the engine's search streamed to an Arborist server through the SDK (lib/sdk), with
 * steering taken back from the page. The engine's own events go as canonical events, except the run's life, which the
 * server writes itself (run.queued and run.started at create; run.finished becomes the finish op). A command goes to
 * the engine's ExplorationControl; it is acknowledged `applied` once the engine has written its steer.* event, or
 * `refused` with the SteeringError's words (or because the search moved on, or ended, before applying it).
 * Not responsible for the search (lib/engine), delivery (lib/sdk) or the terminal output (explore.ts).
 */
import { CLIENT_EVENT_TYPES, type ClientEventType, type IngestCommand } from '../contract/ingest';
import type { EventPayloads, ExplorationEvent } from '../contract/events';
import type { JsonValue } from '../contract/vocabulary';
import type { ToTConfig, ToTResult } from '../engine/index';
import { ExplorationControl, SteeringError, type SteeringCommand } from '../engine/server';
import { Arborist, type ArboristRun, type ArboristWarning, type CommandResult, type FinishSummary } from '../sdk/index';

const CLIENT_TYPES: ReadonlySet<string> = new Set(CLIENT_EVENT_TYPES);

export interface RemoteOptions {
  server: string;
  apiKey?: string;
  goal: string;
  taskId: string;
  config: ToTConfig;
  onWarning?: (warning: ArboristWarning) => void;
}

interface Waiting {
  command: IngestCommand;
  settle: (result: CommandResult) => void;
}

function toSteering(command: IngestCommand): SteeringCommand {
  const { kind, actor } = command;
  if (kind === 'prune' || kind === 'expand') return { type: kind, nodeId: command.nodeId ?? '', actor };
  return { type: kind, actor };
}

export class RemoteRun {
  readonly control = new ExplorationControl();
  readonly run: ArboristRun;
  /** Commands handed to the engine, waiting for their steer.* event. */
  private waiting: Waiting[] = [];
  private finished: EventPayloads['run.finished'] | null = null;

  constructor(options: RemoteOptions) {
    this.run = new Arborist({
      server: options.server,
      apiKey: options.apiKey,
      onWarning: options.onWarning,
    }).startRun({
      goal: options.goal,
      task: options.taskId,
      config: { ...options.config } as Record<string, JsonValue>,
      model: 'simulated',
      agent: 'arborist-cli',
      onCommand: (command) => this.onCommand(command),
    });
  }

  private onCommand(command: IngestCommand): Promise<CommandResult> {
    try {
      this.control.send(toSteering(command));
    } catch (error) {
      if (error instanceof SteeringError) return Promise.resolve({ refused: error.message });
      throw error;
    }
    return new Promise((settle) => this.waiting.push({ command, settle }));
  }

  /** Every event of the search, in order (ExploreOptions.onEvent). */
  onEvent = (event: ExplorationEvent): void => {
    if (event.type === 'run.finished') {
      this.finished = event.payload;
    } else if (CLIENT_TYPES.has(event.type)) {
      this.run.event(event.type as ClientEventType, event.payload as never, event.ts);
    }
    if (event.type.startsWith('steer.')) {
      const kind = event.type.slice('steer.'.length);
      const payload = event.payload as { nodeId?: string; actor: string };
      const at = this.waiting.findIndex(
        ({ command }) =>
          command.kind === kind && command.actor === payload.actor && (command.nodeId ?? undefined) === payload.nodeId,
      );
      if (at >= 0) this.waiting.splice(at, 1)[0]!.settle(undefined);
    } else if (event.type === 'node.started' || event.type === 'run.finished') {
      // the engine applies commands at a step boundary; one it skipped there (the run moved on) will not come
      this.refuseWaiting(
        event.type === 'run.finished'
          ? 'the search ended before applying it'
          : 'the search moved on before applying it',
      );
    }
  };

  private refuseWaiting(reason: string): void {
    for (const { settle } of this.waiting.splice(0)) settle({ refused: reason });
  }

  /** Ends the run on the server with the search's result (or its failure) and waits for delivery. */
  async finish(result: ToTResult | null, error?: unknown): Promise<FinishSummary> {
    this.refuseWaiting('the search ended before applying it');
    const f = this.finished;
    if (!result || !f) {
      return this.run.finish({
        reason: 'error',
        detail: error instanceof Error ? error.message : error ? String(error) : null,
        success: false,
      });
    }
    return this.run.finish({
      output: f.output,
      best: f.bestNodeId,
      success: f.success,
      reason: f.reason,
      detail: f.detail,
      verified: f.verified,
    });
  }
}
