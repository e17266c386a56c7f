// The executor, rule by rule (issue 2): each test uses a scripted model on a small known tree.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOT_CONFIG, InvalidConfigError } from './config';
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import type { ThoughtTask } from './types';
import { ThoughtTreeExecutor, type ExploreOptions, type ToTCallbacks } from './executor';
import { openGoalTask } from './prompts';
import { ScriptedTreeModel, type TreeSpec } from '../models/index';

// root -> A .7, B .6, C .5 ; A -> A1 .6, A2 .45 ; B -> B1 .75, B2 .35 (cumulative: B1 1.35 > A1 1.3 > A2 1.15 > B2 .95)
const TREE: TreeSpec = {
  children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'] },
  scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35 },
};

async function explore(
  spec: TreeSpec,
  config: Partial<ToTConfig> & ToTCallbacks = {},
  options: ExploreOptions = {},
  goal = 'Plan a migration',
) {
  const model = new ScriptedTreeModel(spec);
  const events: ExplorationEvent[] = [];
  const executor = new ThoughtTreeExecutor({ maxDepth: 2, ...config });
  const result = await executor.explore({ name: 'tester', model }, goal, {
    ...options,
    onEvent: (e) => {
      events.push(e);
      options.onEvent?.(e);
    },
  });
  const thoughtOf = (id: string) => result.tree.nodes[id]?.branch?.thought ?? '(root)';
  const executed = events
    .filter((e) => e.type === 'node.started' && e.payload.mode === 'execute')
    .map((e) => thoughtOf((e.payload as { nodeId: string }).nodeId));
  const steps = events
    .filter((e) => e.type === 'node.started')
    .map(
      (e) => `${e.payload.mode === 'execute' ? 'run' : 'grow'} ${thoughtOf((e.payload as { nodeId: string }).nodeId)}`,
    );
  return { result, events, executed, steps, model };
}

const byType = <K extends ExplorationEvent['type']>(events: ExplorationEvent[], type: K) =>
  events.filter((e): e is EventOf<K> => e.type === type);

describe('rule 1: config and goal validation', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_TOT_CONFIG).toMatchObject({
      maxDepth: 5,
      branchFactor: 3,
      beamWidth: 2,
      explorationStrategy: 'beam',
      confidenceThreshold: 0.3,
      terminationConfidence: 0.8,
      maxTotalNodes: 50,
      maxIterationsPerBranch: 3,
      timeout: null,
    });
    expect(new ThoughtTreeExecutor().config).toEqual(DEFAULT_TOT_CONFIG);
  });

  it('refuses an invalid config with every bad field named', () => {
    const attempt = () =>
      new ThoughtTreeExecutor({ branchFactor: 0, confidenceThreshold: 1.5, explorationStrategy: 'random' as never });
    expect(attempt).toThrow(InvalidConfigError);
    for (const field of ['branchFactor', 'confidenceThreshold', 'explorationStrategy']) {
      expect(attempt).toThrow(new RegExp(field));
    }
  });

  it('refuses an empty goal before any model call', async () => {
    const model = new ScriptedTreeModel(TREE);
    await expect(new ThoughtTreeExecutor().explore({ name: 't', model }, '   ')).rejects.toThrow(/goal is empty/);
    expect(model.calls).toHaveLength(0);
  });

  it('uses config.timeout by default and lets explore() override it', async () => {
    const slow: TreeSpec = { ...TREE, latencyMs: 40 };
    const byConfig = await explore(slow, { timeout: 60 });
    expect(byConfig.result.finishReason).toBe('timeout');
    const overridden = await explore(slow, { timeout: 60 }, { timeout: null });
    expect(overridden.result.finishReason).not.toBe('timeout');
    const shorter = await explore(slow, {}, { timeout: 60 });
    expect(shorter.result.finishReason).toBe('timeout');
  });
});

