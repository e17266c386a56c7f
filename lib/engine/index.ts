/**
 * The engine's public face (see shared/DESIGN.md): the executor, its parts, the defaults, the types and reduce.
 * Imports nothing from Next, React, Prisma or tRPC.
 */
export { ThoughtTreeExecutor, MAX_CONSECUTIVE_MODEL_FAILURES } from './executor';
export type { ExploreOptions, ToTCallbacks } from './executor';
export { BranchGenerator } from './branch-generator';
export type { GeneratedBranches } from './branch-generator';
export { BranchEvaluator } from './branch-evaluator';
export type { EvaluatedBranch, EvaluatorOptions } from './branch-evaluator';
export { DEFAULT_TOT_CONFIG, InvalidConfigError, resolveConfig, toTConfigSchema } from './config';
export { ExplorationControl, SteeringError, checkCommand } from './control';
export type { SteeringCommand } from './control';
export { EVENT_TYPES } from './events';
export type { EventOf, EventPayloads, ExplorationEvent, ExplorationEventType } from './events';
export { findBacktrackTarget, selectNext } from './frontier';
export { forkEvents } from './fork';
export type { ForkSpec } from './fork';
export { DEFAULT_PRICES, findPrice, priceCall } from './pricing';
export type { ModelPrice, PriceTable } from './pricing';
export { FINAL_MARKER, openGoalTask } from './prompts';
export { escapeXml, promptLine, readPromptLine, renderScratchpad } from './scratchpad';
export { cloneTree, createEmptyTree, EventOrderError, findBestNode, fold, markedBestNode, pathTo, reduce, subtreeIds } from './tree';
export type * from './types';
