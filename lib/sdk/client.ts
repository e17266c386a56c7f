/**
 * The SDK's entry point: `new Arborist({ server, apiKey })` holds the settings, `startRun({ goal, ... })` attaches one
 * search and returns at once (the run is created in the background). Defaults suit a laptop and a shared server:
 * batches of up to 200 items or 250 ms, retries backing off from 250 ms to 10 s, a buffer of 10,000 items.
 * Not responsible for a run's life (run.ts) or HTTP (transport.ts).
 */
import { ArboristRun, type ArboristWarning, type RunSettings, type StartRunOptions } from './run';

export interface ArboristOptions {
  /** The Arborist server's base URL ("http://127.0.0.1:3000"). */
  server: string;
  /** A member's API key (team mode); a local server on loopback needs none. */
  apiKey?: string;
  /** Items per request at most (default 200; the server takes up to 5,000). */
  batchSize?: number;
  /** How long an item may wait for a batch to fill (default 250 ms). */
  flushIntervalMs?: number;
  /** Items kept while the server is unreachable; beyond it the newest are dropped, counted (default 10,000). */
  maxBufferedItems?: number;
  /** The first retry's delay (default 250 ms); it doubles, with jitter, up to retryMaxMs (default 10 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** A request's time limit (default 15 s). */
  requestTimeoutMs?: number;
  /** How long one long poll for commands waits on the server (default 20 s). */
  pollWaitMs?: number;
  /** How long finish() waits for the server at most (default 30 s). */
  finishTimeoutMs?: number;
  /** Node: send what is buffered when the program is about to exit (default true). */
  flushOnExit?: boolean;
  /**
   * Where warnings go (default console.warn). A warning about the run (unreachable, overflow, ...) is said once until
   * it clears; one about an item (refused, converted) is said per item, at most ten lines in ten seconds.
   */
  onWarning?: (warning: ArboristWarning) => void;
  /** The fetch to use (default globalThis.fetch). */
  fetch?: typeof fetch;
}

export class Arborist {
  private readonly settings: RunSettings;

  constructor(options: ArboristOptions) {
    const positive = (value: number | undefined, fallback: number) =>
      value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
    const onWarning = options.onWarning;
    this.settings = {
      transport: {
        server: options.server,
        apiKey: options.apiKey,
        fetch: options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args)),
      },
      batchSize: Math.min(5_000, Math.floor(positive(options.batchSize, 200))),
      flushIntervalMs: positive(options.flushIntervalMs, 250),
      maxBufferedItems: positive(options.maxBufferedItems, 10_000),
      backoff: { baseMs: positive(options.retryBaseMs, 250), maxMs: positive(options.retryMaxMs, 10_000) },
      requestTimeoutMs: positive(options.requestTimeoutMs, 15_000),
      pollWaitMs: positive(options.pollWaitMs, 20_000),
      finishTimeoutMs: positive(options.finishTimeoutMs, 30_000),
      flushOnExit: options.flushOnExit ?? true,
      warn: onWarning ?? ((w) => console.warn(`arborist: ${w.message}`)),
    };
  }

  /** Attaches one search: returns at once and never throws; the run is created in the background. */
  startRun(options: StartRunOptions): ArboristRun {
    return new ArboristRun(this.settings, options);
  }
}