describe('rule 2: generation', () => {
  it('asks for branchFactor candidates and passes the thoughts already explored', async () => {
    const { model } = await explore(TREE, { branchFactor: 3 });
    const prompts = model.calls.filter((c) => c.purpose === 'generate').map((c) => c.messages.at(-1)?.content ?? '');
    expect(prompts[0]).toContain('Propose exactly 3');
    expect(prompts[0]).not.toContain('Thoughts already explored');
    // by the time A is grown, A and B have run
    expect(prompts[1]).toMatch(/Thoughts already explored[\s\S]*- A\n- B/);
  });

  it('falls back to generic branches on unparseable output and keeps the raw text in the event', async () => {
    const spec: TreeSpec = {
      ...TREE,
      raw: {
        generate: (r) => (r.messages.at(-1)?.content.includes('(none yet') ? 'I cannot answer in JSON, sorry.' : null),
      },
    };
    const { events, result } = await explore(spec, { maxDepth: 1 });
    const generated = byType(events, 'branches.generated')[0];
    expect(generated?.payload).toMatchObject({ fallback: true, raw: 'I cannot answer in JSON, sorry.' });
    expect((generated?.payload as { branches: unknown[] }).branches).toHaveLength(3);
    expect(result.tree.nodes.n1?.branch?.thought).toMatch(/Break "Plan a migration" into smaller sub-problems/);
  });

  it('reads JSON wrapped in prose or a code fence', async () => {
    const spec: TreeSpec = {
      ...TREE,
      raw: {
        generate: (r) =>
          r.messages.at(-1)?.content.includes('(none yet')
            ? 'Here you go:\n```json\n[{"thought":"A","action":{"type":"response","content":"x"}}]\n```\nHope it helps.'
            : null,
      },
    };
    const { events } = await explore(spec, { maxDepth: 1 });
    expect(byType(events, 'branches.generated')[0]?.payload).toMatchObject({ fallback: false, raw: null });
  });
});

describe('rule 3: evaluation', () => {
  it('clamps scores to [0,1], defaults missing parts and weighs them 0.5/0.3/0.2', async () => {
    const spec: TreeSpec = { ...TREE, raw: { evaluate: () => '{"confidence": 1.7, "progress": -2}' } };
    const { events } = await explore(spec, { maxDepth: 1 });
    const score = (byType(events, 'branch.scored')[0]?.payload as unknown as { score: Record<string, number> }).score;
    expect(score).toMatchObject({ confidence: 1, progress: 0, novelty: 0.5 });
    expect(score.composite).toBeCloseTo(0.5 * 1 + 0.3 * 0 + 0.2 * 0.5);
  });

  it('uses configured weights', async () => {
    const spec: TreeSpec = { ...TREE, raw: { evaluate: () => '{"confidence": 1, "progress": 0, "novelty": 0}' } };
    const { events } = await explore(spec, { maxDepth: 1, confidenceWeight: 1, progressWeight: 1, noveltyWeight: 2 });
    const score = (byType(events, 'branch.scored')[0]?.payload as { score: { composite: number } }).score;
    expect(score.composite).toBeCloseTo(0.25);
  });

  it('gives a flagged fallback score when the answer cannot be parsed, keeping the raw text', async () => {
    const spec: TreeSpec = { ...TREE, raw: { evaluate: () => 'looks good to me!' } };
    const { events } = await explore(spec, { maxDepth: 1 });
    expect(byType(events, 'branch.scored')[0]?.payload).toMatchObject({
      raw: 'looks good to me!',
      score: { composite: 0.5, fallback: true },
    });
  });
});

