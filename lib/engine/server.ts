/**
 * The engine's second door: what runs a search. The executor (which draws run ids from node:crypto), the branch
 * generator and evaluator, one measured model call, steering control, and the first events of a forked run.
 * For lib/server, lib/cli, lib/bench and tests; the linter keeps it out of components, pages, lib/store and
 * lib/layout, so the browser's bundle never carries the search. Everything pure (reduce, types, config) is the
 * front door, lib/engine/index.ts. Imports nothing from Next, React, Prisma or tRPC.
 */
export { BranchEvaluator } from './branch-evaluator';
export { BudgetReached } from './budget';
export type { CallSpend, SpendGate, SpendHold } from './budget';
export type { EvaluatedBranch, EvaluatorOptions } from './branch-evaluator';
export { BranchGenerator } from './branch-generator';
export type { GeneratedBranches } from './branch-generator';
export { ExplorationControl, SteeringError, checkCommand } from './control';
export type { SteeringCommand } from './control';
export { MAX_CONSECUTIVE_MODEL_FAILURES, MAX_EXPLORED_THOUGHTS, ThoughtTreeExecutor } from './executor';
export type { ExploreOptions, ToTCallbacks } from './executor';
export { forkEvents, forkedNodeId } from './fork';
export type { ForkSpec } from './fork';
export { CutShort, callModel, refuseAfterAbort } from './model-call';
export type { CallOptions, ModelCallOutcome, ModelCallRecord } from './model-call';
