import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelPurpose, ThoughtBranch } from '../../contract/vocabulary';
import {
  type CompletionRequest,
  openGoalTask as task,
  parseBranchList,
  parseScoreJson,
  type ThoughtNode,
} from '../../engine/index';
import { createRng } from '../../models/index';
import { makePath } from '../testing/trees';
import { keywordsOf, openGoalSimulation as sim, topicOf } from './simulation';

const GOAL = 'Speed up the nightly report job of our Postgres database';
const SEEDS = Array.from({ length: 500 }, (_, i) => i + 1);
const request = (purpose: ModelPurpose, messages: ChatMessage[]): CompletionRequest => ({ purpose, messages });
const pathOf = (depth: number) => makePath(Array.from({ length: depth }, (_, i) => `Step ${i + 1} of the plan`));

function generation(depth: number, count = 3, exploredThoughts: string[] = []): CompletionRequest {
  const path = pathOf(depth);
  return request(
    'generate',
    task.buildGenerationPrompt({
      goal: GOAL,
      node: path.at(-1) as ThoughtNode,
      path,
      count,
      exploredThoughts,
      scratchpad: '',
    }),
  );
}

function evaluation(depth: number, branch: ThoughtBranch): CompletionRequest {
  return request(
    'evaluate',
    task.buildEvaluationPrompt({ goal: GOAL, path: pathOf(depth), branch, siblings: [branch] }),
  );
}

function execution(branch: ThoughtBranch, previous: ChatMessage[] = []): CompletionRequest {
  const path = [...pathOf(1)];
  const parent = path.at(-1) as ThoughtNode;
  const node = { ...parent, id: 'nx', parentId: parent.id, depth: 2, branch };
  return request('execute', [
    ...task.buildExecutionPrompt({ goal: GOAL, node, path: [...path, node], scratchpad: '' }),
    ...previous,
  ]);
}

