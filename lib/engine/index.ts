/**
 * The engine's front door, browser-safe: what a page, the browser's store, a file format or a task needs to read a
 * search (the fold from events to tree and the tree's helpers, the frontier's order, config defaults, prices, the
 * open goal's prompts and the scratchpad) and the engine's types. Pure: nothing here reaches Node, so components may
 * import it without the search itself (the executor) ending up in the browser's bundle.
 * What runs a search (the executor, the generator and evaluator, steering control, fork) is the other door,
 * lib/engine/server.ts. The event schemas and the data vocabulary are lib/contract's; they are re-exported here for
 * the engine's users (shared/DESIGN.md, "The engine's public face"), but rooms import them from lib/contract.
 * Imports nothing from Next, React, Prisma or tRPC.
 */
export { findHits, judgeEvent, treeHitContext } from './breakpoints';
export type { HitContext, JudgedEvent } from './breakpoints';
export {
  DEFAULT_TOT_CONFIG,
  InvalidConfigError,
  MCTS_DEFAULTS,
  mctsSettings,
  resolveConfig,
  resolveTimeout,
} from './config';
export { backUp } from './mcts';
export { FrontierQueue, comesBefore, findBacktrackTarget, nextInLine, selectNext } from './frontier';
export { extractJson } from './json';
export { countTokens, DEFAULT_PRICES, findPrice, priceCall } from './pricing';
export type { ModelPrice, PriceTable } from './pricing';
export {
  FINAL_MARKER,
  genericFallbackBranches,
  openGoalTask,
  parseAction,
  parseBranchList,
  parseScoreJson,
} from './prompts';
export {
  MAX_SUMMARIES,
  describeAction,
  escapeXml,
  escapeXmlText,
  promptLine,
  readPromptLine,
  renderFullHistory,
  renderScratchpad,
} from './scratchpad';
export { CallGate } from './call-gate';
export { clockless } from './clockless';
export {
  EventOrderError,
  TREE_FORMAT,
  cloneTree,
  createEmptyTree,
  emptyStats,
  emptyUsage,
  newNode,
  findBestNode,
  fold,
  foldingLog,
  markedBestNode,
  nextNodeId,
  pathTo,
  reduce,
  snapshotTree,
  subtreeIds,
} from './tree';
export type * from './types';
export { EVENT_TYPES } from '../contract/events';
export type { EventOf, EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
export { toTConfigSchema } from '../contract/vocabulary';
export type {
  AnswerSource,
  BranchScore,
  ChatMessage,
  ExplorationStrategy,
  FinishReason,
  FrontierMode,
  ModelPurpose,
  NodeResult,
  ProposedAction,
  ThoughtBranch,
  TokenUsage,
  ToTConfig,
  ToTStats,
  Verification,
} from '../contract/vocabulary';