describe('rules 4 and 5: pruning and the beam', () => {
  it('drops candidates below the threshold, with the reason, and counts them', async () => {
    const { events, result } = await explore(TREE, { confidenceThreshold: 0.55, maxDepth: 1 });
    const dropped = byType(events, 'candidate.dropped');
    expect(dropped.map((e) => (e.payload as { branch: { thought: string } }).branch.thought)).toEqual(['C']);
    expect(dropped[0]?.payload).toMatchObject({ reason: 'composite 0.50 is below the threshold 0.55' });
    expect(result.stats.prunedNodes).toBe(1);
    expect(Object.values(result.tree.nodes).map((n) => n.branch?.thought)).not.toContain('C');
  });

  it('queues the beamWidth best children and keeps the rest as pending alternatives', async () => {
    const { events, result, executed } = await explore(TREE, { maxDepth: 1, beamWidth: 2 });
    const firstQueued = byType(events, 'node.queued')
      .filter((e) => e.payload.mode === 'execute')
      .slice(0, 2);
    expect(
      firstQueued.map((e) => result.tree.nodes[(e.payload as { nodeId: string }).nodeId]?.branch?.thought),
    ).toEqual(['A', 'B']);
    expect(executed).toEqual(['A', 'B']);
    const c = Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'C');
    expect(c?.status).toBe('pending');
    expect(result.stats.totalNodes).toBe(3);
    expect(result.stats.exploredNodes).toBe(2);
  });
});

describe('rule 6: execution', () => {
  it('takes a direct response as is, without a model call', async () => {
    const { model, result } = await explore(TREE, { maxDepth: 1 });
    expect(model.calls.filter((c) => c.purpose === 'execute')).toHaveLength(0);
    expect(Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'A')?.result).toMatchObject({
      response: 'result of A',
      iterations: 0,
    });
  });

  it('runs a sub-goal on the model for at most maxIterationsPerBranch turns', async () => {
    const spec: TreeSpec = { ...TREE, subGoals: ['A'], raw: { execute: () => 'still working... CONTINUE' } };
    const { model, result } = await explore(spec, { maxDepth: 1, maxIterationsPerBranch: 3 });
    const runs = model.calls.filter((c) => c.purpose === 'execute');
    expect(runs).toHaveLength(3);
    expect(runs[0]?.messages.at(-1)?.content).toMatch(/Goal: Plan a migration[\s\S]*Approach to carry out now: A/);
    expect(runs[2]?.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
    expect(Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'A')?.result?.iterations).toBe(3);
  });

  it('stops a branch run at the final answer and keeps the text after the marker', async () => {
    const spec: TreeSpec = { ...TREE, subGoals: ['A'] };
    const { model, result } = await explore(spec, { maxDepth: 1 });
    expect(model.calls.filter((c) => c.purpose === 'execute')).toHaveLength(1);
    expect(Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'A')?.result?.response).toBe('done A');
  });

  it('queues a completed node below maxDepth for expansion, and never one at maxDepth', async () => {
    const { steps } = await explore(TREE, { maxDepth: 2 });
    expect(steps).toContain('grow A');
    expect(steps.filter((s) => s.startsWith('grow A1') || s.startsWith('grow B1'))).toEqual([]);
  });
});

describe('rule 7: termination', () => {
  it('stops as soon as an executed node reaches terminationConfidence', async () => {
    const spec: TreeSpec = { ...TREE, confidence: { B1: 0.9 } };
    const { result, executed } = await explore(spec);
    expect(executed).toEqual(['A', 'B', 'B1']);
    expect(result.finishReason).toBe('terminated');
  });

  it('executes exactly maxTotalNodes nodes, never one more', async () => {
    for (const cap of [1, 2, 3, 5]) {
      const { result, executed } = await explore(TREE, { maxTotalNodes: cap });
      expect(executed).toHaveLength(cap);
      expect(result.stats.exploredNodes).toBe(cap);
      expect(result.finishReason).toBe('node-limit');
    }
  });

  it('stops when the frontier is empty', async () => {
    const { result, executed } = await explore(TREE);
    expect(executed).toHaveLength(6);
    expect(result.finishReason).toBe('frontier-empty');
  });

  it('returns the best node so far on abort', async () => {
    const controller = new AbortController();
    const { result } = await explore(
      { ...TREE, latencyMs: 5 },
      {},
      {
        abortSignal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'node.completed') controller.abort();
        },
      },
    );
    expect(result.finishReason).toBe('aborted');
    expect(result.bestPath.at(-1)?.branch?.thought).toBe('A');
    expect(result.output).toBe('result of A');
    expect(result.tree.status).toBe('finished');
    expect(Object.values(result.tree.nodes).some((n) => n.status === 'running')).toBe(false);
  });
});