describe('open-goal simulation', () => {
  it('reads the goal as a topic and keywords', () => {
    expect(topicOf(GOAL)).toBe('the nightly report job of our Postgres database');
    expect(topicOf('How do I plan a three-day trip to Kyoto?')).toBe('a three-day trip to Kyoto');
    expect(keywordsOf(GOAL)).toEqual(['postgres', 'database', 'nightly']);
  });

  it('recognises the four open-goal prompts and nothing else', () => {
    const branch: ThoughtBranch = { thought: 'Profile it', proposedAction: { type: 'sub_goal', goal: 'Profile it' } };
    expect(sim.recognizes(generation(0))).toBe(true);
    expect(sim.recognizes(evaluation(0, branch))).toBe(true);
    expect(sim.recognizes(execution(branch))).toBe(true);
    expect(sim.recognizes(request('synthesize', task.buildSynthesisPrompt({ goal: GOAL, path: pathOf(2) })))).toBe(
      true,
    );
    expect(sim.recognizes(request('generate', [{ role: 'user', content: 'Game of 24 — propose' }]))).toBe(false);
  });

  it('is deterministic per seed', () => {
    for (const seed of [1, 2, 3])
      expect(sim.respond(generation(1), createRng(seed))).toBe(sim.respond(generation(1), createRng(seed)));
    expect(new Set(SEEDS.slice(0, 10).map((s) => sim.respond(generation(1), createRng(s)))).size).toBeGreaterThan(5);
  });

  it('proposes the number asked for, naming the goal, mixing action types; the engine parses most answers', () => {
    let parsed = 0;
    let wrapped = 0;
    const types = new Set<string>();
    for (const seed of SEEDS) {
      const text = sim.respond(generation(seed % 3, 4), createRng(seed));
      const branches = parseBranchList(text, 4);
      if (!branches) continue;
      parsed++;
      if (!text.trimStart().startsWith('[')) wrapped++;
      expect(branches).toHaveLength(4);
      expect(new Set(branches.map((b) => b.thought)).size).toBe(4);
      for (const b of branches)
        types.add(b.proposedAction.type === 'tool_call' ? `tool:${b.proposedAction.toolName}` : b.proposedAction.type);
      expect(branches.some((b) => /nightly report job|postgres|database/i.test(b.thought))).toBe(true);
    }
    const unparsed = SEEDS.length - parsed;
    expect(unparsed).toBeGreaterThan(0); // the engine's fallback gets exercised
    expect(unparsed / SEEDS.length).toBeLessThan(0.05);
    expect(wrapped).toBeGreaterThan(0); // prose or a fence, which extractJson still reads
    expect(wrapped / SEEDS.length).toBeLessThan(0.1);
    expect(types).toEqual(
      new Set(['response', 'sub_goal', 'tool:search_docs', 'tool:run_benchmark', 'tool:grep_codebase']),
    );
  });

  it('avoids thoughts already explored', () => {
    const first = parseBranchList(sim.respond(generation(0), createRng(7)), 3) ?? [];
    const explored = first.map((b) => b.thought);
    const again = parseBranchList(sim.respond(generation(0, 3, explored), createRng(7)), 3) ?? [];
    expect(again.length).toBe(3);
    for (const b of again) expect(explored).not.toContain(b.thought);
  });

  it('scores in [0, 1], sometimes low enough to drop, sometimes confident enough to stop from depth 2', () => {
    const branch: ThoughtBranch = {
      thought: 'Recommend one approach',
      proposedAction: { type: 'response', content: 'Use an index.' },
    };
    const stats = { parsed: 0, low: 0, highShallow: 0, highDeep: 0 };
    for (const seed of SEEDS) {
      for (const depth of [0, 2]) {
        const scores = parseScoreJson(sim.respond(evaluation(depth, branch), createRng(seed)));
        if (!scores) continue;
        stats.parsed++;
        for (const v of [scores.confidence, scores.progress, scores.novelty]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
        expect(scores.reasoning).toContain('Recommend one approach');
        if ((scores.confidence ?? 0) < 0.3) stats.low++;
        if ((scores.confidence ?? 0) >= 0.8) stats[depth === 0 ? 'highShallow' : 'highDeep']++;
      }
    }
    expect(stats.parsed / (SEEDS.length * 2)).toBeGreaterThan(0.95);
    expect(stats.low).toBeGreaterThan(SEEDS.length * 0.05);
    expect(stats.highShallow).toBe(0);
    expect(stats.highDeep).toBeGreaterThan(SEEDS.length * 0.1);
  });

  it('executes: a response at once; sub-goals and tool calls sometimes ask for another turn', () => {
    const respond: ThoughtBranch = {
      thought: 'Answer',
      proposedAction: { type: 'response', content: 'Add an index.' },
    };
    expect(sim.respond(execution(respond), createRng(1))).toBe('FINAL ANSWER: Add an index.');
    const tool: ThoughtBranch = {
      thought: 'Measure the baseline',
      proposedAction: { type: 'tool_call', toolName: 'run_benchmark', arguments: { runs: 5 } },
    };
    const texts = SEEDS.map((s) => sim.respond(execution(tool), createRng(s)));
    const continued = texts.filter((t) => !task.isExecutionDone(t)).length;
    expect(continued / SEEDS.length).toBeGreaterThan(0.2);
    expect(continued / SEEDS.length).toBeLessThan(0.4);
    for (const t of texts.filter((x) => task.isExecutionDone(x)))
      expect(t).toMatch(/run_benchmark[\s\S]*FINAL ANSWER: /);
    // A later turn always finishes.
    const later = SEEDS.map((s) =>
      sim.respond(
        execution(tool, [
          { role: 'assistant', content: 'CONTINUE' },
          { role: 'user', content: 'Go on.' },
        ]),
        createRng(s),
      ),
    );
    expect(later.every((t) => task.isExecutionDone(t))).toBe(true);
  });

  it('synthesises a summary that cites the path', () => {
    const path = makePath(['Profile the slowest queries', 'Add an index on report_date']);
    (path[2] as ThoughtNode).result = {
      response: 'FINAL ANSWER: the job now takes 4 minutes',
      iterations: 1,
      isAnswer: true,
    };
    const text = sim.respond(request('synthesize', task.buildSynthesisPrompt({ goal: GOAL, path })), createRng(1));
    expect(text).toContain(GOAL);
    expect(text).toContain('1. Profile the slowest queries');
    expect(text).toContain('2. Add an index on report_date — the job now takes 4 minutes');
  });
});
