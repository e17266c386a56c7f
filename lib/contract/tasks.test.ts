import { describe, expect, it } from 'vitest';
import { GOAL_MAX_LENGTH, TASK_IDS, TASK_INFO, isTaskId, taskInfo, taskLabel } from './tasks';

describe('task metadata', () => {
  it('lists the Game of 24 and the open goal, each with help and an example its own check accepts', () => {
    expect(TASK_IDS).toEqual(['game24', 'open-goal', 'code']);
    for (const task of TASK_INFO) {
      expect(task.label).not.toBe('');
      expect(task.describeGoal.length).toBeGreaterThan(20);
      expect(task.exampleGoal.length).toBeLessThanOrEqual(GOAL_MAX_LENGTH);
      expect(task.validateGoal(task.exampleGoal), task.id).toBeNull();
    }
  });

  it("checks a puzzle's numbers and an open goal's emptiness, saying what is wrong", () => {
    const game24 = taskInfo('game24');
    expect(game24?.validateGoal('4 9 10')).toMatch(/four whole numbers.*got 3/);
    expect(game24?.validateGoal('4 9 10 14')).toMatch(/14 is out of range/);
    expect(game24?.goalIsProse).toBe(false);
    expect(taskInfo('open-goal')?.validateGoal('   ')).toBe('the goal is empty');
    expect(taskInfo('open-goal')?.validateGoal('Plan a trip')).toBeNull();
  });

  it('knows its ids, and names an unknown task by its id', () => {
    expect(isTaskId('game24')).toBe(true);
    expect(isTaskId('chess')).toBe(false);
    expect(taskInfo('chess')).toBeNull();
    expect(taskLabel('game24')).toBe('Game of 24');
    expect(taskLabel('tree-of-thought-llm')).toBe('tree-of-thought-llm');
  });
});