describe('rule 8: the winner', () => {
  it('is the completed node with the highest cumulative score, and its answer is the output', async () => {
    const { result, model } = await explore(TREE);
    expect(result.bestPath.map((n) => n.branch?.thought ?? 'root')).toEqual(['root', 'B', 'B1']);
    expect(result.output).toBe('result of B1');
    expect(result.success).toBe(true);
    expect(model.calls.filter((c) => c.purpose === 'synthesize')).toHaveLength(0);
  });

  it('is synthesised with one more call when the winner has no answer', async () => {
    const task: ThoughtTask = { ...openGoalTask, isAnswer: () => false };
    const { result, model } = await explore(TREE, {}, { task });
    expect(model.calls.filter((c) => c.purpose === 'synthesize')).toHaveLength(1);
    expect(result.output).toBe('synthesized answer');
    expect(result.stats.llmCalls).toBe(model.calls.filter((c) => c.purpose !== 'execute').length);
  });

  it('says where the output came from, and lets the task verify a synthesised one', async () => {
    const fromNode = await explore(TREE);
    expect(fromNode.result.answerSource).toBe('node');
    expect(fromNode.result.verified).toBeNull(); // the open goal verifies nothing
    const check = (output: string) => ({ passed: output === 'synthesized answer', trace: 'checked' });
    const task: ThoughtTask = { ...openGoalTask, isAnswer: () => false, verifyOutput: check };
    const synthesized = await explore(TREE, {}, { task });
    expect(synthesized.result).toMatchObject({ answerSource: 'synthesis', verified: true });
    const wrong: ThoughtTask = { ...task, verifyOutput: () => ({ passed: false, trace: 'no' }) };
    expect((await explore(TREE, {}, { task: wrong })).result.verified).toBe(false);
  });

  it('is not success when no node completed', async () => {
    const spec: TreeSpec = { ...TREE, scores: { A: 0.1, B: 0.1, C: 0.1 } };
    const { result } = await explore(spec);
    expect(result.success).toBe(false);
    expect(result.finishReason).toBe('frontier-empty');
  });
});

describe('rule 9: strategies (same tree, different orders)', () => {
  it('beam runs level by level: shallowest first, pending before completed, then cumulative score', async () => {
    const { executed, steps } = await explore(TREE, { explorationStrategy: 'beam' });
    expect(executed).toEqual(['A', 'B', 'B1', 'A1', 'A2', 'B2']);
    expect(steps.slice(0, 5)).toEqual(['grow (root)', 'run A', 'run B', 'grow A', 'grow B']);
  });

  it('best-first runs the highest own composite first', async () => {
    const { executed } = await explore(TREE, { explorationStrategy: 'best-first' });
    expect(executed).toEqual(['A', 'B', 'A1', 'B1', 'A2', 'B2']);
  });

  it('dfs goes deep first, the best child of the latest expansion on top', async () => {
    const { executed, steps } = await explore(TREE, { explorationStrategy: 'dfs' });
    expect(executed).toEqual(['A', 'A1', 'A2', 'B', 'B1', 'B2']);
    expect(steps.slice(0, 4)).toEqual(['grow (root)', 'run A', 'grow A', 'run A1']);
  });
});

