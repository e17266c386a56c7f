/**
 * ScriptedTreeModel: a model whose every answer a small spec decides (which thoughts each thought branches into,
 * their scores, which are sub-goals, raw or failing answers), spoken through the engine's real open-goal prompts
 * and parsers, so a search's shape is chosen exactly. The engine's tests use it, and bench:deadline, which is why
 * it is a model here and not a test helper. Not a simulation of a real model: see simulated.ts for that.
 */
import { sleep } from '../contract/sleep';
import { type CompletionRequest, type CompletionResponse, type LanguageModel, readPromptLine } from '../engine/index';

export interface TreeSpec {
  /** Children thoughts by parent thought ('' is the root). */
  children: Record<string, string[]>;
  /** Score of a thought: its confidence, progress and novelty all equal this (so composite equals it too). */
  scores: Record<string, number>;
  /** Per-thought overrides of confidence only (composite still from `scores`). */
  confidence?: Record<string, number>;
  /** Thoughts whose action is a sub-goal (run by the model) rather than a direct response. */
  subGoals?: string[];
  /** Raw text to answer a purpose with instead of the scripted one (e.g. garbage). */
  raw?: Partial<Record<CompletionRequest['purpose'], (request: CompletionRequest) => string | null>>;
  /** Throw for these requests (a model error). */
  fail?: (request: CompletionRequest) => boolean;
  /** Milliseconds every call waits (respects abort). */
  latencyMs?: number;
}

function lastUserMessage(request: CompletionRequest): string {
  return [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

/** The thought of the node being expanded, from the open-goal generation prompt ('' for the root). */
function currentThought(prompt: string): string {
  const block = /Steps so far:\n([\s\S]*?)\n\n/.exec(prompt)?.[1] ?? '';
  const lines = block.split('\n').filter((l) => /^\d+\. /.test(l));
  return lines.length ? readPromptLine((lines[lines.length - 1] as string).replace(/^\d+\. /, '')) : '';
}

export class ScriptedTreeModel implements LanguageModel {
  readonly id: string;
  readonly calls: CompletionRequest[] = [];

  constructor(
    private readonly spec: TreeSpec,
    id = 'gpt-4o',
  ) {
    this.id = id;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.calls.push(request);
    if (this.spec.latencyMs) await sleep(this.spec.latencyMs, request.signal);
    if (this.spec.fail?.(request)) throw new Error('scripted model failure');
    const override = this.spec.raw?.[request.purpose]?.(request);
    const text = override ?? this.answer(request);
    return { text, usage: { inputTokens: 100, outputTokens: 10 } };
  }

  private answer(request: CompletionRequest): string {
    const prompt = lastUserMessage(request);
    switch (request.purpose) {
      case 'generate': {
        const children = this.spec.children[currentThought(prompt)] ?? [];
        return JSON.stringify(
          children.map((thought) => ({
            thought,
            action: this.spec.subGoals?.includes(thought)
              ? { type: 'sub_goal', goal: thought }
              : { type: 'response', content: `result of ${thought}` },
          })),
        );
      }
      case 'evaluate': {
        const thought = readPromptLine(/Candidate: (.*)/.exec(prompt)?.[1] ?? '');
        const s = this.spec.scores[thought] ?? 0.5;
        const confidence = this.spec.confidence?.[thought] ?? s;
        // progress and novelty chosen so composite = s whatever the confidence override is
        const rest = (s - 0.5 * confidence) / 0.5;
        return JSON.stringify({ confidence, progress: rest, novelty: rest, reasoning: `scripted ${s}` });
      }
      case 'execute':
        return `worked on it\n\nFINAL ANSWER: done ${readPromptLine(/Approach to carry out now: (.*)/.exec(prompt)?.[1] ?? '')}`;
      case 'synthesize':
        return 'synthesized answer';
    }
  }
}
