/**
 * The cost cap (ToTConfig.maxCostUsd): the search stops with finish reason 'budget' exactly before the call whose
 * estimate would take the run past the cap, never after it; the calls made are all recorded, and the spend never
 * passes the cap. The estimate's rule (prompt at the input price, the larger of maxTokens and the largest completion
 * so far at the output price), a model with no price (the cap cannot apply), and a session's allowance on resume.
 */
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import { budgetNote } from '../contract/format';
import { ScriptedTreeModel, type TreeSpec } from '../models/index';
import { BudgetedModel, BudgetReached, estimateCallCost } from './budget';
import { ThoughtTreeExecutor, type ExploreOptions } from './executor';
import { countTokens, type PriceTable } from './pricing';
import { openGoalTask } from './prompts';
import { fold } from './tree';
import type { CompletionRequest, CompletionResponse, LanguageModel } from './types';

// root -> A .7, B .6, C .5 ; A -> A1 .6, A2 .45 ; B -> B1 .75, B2 .35
const TREE: TreeSpec = {
  children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'] },
  scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35 },
};

/** Output is $0.10 a token and input free, so every call (10 output tokens) costs exactly $1. */
const PRICES: PriceTable = { priced: { inputPerMillion: 0, outputPerMillion: 100_000 } };

/** The scripted tree's answers, with usage the estimate can predict: prompt tokens counted, 10 output tokens. */
class DollarModel implements LanguageModel {
  readonly calls: CompletionRequest[] = [];
  private readonly inner: ScriptedTreeModel;
  constructor(
    spec: TreeSpec,
    readonly id = 'priced',
  ) {
    this.inner = new ScriptedTreeModel(spec, id);
  }
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.calls.push(request);
    const { text } = await this.inner.complete(request);
    const inputTokens = request.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    return { text, usage: { inputTokens, outputTokens: 10 } };
  }
}

async function search(model: LanguageModel, config: Partial<ToTConfig>, options: ExploreOptions = {}) {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor({ beamWidth: 2, ...config }).explore(
    { name: 'budget', model },
    'Plan a small garden',
    { prices: PRICES, onEvent: (e) => events.push(e), ...options },
  );
  const calls = events.filter((e) => e.type === 'model.called');
  return { result, events, calls };
}

describe('estimateCallCost', () => {
  const price = { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 }; // $1 / $2 a token
  const messages = [{ role: 'user' as const, content: 'x'.repeat(40) }]; // 10 tokens
  it('prices the prompt at the input price and the larger of maxTokens and the largest completion so far', () => {
    expect(estimateCallCost({ messages }, 0, price)).toBe(10);
    expect(estimateCallCost({ messages }, 3, price)).toBe(16);
    expect(estimateCallCost({ messages, maxTokens: 5 }, 3, price)).toBe(20);
    expect(estimateCallCost({ messages, maxTokens: 2 }, 3, price)).toBe(16);
  });
});