describe('rule 10: backtracking', () => {
  it('fails a node whose candidates all fall below the threshold and queues the best pending sibling next', async () => {
    const spec: TreeSpec = { ...TREE, scores: { ...TREE.scores, A1: 0.1, A2: 0.2 } };
    const seen: string[] = [];
    const { result, executed, events } = await explore(spec, {
      onBacktrack: (from, to) => seen.push(`${from.branch?.thought} -> ${to?.branch?.thought ?? 'none'}`),
    });
    expect(seen[0]).toBe('A -> C');
    const a = Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'A');
    expect(a?.status).toBe('failed');
    expect(a?.failureReason).toMatch(/all 2 candidates scored below the threshold/);
    expect(executed.slice(0, 3)).toEqual(['A', 'B', 'C']);
    expect(byType(events, 'backtrack')[0]?.payload).toMatchObject({
      reason: expect.stringContaining('below the threshold'),
    });
    expect(result.stats.backtrackCount).toBeGreaterThanOrEqual(1);
  });

  it('goes to a pending sibling of the nearest ancestor when the node has none', async () => {
    // beamWidth 1: B waits as an alternative; A's only child A1 dead-ends
    const spec: TreeSpec = {
      children: { '': ['A', 'B'], A: ['A1'], A1: ['x', 'y'] },
      scores: { A: 0.7, B: 0.6, A1: 0.6, x: 0.1, y: 0.1 },
    };
    const seen: string[] = [];
    const { executed } = await explore(spec, {
      beamWidth: 1,
      maxDepth: 3,
      onBacktrack: (from, to) => seen.push(`${from.branch?.thought} -> ${to?.branch?.thought ?? 'none'}`),
    });
    expect(seen[0]).toBe('A1 -> B');
    expect(executed).toEqual(['A', 'A1', 'B']);
  });

  it('reports null when no alternative is left', async () => {
    const spec: TreeSpec = { children: { '': ['A'], A: ['x'] }, scores: { A: 0.7, x: 0.1 } };
    const seen: (string | null)[] = [];
    await explore(spec, { onBacktrack: (_from, to) => seen.push(to?.id ?? null) });
    expect(seen).toEqual([null]);
  });

  it('fails a node whose run hits a model error, and backtracks', async () => {
    const spec: TreeSpec = { ...TREE, subGoals: ['A'], fail: (r) => r.purpose === 'execute' };
    const { result, events } = await explore(spec, { maxDepth: 1 });
    const a = Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'A');
    expect(a?.status).toBe('failed');
    expect(a?.failureReason).toMatch(/model error: scripted model failure/);
    expect(byType(events, 'backtrack')[0]?.payload).toMatchObject({ fromId: a?.id, toId: 'n3' });
    expect(result.tree.status).toBe('finished');
  });

  it('fails a node whose verification fails, keeping the trace, and backtracks', async () => {
    const task: ThoughtTask = {
      ...openGoalTask,
      verify: (node) =>
        node.branch?.thought === 'B' ? { passed: false, trace: 'type error in B' } : { passed: true, trace: 'ok' },
    };
    const { result, events } = await explore(TREE, { maxDepth: 1 }, { task });
    const b = Object.values(result.tree.nodes).find((n) => n.branch?.thought === 'B');
    expect(b?.status).toBe('failed');
    expect(b?.verification).toEqual({ passed: false, trace: 'type error in B' });
    expect(byType(events, 'backtrack').map((e) => e.payload)).toContainEqual(
      expect.objectContaining({ fromId: b?.id, reason: 'verification failed' }),
    );
  });
});

describe('rule 11: callbacks and progress', () => {
  it('calls every callback, and onProgress after every step', async () => {
    const calls = { generated: 0, evaluated: 0, explored: 0 };
    let progress = 0;
    const { steps } = await explore(
      TREE,
      {
        onBranchGenerated: () => calls.generated++,
        onBranchEvaluated: () => calls.evaluated++,
        onNodeExplored: () => calls.explored++,
      },
      { onProgress: () => progress++ },
    );
    expect(calls).toEqual({ generated: 3, evaluated: 7, explored: 6 });
    expect(progress).toBe(steps.length);
  });
});

