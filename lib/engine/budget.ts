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
 * Not responsible for the per-user daily cap (lib/server/daily-budget.ts, which sets a run's maxCostUsd) nor for
 * the finish itself (executor.ts).
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
  ) {
    // spent and in flight told apart: the run's final cost counts the in-flight calls at what they really cost
    const committed = inFlight > 0 ? ` and ${formatCost(inFlight)} on calls in flight` : '';
    super(
      `the cost cap of ${formatCost(cap)} was reached: ${formatCost(spent)} spent${committed}, and the next call would cost about ${formatCost(estimate)}`,
    );
    this.name = 'BudgetReached';
  }
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
  const inputTokens = request.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const outputTokens = Math.max(request.maxTokens ?? 0, largestCompletion);
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}

export interface BudgetOptions {
  /** USD; null: no cap (calls pass through, measured only). */
  cap: number | null;
  prices?: PriceTable;
  /** The run's cost so far (the folded tree's, when a run is resumed). */
  spent: number;
  /** The largest completion (output tokens) of the run so far. */
  largestCompletion: number;
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
      const response = await this.inner.complete(request);
      this.settle(response.usage);
      return response;
    } catch (error) {
      this.settle(spentByFailure(error));
      throw error;
    } finally {
      this.inFlight -= estimate;
    }
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
    this.spent += priceCall(this.id, usage, this.options.prices) ?? 0;
    this.largestCompletion = Math.max(this.largestCompletion, usage.outputTokens);
  }
}
