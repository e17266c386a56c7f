/**
 * BranchGenerator: asks the model for `count` candidate thoughts for a node, each with a proposed action,
 * passing the thoughts already explored so it proposes new ones. When the answer cannot be parsed it
 * returns the task's fallback branches and keeps the raw text, so the event log shows what went wrong.
 * Not responsible for scoring (BranchEvaluator) or for deciding what to keep (the executor).
 */
import { type CallAdmission, callModel, type ModelCallRecord } from './model-call';
import type { PriceTable } from './pricing';
import { openGoalTask } from './prompts';
import type { ThoughtBranch } from '../contract/vocabulary';
import type { GenerationContext, LanguageModel, ThoughtTask } from './types';

export interface GeneratedBranches {
  branches: ThoughtBranch[];
  /** True when the model's answer could not be parsed (or the call failed) and fallbacks were used. */
  fallback: boolean;
  /** The model's text when it could not be parsed; null otherwise. */
  raw: string | null;
  /** The call's error, when it failed: the expansion fails rather than run on invented branches. */
  error: string | null;
  call: ModelCallRecord;
}

export class BranchGenerator {
  constructor(
    private readonly model: LanguageModel,
    private readonly task: ThoughtTask = openGoalTask,
    private readonly prices?: PriceTable,
  ) {}

  async generate(ctx: GenerationContext, signal?: AbortSignal, admission?: CallAdmission): Promise<GeneratedBranches> {
    const { text, record } = await callModel(this.model, {
      purpose: 'generate',
      messages: this.task.buildGenerationPrompt(ctx),
      signal,
      prices: this.prices,
      admission,
    });
    if (text === null) return { branches: [], fallback: true, raw: null, error: record.error, call: record };
    const parsed = this.task.parseBranches(text, ctx);
    if (parsed) {
      return { branches: parsed.slice(0, ctx.count), fallback: false, raw: null, error: null, call: record };
    }
    return {
      branches: this.task.fallbackBranches(ctx).slice(0, ctx.count),
      fallback: true,
      raw: text,
      error: null,
      call: record,
    };
  }
}
