/**
 * A run's cost cap (ToTConfig.maxCostUsd): the search stops, with finish reason 'budget', before the call that
 * would take its spend past the cap. BudgetedModel wraps the run's model and is asked before every call.
 *
 * The estimate of the next call (estimateCallCost), so a call is refused before it is made rather than regretted:
 * - its prompt tokens, counted as about 4 characters a token (countTokens), at the model's input price;
 * - plus its completion at the output price, taken as the larger of the call's own maxTokens (when it sets one)
 *   and the largest completion of the run so far (0 before the first answer): a search's completions are alike,
 *   so the largest so far is a fair guess of the next, and an explicit maxTokens is the most it may cost.
 * Spend is the run's cost before this session (the tree's, on resume) plus every call settled since, plus the
 * estimates of calls still in flight (evaluations run concurrently: each is checked as it starts). Once one call
 * is refused every later call is too; calls already in flight finish and are recorded (they were within the cap).
 * A model with no price cannot be capped: its calls pass, and the run says so (lib/contract/format.ts budgetNote).
 * A SpendGate, when the run has one, is asked too, after the run's own cap: it holds each call's estimate against a
 * budget shared with other runs (team mode's daily budget, held in the database across instances) and is told what
 * the call cost when it settles. A gate's refusal ends the run as its own cap does.
 * Not responsible for the per-user daily cap itself (lib/server/runs/daily-budget.ts: the gate, and a run's
 * maxCostUsd) nor for the finish itself (executor.ts).
 */
import { formatCost } from '../contract/format';
import type { CompletionRequest, CompletionResponse, LanguageModel } from './types';
import { type ModelPrice, type PriceTable, countTokens, findPrice, priceCall, spentByFailure } from './pricing';

/** Why the search stopped: the next call's estimate would pass the cap. Thrown by BudgetedModel, never recorded as a call. */
export class BudgetReached extends Error {
  constructor(
    readonly cap: number,
    /** Settled calls' cost when the call was refused. */
    readonly spent: number,
    /** The estimates of calls still in flight then (they settle later, at their real cost). */
    readonly inFlight: number,
    readonly estimate: number,
    /** What was reached, when not the run's own cap (a SpendGate's words). */
    detail?: string,
  ) {
    // spent and in flight told apart: the run's final cost counts the in-flight calls at what they really cost
    const committed = inFlight > 0 ? ` and ${formatCost(inFlight)} on calls in flight` : '';
    super(
      detail ??
        `the cost cap of ${formatCost(cap)} was reached: ${formatCost(spent)} spent${committed}, and the next call would cost about ${formatCost(estimate)}`,
    );
    this.name = 'BudgetReached';
  }
}

/** What a call is expected to cost (usd null: the model has no price) or did cost, for a SpendGate. */
export interface CallSpend {
  usd: number | null;
  tokens: number;
}

/**
 * A budget shared beyond one run. `hold` is awaited before each call: it resolves to how to settle the call, or
 * rejects with a BudgetReached (the run ends as 'budget'); any other rejection fails the call like a model error.
 */
export interface SpendGate {
  hold(estimate: CallSpend): Promise<SpendHold>;
}

/** A call's estimate held by a SpendGate; `settle` replaces it by what the call cost (never rejects). */
export interface SpendHold {
  settle(actual: CallSpend): Promise<void>;
}

export function isBudgetReached(error: unknown): error is BudgetReached {
  return error instanceof BudgetReached;
}

/** The estimated cost of a call before it is made (see the header for the rule). */
export function estimateCallCost(
  request: Pick<CompletionRequest, 'messages' | 'maxTokens'>,
  largestCompletion: number,
  price: ModelPrice,
): number {
  const { inputTokens, outputTokens } = estimatedUsage(request, largestCompletion);
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}

