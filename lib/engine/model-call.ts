/**
 * One model call, measured and priced, as the record a model.called event carries. Errors are captured,
 * not thrown, so a model that fails or returns garbage never kills a run; an abort is rethrown. A failed call is
 * priced on the tokens its error says it used (`error.usage`, as lib/models' ModelError carries), else on none.
 * The abort signal is the run's deadline: once it has fired no call starts, so every caller gets that rule here.
 * A call the cost cap refuses (BudgetReached, budget.ts) is rethrown too: it was never made.
 * Not responsible for retries or timeouts of a backend (lib/models does those).
 */
import type { EventPayloads } from '../contract/events';
import type { ChatMessage, ModelPurpose } from '../contract/vocabulary';
import type { LanguageModel } from './types';
import { isBudgetReached } from './budget';
import { type PriceTable, priceCall, spentByFailure } from './pricing';

export type ModelCallRecord = Omit<EventPayloads['model.called'], 'nodeId'>;

export interface ModelCallOutcome {
  record: ModelCallRecord;
  /** The model's text, or null when the call failed (record.error says why). */
  text: string | null;
}

export interface CallOptions {
  purpose: ModelPurpose;
  messages: ChatMessage[];
  signal?: AbortSignal;
  prices?: PriceTable;
  temperature?: number;
  maxTokens?: number;
}

/**
 * A step cut short by the abort signal (a timeout, an abort), carrying the calls of the step that had answered
 * by then: they were spent all the same, so the executor records them before it rolls the step back.
 */
export class CutShort extends Error {
  constructor(
    readonly spent: ModelCallRecord[],
    cause: unknown,
  ) {
    super('the step was cut short by the abort signal', { cause });
    this.name = 'CutShort';
  }
}

/** Throws the signal's reason when it has fired: no model call starts after the deadline. */
export function refuseAfterAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

export async function callModel(model: LanguageModel, options: CallOptions): Promise<ModelCallOutcome> {
  refuseAfterAbort(options.signal);
  const started = performance.now();
  const messages = options.messages.map((m) => ({ ...m }));
  try {
    const response = await model.complete({
      purpose: options.purpose,
      messages,
      signal: options.signal,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
    });
    return {
      text: response.text,
      record: {
        purpose: options.purpose,
        modelId: model.id,
        messages,
        response: response.text,
        error: null,
        usage: { inputTokens: response.usage.inputTokens, outputTokens: response.usage.outputTokens },
        cost: priceCall(model.id, response.usage, options.prices),
        latencyMs: Math.round(performance.now() - started),
      },
    };
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason ?? error;
    // a call the cost cap refused was never made: it stops the search, it is not a failed call
    if (isBudgetReached(error)) throw error;
    const usage = spentByFailure(error);
    return {
      text: null,
      record: {
        purpose: options.purpose,
        modelId: model.id,
        messages,
        response: null,
        error: error instanceof Error ? error.message : String(error),
        usage,
        cost: priceCall(model.id, usage, options.prices),
        latencyMs: Math.round(performance.now() - started),
      },
    };
  }
}
