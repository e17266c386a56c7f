/**
 * The tasks a run can search, as the browser, the API and every program see them: ids, names, the goal field's
 * label, help and example, whether answers are checked, and the goal's own check (the same function the server
 * runs, so the form's message and the API's refusal never disagree).
 * Where it helps: the run form and the runs list import this and nothing of lib/tasks, so no prompt, parser or
 * simulation reaches the browser's bundle.
 * Not responsible for prompts, verifiers or offline simulations: lib/tasks/index.ts extends each entry with those,
 * server side.
 */
import { codeGoalError } from './code';
import { puzzleError } from './game24-goal';

/** The longest goal a run accepts (run.create's input, and the form's message). */
export const GOAL_MAX_LENGTH = 2_000;

/** What a person and a program know about a task before anything runs. */
export interface TaskInfo<Id extends string = TaskId> {
  id: Id;
  /** The task's name in lists, filters and headers. */
  label: string;
  /** What the goal field is called: a puzzle is not a goal in words. */
  goalLabel: string;
  /** Help text for the goal field. */
  describeGoal: string;
  exampleGoal: string;
  /** The goal is words (spell-checked in the form), not a line of numbers. */
  goalIsProse: boolean;
  /** Answers are checked (the task's ThoughtTask has verifyOutput): runs show "verified" or "not verified". */
  checksAnswers: boolean;
  /** The goal's problem in a few words, or null when it can be searched. */
  validateGoal(goal: string): string | null;
}

/** An open goal is anything but nothing. */
export function openGoalError(goal: string): string | null {
  return goal.trim() ? null : 'the goal is empty';
}

const TASK_LIST = [
  {
    id: 'game24',
    label: 'Game of 24',
    goalLabel: 'Puzzle',
    describeGoal:
      'Four whole numbers from 1 to 13, separated by spaces. The search combines two numbers per step with + - * / ' +
      'until 24 is left, then writes the answer, which is checked exactly.',
    exampleGoal: '4 9 10 13',
    goalIsProse: false,
    checksAnswers: true,
    validateGoal: puzzleError,
  },
  {
    id: 'open-goal',
    label: 'Open goal',
    goalLabel: 'Goal',
    describeGoal:
      'Any problem in plain words. The search proposes approaches (answers, sub-goals, tool calls), scores them ' +
      'and follows the best; nothing is verified.',
    exampleGoal: 'Speed up the nightly report job of our Postgres database',
    goalIsProse: true,
    checksAnswers: false,
    validateGoal: openGoalError,
  },
  {
    id: 'code',
    label: 'Code change',
    goalLabel: 'Project',
    describeGoal:
      'A change to a small TypeScript project: "project: bench/<id>" picks a bundled benchmark project (its own ' +
      'request applies); "project: /absolute/folder" with "change: <what to change>" (and optionally "tests: <glob>") ' +
      'copies a local folder (admins only). Each step proposes a hypothesis with a diff; the TypeScript compiler and ' +
      "the project's tests verify it in a sandbox, and the verified patch is the output.",
    exampleGoal: 'project: bench/clamp-range',
    goalIsProse: false,
    checksAnswers: true,
    validateGoal: codeGoalError,
  },
] as const satisfies readonly TaskInfo<string>[];

/** A task's id: the list above is where a new task is named. */
export type TaskId = (typeof TASK_LIST)[number]['id'];

export const TASK_INFO: readonly TaskInfo[] = TASK_LIST;
export const TASK_IDS: readonly TaskId[] = TASK_INFO.map((t) => t.id);

export function isTaskId(id: string): id is TaskId {
  return (TASK_IDS as readonly string[]).includes(id);
}

/** The task's metadata, or null for an id no task has (an old run's, a typo in a link). */
export function taskInfo(id: string): TaskInfo | null {
  return TASK_INFO.find((t) => t.id === id) ?? null;
}

/** The task's name; an unknown id (an imported run's own task) reads as itself. */
export function taskLabel(id: string): string {
  return taskInfo(id)?.label ?? id;
}