/** The tokens a call is expected to take, by the same rule (a budget of tokens for a model with no price). */
export function estimatedTokens(request: Pick<CompletionRequest, 'messages' | 'maxTokens'>, largestCompletion: number) {
  const { inputTokens, outputTokens } = estimatedUsage(request, largestCompletion);
  return inputTokens + outputTokens;
}

function estimatedUsage(request: Pick<CompletionRequest, 'messages' | 'maxTokens'>, largestCompletion: number) {
  return {
    inputTokens: request.messages.reduce((sum, m) => sum + countTokens(m.content), 0),
    outputTokens: Math.max(request.maxTokens ?? 0, largestCompletion),
  };
}

export interface BudgetOptions {
  /** USD; null: no cap (calls pass through, measured only). */
  cap: number | null;
  prices?: PriceTable;
  /** The run's cost so far (the folded tree's, when a run is resumed). */
  spent: number;
  /** The largest completion (output tokens) of the run so far. */
  largestCompletion: number;
  /** A budget shared with other runs, asked after the run's own cap (see the header). */
  gate?: SpendGate | null;
}

/** The run's model, asked before each call whether the cap allows it (same id: pricing and events see the model). */
export class BudgetedModel implements LanguageModel {
  readonly id: string;
  private spent: number;
  private largestCompletion: number;
  private inFlight = 0;
  private readonly price: ModelPrice | null;
  /** Set once a call is refused: every later call is refused with it. */
  reached: BudgetReached | null = null;

  constructor(
    private readonly inner: LanguageModel,
    private readonly options: BudgetOptions,
  ) {
    this.id = inner.id;
    this.spent = options.spent;
    this.largestCompletion = options.largestCompletion;
    this.price = findPrice(inner.id, options.prices);
  }

  /** The cap cannot apply: one is set and the model has no price. */
  get unenforceable(): boolean {
    return this.options.cap !== null && this.price === null;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const estimate = this.check(request);
    this.inFlight += estimate;
    try {
      const hold = await this.holdAtGate(request);
      let usage = spentByFailure(null);
      try {
        const response = await this.inner.complete(request);
        usage = response.usage;
        return response;
      } catch (error) {
        usage = spentByFailure(error);
        throw error;
      } finally {
        this.settle(usage);
        await hold?.settle({
          usd: this.price ? this.priced(usage) : null,
          tokens: usage.inputTokens + usage.outputTokens,
        });
      }
    } finally {
      this.inFlight -= estimate;
    }
  }

  /** The gate's hold of this call's estimate; its BudgetReached is kept, so every later call is refused with it. */
  private async holdAtGate(request: CompletionRequest): Promise<SpendHold | null> {
    const gate = this.options.gate;
    if (!gate) return null;
    const tokens = estimatedTokens(request, this.largestCompletion);
    const usd = this.price ? estimateCallCost(request, this.largestCompletion, this.price) : null;
    try {
      return await gate.hold({ usd, tokens });
    } catch (error) {
      if (isBudgetReached(error)) this.reached ??= error;
      throw this.reached ?? error;
    }
  }

  private priced(usage: { inputTokens: number; outputTokens: number }): number {
    return priceCall(this.id, usage, this.options.prices) ?? 0;
  }

  /** The call's estimate, or a BudgetReached thrown when it would pass the cap (synchronous: concurrent calls queue up in order). */
  private check(request: CompletionRequest): number {
    if (this.reached) throw this.reached;
    const cap = this.options.cap;
    if (cap === null || this.price === null) return 0;
    const estimate = estimateCallCost(request, this.largestCompletion, this.price);
    if (this.spent + this.inFlight + estimate > cap) {
      this.reached = new BudgetReached(cap, this.spent, this.inFlight, estimate);
      throw this.reached;
    }
    return estimate;
  }

  private settle(usage: { inputTokens: number; outputTokens: number }): void {
    this.spent += this.priced(usage);
    this.largestCompletion = Math.max(this.largestCompletion, usage.outputTokens);
  }
}
