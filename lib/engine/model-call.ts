/**
 * One model call, measured and priced, as the record a model.called event carries. Errors are captured,
 * not thrown, so a model that fails or returns garbage never kills a run; an abort is rethrown. A failed call is
 * priced on the tokens its error says it used (`error.usage`, as lib/models' ModelError carries), else on none.
 * The abort signal is the run's deadline: once it has fired no call starts, so every caller gets that rule here.
 * A call the cost cap refuses (BudgetReached, budget.ts) is rethrown too: it was never made.
 * A call waits for its admission (the run's limit of calls in flight, a step's hold: call-gate.ts) before it starts,
 * and its latency and startedAt are measured from then, so time spent waiting for a slot is not the model's.
 * Not responsible for retries or timeouts of a backend (lib/models does those, and reports each attempt).
 */
import type { EventPayloads } from '../contract/events';
import type { ChatMessage, ModelAttempt, ModelPurpose } from '../contract/vocabulary';
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
  /** Admits the call when a slot is free (the run's limit of calls in flight) and the step may go on. */
  admission?: CallAdmission;
}

/**
 * What a call waits for before it starts: resolves with the release of its slot, or rejects (the signal fired, the
 * step was cancelled). `now` is the run's clock, for the call's startedAt.
 */
export interface CallAdmission {
  admit(signal?: AbortSignal): Promise<() => void>;
  now(): number;
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
  const admission = options.admission;
  const release = admission ? await admission.admit(options.signal) : null;
  try {
    // the deadline may have passed while the call waited for its slot
    refuseAfterAbort(options.signal);
    return await makeCall(model, options, admission?.now() ?? Date.now());
  } finally {
    release?.();
  }
}

async function makeCall(model: LanguageModel, options: CallOptions, startedAt: number): Promise<ModelCallOutcome> {
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
        startedAt,
        ...attemptsOf(response.attempts),
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
        startedAt,
        ...attemptsOf((error as { attemptLog?: ModelAttempt[] } | null)?.attemptLog),
      },
    };
  }
}

/** A backend's attempts, recorded only when it retried (one attempt is the call itself). */
function attemptsOf(attempts: ModelAttempt[] | undefined): { attempts?: ModelAttempt[] } {
  return Array.isArray(attempts) && attempts.length > 1 ? { attempts: attempts.map((a) => ({ ...a })) } : {};
}
