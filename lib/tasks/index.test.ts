import { describe, expect, it } from 'vitest';
import type { ThoughtNode } from '../engine/index';
import { TASK_INFO } from '../contract/tasks';
import { getTaskEntry, TASKS } from './index';
import { createSimulatedModel } from './simulated-model';
import { makePath } from './testing/trees';

describe('task registry', () => {
  it("gives every task of the contract its prompts and simulation, checking goals with the contract's rule", () => {
    expect(TASKS.map((t) => t.id)).toEqual(TASK_INFO.map((t) => t.id));
    for (const entry of TASKS) {
      expect(entry.task.id).toBe(entry.id);
      expect(entry.simulation.taskId).toBe(entry.id);
      // the search refuses what the form refuses, with the same words; it may refuse more (the code task: a project
      // that is not there), which only the server can know
      for (const goal of ['', 'x', '1 2 3', 'project: relative/folder', 'project: bench/Bad_Id', entry.exampleGoal]) {
        const formError = entry.validateGoal(goal);
        if (formError !== null) expect(entry.task.validateGoal?.(goal), `${entry.id}: ${goal}`).toBe(formError);
      }
      expect(entry.task.validateGoal?.(entry.exampleGoal) ?? null).toBeNull();
    }
  });

  it('says answers are checked exactly for the tasks whose search verifies them', () => {
    for (const entry of TASKS) expect(entry.checksAnswers, entry.id).toBe(entry.task.verifyOutput !== undefined);
  });

  it('throws a clear error for an unknown id', () => {
    expect(getTaskEntry('open-goal').task.id).toBe('open-goal');
    expect(() => getTaskEntry('chess')).toThrow('unknown task "chess": known tasks are game24, open-goal');
  });
});

describe('createSimulatedModel', () => {
  it("answers every task's prompts, deterministically per seed", async () => {
    const path = makePath([]);
    const node = path[0] as ThoughtNode;
    for (const entry of TASKS) {
      const ctx = { goal: entry.exampleGoal, node, path, count: 3, exploredThoughts: [], scratchpad: '' };
      const messages = entry.task.buildGenerationPrompt(ctx);
      const answers = await Promise.all(
        [1, 1, 2].map((seed) => createSimulatedModel({ seed }).complete({ purpose: 'generate', messages })),
      );
      expect(answers[0]?.text).toBe(answers[1]?.text);
      expect(answers[0]?.usage.outputTokens).toBeGreaterThan(0);
      // A parse failure is possible for the open goal (its simulation is sometimes messy) but not for these seeds.
      expect(entry.task.parseBranches(answers[0]?.text ?? '', ctx)?.length, entry.id).toBeGreaterThan(0);
    }
  });

  it('refuses a prompt no task knows', async () => {
    await expect(
      createSimulatedModel().complete({ purpose: 'generate', messages: [{ role: 'user', content: 'Hello' }] }),
    ).rejects.toThrow(/no simulation/);
  });
});
