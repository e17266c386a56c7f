/**
 * The instance's one dedicated PostgreSQL LISTEN connection: it hears every channel the cluster uses (the events
 * channel that announces committed batches, and the command request and reply channels) and hands each payload to
 * its handler. When the connection fails it reconnects (with a growing pause, capped) and then calls `onReconnect`:
 * notifications sent while it was down are lost for good, so whoever depends on them must read the truth again
 * (every event stream re-reads the table after its cursor).
 * Sending goes through any pooled connection (`pg_notify` in the sender's own statement or transaction), not this one.
 * Not responsible for what a payload means (cluster.ts, commands.ts) nor for the event streams (event-stream.ts).
 */
import { Client } from 'pg';
import type { Logger } from '../core/logger';

export type NotificationHandler = (payload: string) => void;

export interface ListenerOptions {
  connectionString: string;
  channels: Record<string, NotificationHandler>;
  log: Logger;
  /** After a reconnect (never after the first connect): what may have been missed must be read again. */
  onReconnect: () => void;
}

const MAX_PAUSE_MS = 2_000;

export class NotificationListener {
  private client: Client | null = null;
  private closed = false;
  private connectedOnce = false;
  private retry: NodeJS.Timeout | null = null;
  private pauseMs = 50;
  /** Settles when the first connection listens (start() awaits it). */
  private ready: Promise<void> | null = null;

  constructor(private readonly options: ListenerOptions) {}

  /** Connects and listens; resolves once every channel is listened to. */
  start(): Promise<void> {
    this.ready ??= this.connect();
    return this.ready;
  }

  /** Whether the connection is up now (the health endpoint does not depend on it; tests do). */
  get listening(): boolean {
    return this.client !== null;
  }

  /**
   * Drops the connection as a network failure would (tests: a notification sent meanwhile is lost, and the
   * reconnect must make up for it).
   */
  dropConnection(): void {
    const client = this.client;
    if (!client) return;
    // the stream's own destroy: the client sees an unexpected end, as on a real network failure
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString });
    client.on('notification', (message) => {
      const handler = this.options.channels[message.channel];
      if (handler && message.payload !== undefined) {
        try {
          handler(message.payload);
        } catch (error) {
          this.options.log.warn('a notification could not be handled', { channel: message.channel, error });
        }
      }
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    await client.connect();
    for (const channel of Object.keys(this.options.channels)) {
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.pauseMs = 50;
    if (this.connectedOnce) {
      this.options.log.info('notification connection restored: streams read the log again');
      this.options.onReconnect();
    }
    this.connectedOnce = true;
  }

  private lost(client: Client, error: unknown): void {
    if (this.client !== client) return; // an old connection's late event
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.log.warn('notification connection lost: reconnecting', { error });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((error: unknown) => {
        this.options.log.warn('notification connection failed: retrying', { error });
        this.pauseMs = Math.min(MAX_PAUSE_MS, this.pauseMs * 2);
        this.scheduleReconnect();
      });
    }, this.pauseMs);
    this.retry.unref();
  }
}
