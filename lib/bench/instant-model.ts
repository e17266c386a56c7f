/**
 * A model for the benches that answers at once: three branches per generation and a score derived from the
 * prompt's hash, so the time measured is the engine's (or the store's), not a model's. Not for tests of behaviour.
 */
import type { CompletionRequest, CompletionResponse, LanguageModel } from '../engine/index';
import { hashString } from '../models/index';

/** Answers instantly: three branches per generation, a score derived from the prompt's hash. */
export class InstantModel implements LanguageModel {
  readonly id = 'gpt-4o-mini';
  private count = 0;
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.count++;
    const usage = { inputTokens: 200, outputTokens: 40 };
    if (request.purpose === 'generate') {
      const n = this.count;
      return {
        text: JSON.stringify(
          [0, 1, 2].map((i) => ({ thought: `idea ${n}.${i}`, action: { type: 'response', content: `r${n}.${i}` } })),
        ),
        usage,
      };
    }
    if (request.purpose === 'evaluate') {
      const h = (hashString(request.messages.at(-1)?.content ?? '') % 1000) / 1000;
      const v = 0.3 + h * 0.6;
      return { text: `{"confidence": ${Math.min(v, 0.79)}, "progress": ${v}, "novelty": ${v}}`, usage };
    }
    return { text: 'done', usage };
  }
}
