/**
 * The registry of searchable tasks on the server: each task's metadata (lib/contract/tasks.ts: name, goal help,
 * the goal's check) extended with its prompts (a ThoughtTask) and its offline simulation, for the CLI, the API, the
 * run manager and the simulated model. Its own module so that index.ts (the door, which re-exports it) and
 * simulated-model.ts (which plugs in every simulation) both import it without importing each other.
 * Not responsible for a task's names or help text (the contract holds them, so the browser can read them without
 * this file's prompts and simulations), for running anything (lib/engine) or for choosing a model
 * (simulated-model.ts, lib/models).
 */
import { TASK_IDS, TASK_INFO, type TaskId, type TaskInfo } from '../contract/tasks';
import { openGoalTask, type ThoughtTask } from '../engine/index';
import type { Simulation } from '../models/index';
import { codeSimulation } from './code/simulation';
import { codeTask } from './code/task';
import { game24Simulation } from './game24/simulation';
import { game24Task } from './game24/task';
import { openGoalSimulation } from './open-goal/simulation';

export interface TaskEntry extends TaskInfo {
  task: ThoughtTask;
  simulation: Simulation;
}

/** What only the server holds of each task; a task named in the contract without one here fails to compile. */
const IMPLEMENTATIONS: Record<TaskId, Pick<TaskEntry, 'task' | 'simulation'>> = {
  game24: { task: game24Task, simulation: game24Simulation },
  'open-goal': { task: openGoalTask, simulation: openGoalSimulation },
  code: { task: codeTask, simulation: codeSimulation },
};

export const TASKS: readonly TaskEntry[] = TASK_INFO.map((info) => ({ ...info, ...IMPLEMENTATIONS[info.id] }));

/** The entry for `id`; throws naming the known ids. */
export function getTaskEntry(id: string): TaskEntry {
  const entry = TASKS.find((t) => t.id === id);
  if (!entry) throw new Error(`unknown task "${id}": known tasks are ${TASK_IDS.join(', ')}`);
  return entry;
}
