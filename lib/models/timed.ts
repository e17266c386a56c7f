/**
 * TimedModel: wraps any model with a latency (honouring the abort signal, or deaf to it like a backend that cannot
 * cancel) and keeps the model's own log of its calls: when each started and the usage it answered with. That log
 * is the outside truth a run's deadlines and counts are checked against, by the engine's tests and by
 * bench:deadline. Not responsible for the answers (the wrapped model gives them).
 */
import { sleep } from '../contract/sleep';
import type { TokenUsage } from '../contract/vocabulary';
import type { CompletionRequest, CompletionResponse, LanguageModel } from '../engine/index';

/** One call as the model itself saw it: when it started (performance.now()) and what it answered with. */
export interface TimedCall {
  purpose: CompletionRequest['purpose'];
  startedAt: number;
  /** The usage it answered with; null while in flight or when it was cut short (it never answered). */
  usage: TokenUsage | null;
  /** True when the abort signal cut it before it answered. */
  cut: boolean;
}

export interface TimedModelOptions {
  /** Milliseconds each call takes before it answers (per request when a function). */
  latencyMs: number | ((request: CompletionRequest) => number);
  /** Like a backend that cannot cancel: the call runs to the end and answers whatever the signal says. */
  ignoreAbort?: boolean;
  /** Called as each call starts (its index in the log): lets a test act at an exact point of a run. */
  onStart?: (call: TimedCall, index: number) => void;
}

/**
 * Wraps a model with a latency and keeps its own log of every call: when it started and the usage it answered
 * with. That log is the outside truth the engine's deadlines and stats are checked against.
 */
export class TimedModel implements LanguageModel {
  readonly id: string;
  readonly log: TimedCall[] = [];

  constructor(
    private readonly inner: LanguageModel,
    private readonly options: TimedModelOptions,
  ) {
    this.id = inner.id;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const entry: TimedCall = { purpose: request.purpose, startedAt: performance.now(), usage: null, cut: false };
    this.log.push(entry);
    this.options.onStart?.(entry, this.log.length - 1);
    const signal = this.options.ignoreAbort ? undefined : request.signal;
    const latency =
      typeof this.options.latencyMs === 'function' ? this.options.latencyMs(request) : this.options.latencyMs;
    try {
      await sleep(latency, signal);
    } catch (error) {
      entry.cut = true;
      throw error;
    }
    const response = await this.inner.complete({ ...request, signal });
    entry.usage = { ...response.usage };
    return response;
  }

  /** Calls that started at or after `time` (a performance.now() reading). */
  startedFrom(time: number): TimedCall[] {
    return this.log.filter((c) => c.startedAt >= time);
  }

  /** The calls that answered, and their tokens summed. */
  answered(): { calls: number; inputTokens: number; outputTokens: number } {
    const done = this.log.filter((c) => c.usage !== null);
    return {
      calls: done.length,
      inputTokens: done.reduce((sum, c) => sum + (c.usage?.inputTokens ?? 0), 0),
      outputTokens: done.reduce((sum, c) => sum + (c.usage?.outputTokens ?? 0), 0),
    };
  }
}
