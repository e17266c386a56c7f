/**
 * The task and its simulation together, without the engine: the paper's breadth-first search (propose, value,
 * keep the best 5 per step) driven only by game24Task's prompts and parsers and the simulated model.
 * If prompts and simulation drift apart (a marker, a line format), this is where it shows.
 */
import { describe, expect, it } from 'vitest';
import type { ThoughtNode } from '../../engine/index';
import { createSimulatedModel } from '../simulated-model';
import { makeNode } from '../testing/trees';
import { puzzleGoal, puzzleRange } from './puzzles';
import { game24Task as task } from './task';

async function bfs(goal: string, seed: number): Promise<{ solved: boolean; failedChecks: number }> {
  const model = createSimulatedModel({ seed });
  let frontier: ThoughtNode[][] = [[makeNode('n0', null, 0, null)]];
  let ids = 1;
  let failedChecks = 0;
  for (let step = 0; step < 4; step++) {
    const scored: { path: ThoughtNode[]; confidence: number }[] = [];
    for (const path of frontier) {
      const node = path.at(-1) as ThoughtNode;
      if (task.isTerminal?.(node, path, goal)) continue;
      const ctx = { goal, node, path, count: 8, exploredThoughts: [], scratchpad: '' };
      const text = (await model.complete({ purpose: 'generate', messages: task.buildGenerationPrompt(ctx) })).text;
      for (const branch of task.parseBranches(text, ctx) ?? []) {
        const evalCtx = { goal, path, branch, siblings: [branch] };
        const verdict = await model.complete({ purpose: 'evaluate', messages: task.buildEvaluationPrompt(evalCtx) });
        const child = makeNode(`n${ids++}`, node.id, node.depth + 1, branch);
        const childPath = [...path, child];
        if (!task.verify?.(child, childPath, goal)?.passed) {
          failedChecks++;
          continue;
        }
        if (task.isAnswer?.(child, childPath, goal)) return { solved: true, failedChecks };
        scored.push({ path: childPath, confidence: task.parseScore(verdict.text, evalCtx)?.confidence ?? 0.5 });
      }
    }
    frontier = scored
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, 5)
      .map((s) => s.path);
  }
  return { solved: false, failedChecks };
}

describe('game24 task with its simulation (breadth-first, no engine)', () => {
  it("solves most of the paper's first test puzzles, with some steps failing verification on the way", async () => {
    const puzzles = puzzleRange(900, 920);
    const results = await Promise.all(puzzles.map((p, i) => bfs(puzzleGoal(p), i + 1)));
    const solved = results.filter((r) => r.solved).length;
    expect(solved).toBeGreaterThanOrEqual(12);
    expect(results.reduce((sum, r) => sum + r.failedChecks, 0)).toBeGreaterThan(0);
  });
});
