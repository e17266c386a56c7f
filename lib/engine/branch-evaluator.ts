/**
 * BranchEvaluator: scores each candidate on confidence, progress and novelty in [0,1] (clamped, missing parts
 * defaulted to 0.5) and combines them into `composite` with configurable weights (0.5/0.3/0.2 by default).
 * An answer that cannot be parsed, or a failed call, gives a neutral fallback score, flagged as such.
 * Not responsible for the threshold (the executor drops candidates).
 */
import { isBudgetReached } from './budget';
import { StepCancelled } from './call-gate';
import { type CallAdmission, CutShort, callModel, type ModelCallRecord } from './model-call';
import type { PriceTable } from './pricing';
import { openGoalTask } from './prompts';
import type { BranchScore } from '../contract/vocabulary';
import type { EvaluationContext, LanguageModel, ScoreParts, ThoughtTask } from './types';

export interface EvaluatorOptions {
  model: LanguageModel;
  task?: ThoughtTask;
  confidenceWeight?: number;
  progressWeight?: number;
  noveltyWeight?: number;
  prices?: PriceTable;
}

export interface EvaluatedBranch {
  score: BranchScore;
  /** The model's text (or the call's error) when it could not be used; null otherwise. */
  raw: string | null;
  call: ModelCallRecord;
}

const NEUTRAL = 0.5;

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export class BranchEvaluator {
  private readonly model: LanguageModel;
  private readonly task: ThoughtTask;
  private readonly weights: { confidence: number; progress: number; novelty: number };
  private readonly prices?: PriceTable;

  constructor(options: EvaluatorOptions) {
    this.model = options.model;
    this.task = options.task ?? openGoalTask;
    this.weights = {
      confidence: options.confidenceWeight ?? 0.5,
      progress: options.progressWeight ?? 0.3,
      novelty: options.noveltyWeight ?? 0.2,
    };
    this.prices = options.prices;
  }

  /** The composite of score parts: a weighted mean, so weights need not sum to 1. */
  combine(parts: ScoreParts, fallback = false): BranchScore {
    const confidence = clamp01(parts.confidence ?? NEUTRAL);
    const progress = clamp01(parts.progress ?? NEUTRAL);
    const novelty = clamp01(parts.novelty ?? NEUTRAL);
    const w = this.weights;
    const total = w.confidence + w.progress + w.novelty;
    const composite = (w.confidence * confidence + w.progress * progress + w.novelty * novelty) / total;
    return {
      confidence,
      progress,
      novelty,
      composite: Math.round(composite * 1e6) / 1e6,
      reasoning: parts.reasoning ?? '',
      fallback,
    };
  }

  async evaluate(ctx: EvaluationContext, signal?: AbortSignal, admission?: CallAdmission): Promise<EvaluatedBranch> {
    const { text, record } = await callModel(this.model, {
      purpose: 'evaluate',
      messages: this.task.buildEvaluationPrompt(ctx),
      signal,
      prices: this.prices,
      admission,
    });
    if (text === null) {
      return {
        score: this.combine({ reasoning: `evaluation failed: ${record.error}` }, true),
        raw: record.error,
        call: record,
      };
    }
    const parts = this.task.parseScore(text, ctx);
    if (!parts) {
      return {
        score: this.combine({ reasoning: 'the evaluation could not be parsed' }, true),
        raw: text,
        call: record,
      };
    }
    return { score: this.combine(parts), raw: null, call: record };
  }

  /**
   * Scores every branch; calls run concurrently (as many at once as the admission lets), results keep the branches'
   * order. Every call is waited for, so when the signal, the cost cap or a cancelled step cuts some of them, the
   * CutShort thrown carries the ones that answered (they are spent).
   */
  async evaluateBatch(
    contexts: EvaluationContext[],
    signal?: AbortSignal,
    admission?: CallAdmission,
  ): Promise<EvaluatedBranch[]> {
    const settled = await Promise.allSettled(contexts.map((ctx) => this.evaluate(ctx, signal, admission)));
    const answered = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (!failure) return answered;
    // a call refused by the cost cap stops the search like an abort: the evaluations that answered are kept
    const cut = signal?.aborted || isBudgetReached(failure.reason) || failure.reason instanceof StepCancelled;
    if (!cut) throw failure.reason;
    throw new CutShort(
      answered.map((e) => e.call),
      failure.reason,
    );
  }
}
