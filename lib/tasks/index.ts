/**
 * The front door of lib/tasks: the server's task registry (registry.ts: TASKS, TaskEntry, getTaskEntry) and what
 * other rooms use of a task beyond it (for the server, the CLI, lib/formats, benches and tests; the browser takes a
 * task's names from lib/contract/tasks.ts instead).
 * Not responsible for anything itself: the room's own files import registry.ts or each other, never this door (its
 * tests aside), so the door cannot close an import cycle (lib/import-graph.test.ts holds it).
 */
export { getTaskEntry, TASKS, type TaskEntry } from './registry';
export { isAnswerLine } from './game24/move';
export { getPuzzle, puzzleGoal, puzzleRange } from './game24/puzzles';
export { game24Simulation } from './game24/simulation';
export { game24Task } from './game24/task';
export { createSimulatedModel } from './simulated-model';
export { crosswordPuzzles, type CrosswordPuzzle } from './crosswords/puzzles';
export { benchProjects, loadBenchProject } from './code/bench';
export type { BenchProject, BenchProjectInfo } from './code/types';
export { applyDiff, applyDiffs, diffProjects, type ApplyResult } from './code/diff';
export { configureSandbox, DEFAULT_SANDBOX_LIMITS, traceOf, verifyInSandbox, warmSandbox } from './code/sandbox/index';
export type { ProjectFiles, SandboxReport, SandboxRequest } from './code/types';
