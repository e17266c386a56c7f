/**
 * Test support: a scripted model that grows a tree described by a small spec, through the engine's real
 * open-goal prompts and parsers (so tests exercise them too), and a wrapper that gives any model a latency and
 * keeps the model's own log of its calls (start times, usage), a log built event by event, and the next event of
 * a log (the lifecycle the run manager writes around a search). Used by tests only.
 * Not a simulation of a real model: see lib/models/simulated.ts for that.
 */
import { DEFAULT_TOT_CONFIG } from './config';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from './events';
import { readPromptLine } from './scratchpad';
import type { BranchScore, CompletionRequest, CompletionResponse, LanguageModel, TokenUsage } from './types';

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
    if (this.spec.latencyMs) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.spec.latencyMs);
        request.signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(request.signal?.reason as Error);
        });
      });
    }
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
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        const t = setTimeout(resolve, latency);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason as Error);
        });
      });
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

function handScore(composite: number): BranchScore {
  return { confidence: 0.5, progress: 0.5, novelty: 0.5, composite, reasoning: '', fallback: false };
}

/** A log built by hand: the root, and children whose fate each test chooses (seq and ts count up from 1 and 0). */
export function handBuiltLog() {
  const events: ExplorationEvent[] = [];
  const add = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]) =>
    events.push({ runId: 'r', seq: events.length + 1, ts: events.length, type, payload } as ExplorationEvent);
  add('run.started', {
    goal: 'g',
    taskId: 'open-goal',
    agentName: 'a',
    modelId: 'm',
    config: DEFAULT_TOT_CONFIG,
  });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  const child = (id: string, composite: number) =>
    add('node.created', {
      nodeId: id,
      parentId: 'n0',
      branch: { thought: id, proposedAction: { type: 'response', content: id } },
      score: handScore(composite),
    });
  const complete = (id: string, verified?: boolean) => {
    add('node.started', { nodeId: id, mode: 'execute' });
    add('node.completed', { nodeId: id, result: { response: id, iterations: 0, isAnswer: true } });
    if (verified !== undefined) add('node.verified', { nodeId: id, passed: verified, trace: 'checked' });
  };
  const fail = (id: string) => {
    complete(id, false);
    add('node.failed', { nodeId: id, reason: 'verification failed' });
  };
  return { events, add, child, complete, fail };
}

/** The event that follows a log (next seq, a millisecond later), e.g. run.failed as the server writes it. */
export function followEvent<K extends ExplorationEventType>(
  log: readonly ExplorationEvent[],
  type: K,
  payload: EventPayloads[K],
): ExplorationEvent {
  const last = log.at(-1);
  if (!last) throw new Error('followEvent: the log is empty');
  return { runId: last.runId, seq: last.seq + 1, ts: last.ts + 1, type, payload } as ExplorationEvent;
}
