/**
 * The registry of searchable tasks: what the CLI, the API and the run form offer, each with its prompts
 * (a ThoughtTask), its offline simulation and the help text a person sees when typing a goal.
 * Not responsible for running anything (lib/engine) or for choosing a model (simulated-model.ts, lib/models).
 */
import { openGoalTask, type ThoughtTask } from '../engine/index';
import type { Simulation } from '../models/simulated';
import { game24Simulation } from './game24/simulation';
import { game24Task } from './game24/task';
import { openGoalSimulation } from './open-goal/simulation';

export type TaskId = 'game24' | 'open-goal';

export interface TaskEntry {
  id: TaskId;
  label: string;
  task: ThoughtTask;
  simulation: Simulation;
  /** Help text for the goal field. */
  describeGoal: string;
  exampleGoal: string;
}

export const TASKS: readonly TaskEntry[] = [
  {
    id: 'game24',
    label: 'Game of 24',
    task: game24Task,
    simulation: game24Simulation,
    describeGoal:
      'Four whole numbers from 1 to 13, separated by spaces. The search combines two numbers per step with + - * / ' +
      'until 24 is left, then writes the answer, which is checked exactly.',
    exampleGoal: '4 9 10 13',
  },
  {
    id: 'open-goal',
    label: 'Open goal',
    task: openGoalTask,
    simulation: openGoalSimulation,
    describeGoal:
      'Any problem in plain words. The search proposes approaches (answers, sub-goals, tool calls), scores them ' +
      'and follows the best; nothing is verified.',
    exampleGoal: 'Speed up the nightly report job of our Postgres database',
  },
];

export const TASK_IDS: readonly TaskId[] = TASKS.map((t) => t.id);

export function isTaskId(id: string): id is TaskId {
  return (TASK_IDS as readonly string[]).includes(id);
}

/** The entry for `id`; throws naming the known ids. */
export function getTaskEntry(id: string): TaskEntry {
  const entry = TASKS.find((t) => t.id === id);
  if (!entry) throw new Error(`unknown task "${id}": known tasks are ${TASK_IDS.join(', ')}`);
  return entry;
}