describe('rule 12: stats and usage', () => {
  it('counts nodes, calls, tokens and cost honestly', async () => {
    const spec: TreeSpec = { ...TREE, subGoals: ['A'] };
    const { result, model } = await explore(spec);
    const own = model.calls.filter((c) => c.purpose !== 'execute').length;
    expect(result.stats.totalNodes).toBe(7); // C never ran but was created
    expect(result.stats.exploredNodes).toBe(6);
    expect(result.stats.exploredNodes).not.toBe(result.stats.totalNodes);
    expect(result.stats.llmCalls).toBe(own);
    expect(result.stats.modelCalls).toBe(model.calls.length);
    expect(result.usage.inputTokens).toBe(100 * model.calls.length); // branch runs included
    expect(result.usage.outputTokens).toBe(10 * model.calls.length);
    // gpt-4o: $2.50 / 1M input, $10 / 1M output
    expect(result.usage.cost).toBeCloseTo((model.calls.length * (100 * 2.5 + 10 * 10)) / 1e6, 12);
    expect(result.stats.maxDepthReached).toBe(2);
  });

  it('prices an unknown model as unpriced rather than free', async () => {
    const model = new ScriptedTreeModel(TREE, 'my-local-llama');
    const result = await new ThoughtTreeExecutor({ maxDepth: 1 }).explore({ name: 't', model }, 'goal');
    expect(result.usage.cost).toBe(0);
    expect(result.stats.unpricedCalls).toBe(model.calls.length);
  });
});

describe('rule 13: the scratchpad', () => {
  it('carries verified steps in full and dead ends as one escaped line', async () => {
    const spec: TreeSpec = {
      children: { '': ['A', 'B <script>'], A: ['A1'], 'B <script>': ['x'] },
      scores: { A: 0.7, 'B <script>': 0.6, A1: 0.6, x: 0.1 },
    };
    const task: ThoughtTask = {
      ...openGoalTask,
      verify: (n) => ({ passed: true, trace: `checked ${n.branch?.thought}` }),
    };
    const { model } = await explore(spec, { maxDepth: 3, explorationStrategy: 'beam' }, { task });
    // beam: run A, run B, grow A, grow B (fails: x is too weak), run A1, grow A1 (sees both)
    const growA1 = model.calls
      .filter((c) => c.purpose === 'generate')
      .map((c) => c.messages.at(-1)?.content ?? '')
      .find((p) => /Steps so far:\n1\. A\n2\. A1\n/.test(p));
    expect(growA1).toContain('<hypothesis>A1</hypothesis>');
    expect(growA1).toContain('<verification_trace status="PASS">checked A</verification_trace>');
    expect(growA1).toContain(
      '<pruned_branch id="n2" depth="1">B &lt;script&gt; (all 1 candidates scored below the threshold 0.30)</pruned_branch>',
    );
    const xml = /<thinking_scratchpad>[\s\S]*<\/thinking_scratchpad>/.exec(growA1 ?? '')?.[0];
    expect(xml).not.toContain('<script>');
  });
});

describe("a task's preparation (ThoughtTask.prepare: the code task reads its folder before the first prompt)", () => {
  it('is awaited before the first prompt is built', async () => {
    let ready = false;
    const task: ThoughtTask = {
      ...openGoalTask,
      prepare: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ready = true;
      },
      buildGenerationPrompt: (ctx) => {
        if (!ready) throw new Error('prompt built before the task was prepared');
        return openGoalTask.buildGenerationPrompt(ctx);
      },
    };
    const { result } = await explore(TREE, {}, { task });
    expect(result.stats.exploredNodes).toBeGreaterThan(0);
  });

  it('that fails ends the run as an error saying why, before any model call', async () => {
    const task: ThoughtTask = {
      ...openGoalTask,
      prepare: async () => {
        throw new Error('the folder has gone');
      },
    };
    const { result, events } = await explore(TREE, {}, { task });
    expect(result.finishReason).toBe('error');
    expect(result.tree.finishDetail).toBe('the task could not start: the folder has gone');
    expect(events.filter((e) => e.type === 'model.called')).toHaveLength(0);
  });
});