describe('a run with a cost cap', () => {
  it('stops with reason budget exactly before the call that would pass the cap, having recorded every call made', async () => {
    // $1 a call, the first estimated at $0 (nothing answered yet): root's generate + 3 evaluations = $4. Beam grows
    // A and B together: A's generate takes the run to $5 with the call in flight, B's would make $6 > $5: refused
    // before it starts, and nothing after it (A's evaluations are refused too).
    const model = new DollarModel(TREE);
    const { result, events, calls } = await search(model, { maxCostUsd: 5 });
    expect(result.finishReason).toBe('budget');
    expect(model.calls.map((c) => c.purpose)).toEqual(['generate', 'evaluate', 'evaluate', 'evaluate', 'generate']);
    expect(calls).toHaveLength(5);
    expect(result.usage.cost).toBeCloseTo(5, 10);
    expect(result.stats).toEqual(fold(events).stats);
    const finished = events.at(-1);
    expect(finished?.type).toBe('run.finished');
    expect(finished?.type === 'run.finished' && finished.payload.detail).toMatch(
      /cost cap of \$5\.00 was reached: \$4\.00 spent and \$1\.00 on calls in flight, and the next call would cost about \$1\.00/,
    );
    // the expansion cut short is rolled back: A was executed but never expanded
    const tree = fold(events);
    expect(Object.values(tree.nodes).filter((n) => n.depth === 2)).toHaveLength(0);
    expect(tree.inFlight).toBeNull();
  });

  it('one dollar more lets exactly one more call through', async () => {
    const model = new DollarModel(TREE);
    const { result } = await search(model, { maxCostUsd: 6 });
    expect(result.finishReason).toBe('budget');
    expect(model.calls).toHaveLength(6);
    expect(result.usage.cost).toBeCloseTo(6, 10);
  });

  it('counts evaluations in flight: a batch that cannot fit whole sends only what fits, and records it', async () => {
    // root's generate ($1), then evaluations at $1 each against a $3 cap: two fit, the third is refused
    const model = new DollarModel(TREE);
    const { result, calls, events } = await search(model, { maxCostUsd: 3 });
    expect(result.finishReason).toBe('budget');
    expect(model.calls.map((c) => c.purpose)).toEqual(['generate', 'evaluate', 'evaluate']);
    expect(calls).toHaveLength(3);
    expect(result.usage.cost).toBeCloseTo(3, 10);
    // what the notice says is what was true when the third was refused: $1 spent, $2 on the two calls in flight
    const finished = events.at(-1);
    expect(finished?.type === 'run.finished' && finished.payload.detail).toMatch(
      /cost cap of \$3\.00 was reached: \$1\.00 spent and \$2\.00 on calls in flight, and the next call would cost about \$1\.00/,
    );
  });

  it("stops between a branch run's turns too", async () => {
    const turns: TreeSpec = { ...TREE, subGoals: ['A', 'B', 'C'], raw: { execute: () => 'still working\nCONTINUE' } };
    const model = new DollarModel(turns);
    const { result, calls } = await search(model, { maxCostUsd: 6, maxIterationsPerBranch: 5 });
    expect(result.finishReason).toBe('budget');
    // 4 for the root's expansion, then A's run gets 2 turns before the third would pass $6
    expect(model.calls.map((c) => c.purpose)).toEqual([
      'generate',
      'evaluate',
      'evaluate',
      'evaluate',
      'execute',
      'execute',
    ]);
    expect(calls).toHaveLength(6);
  });

  it('refuses a synthesis that would pass the cap: the run ends as budget, with the best node as it is', async () => {
    // no node's result is an answer, so the end of the search asks for a synthesis ($1)
    const task = { ...openGoalTask, isAnswer: () => false };
    const capped = await search(new DollarModel(TREE), { maxCostUsd: 4, maxTotalNodes: 1 }, { task });
    expect(capped.result.finishReason).toBe('budget');
    expect(capped.calls).toHaveLength(4);
    expect(capped.result.answerSource).toBe('none');
    expect(capped.events.at(-1)?.type === 'run.finished' && capped.events.at(-1)?.payload).toMatchObject({
      detail: expect.stringMatching(
        /cost cap of \$4\.00 was reached.*during the synthesis \(the search had ended: node-limit\)/,
      ),
    });
    const roomy = await search(new DollarModel(TREE), { maxCostUsd: 5, maxTotalNodes: 1 }, { task });
    expect(roomy.result.finishReason).toBe('node-limit');
    expect(roomy.result.answerSource).toBe('synthesis');
    expect(roomy.calls).toHaveLength(5);
  });

  it('without a cap, or with one that is never reached, the run finishes as it would have', async () => {
    const free = await search(new DollarModel(TREE), {});
    const roomy = await search(new DollarModel(TREE), { maxCostUsd: 1000 });
    expect(free.result.finishReason).not.toBe('budget');
    expect(roomy.result.finishReason).toBe(free.result.finishReason);
    expect(roomy.calls).toHaveLength(free.calls.length);
  });

  it('a model with no price cannot be capped: it runs on, and the run says the cap did not apply', async () => {
    const { result } = await search(new DollarModel(TREE, 'unpriced-model'), { maxCostUsd: 0.01 });
    expect(result.finishReason).not.toBe('budget');
    expect(result.stats.unpricedCalls).toBeGreaterThan(0);
    expect(budgetNote(0.01, result.stats)).toBe('cap $0.01 does not apply: the model has no price');
    expect(budgetNote(5, { cost: 1.2, unpricedCalls: 0 })).toBe('cap $5.00, $1.20 spent');
    expect(budgetNote(null, result.stats)).toBeNull();
  });

  it("a session's allowance (a daily budget's remainder) binds on top of what the run had spent", async () => {
    const model = new DollarModel(TREE);
    const { result } = await search(model, {}, { spendAllowanceUsd: 2 });
    expect(result.finishReason).toBe('budget');
    expect(model.calls).toHaveLength(2);
  });
});

describe('BudgetedModel', () => {
  it('once a call is refused, every later call is refused too, without reaching the model', async () => {
    const inner = new DollarModel(TREE);
    const model = new BudgetedModel(inner, { cap: 1.5, prices: PRICES, spent: 0, largestCompletion: 10 });
    const ask = (maxTokens?: number) =>
      model.complete({ purpose: 'generate', messages: [{ role: 'user', content: 'hi' }], maxTokens });
    await expect(ask(100)).rejects.toBeInstanceOf(BudgetReached); // about $10
    await expect(ask()).rejects.toBeInstanceOf(BudgetReached); // about $1 would fit, but the search has stopped
    expect(inner.calls).toHaveLength(0);
  });
});
