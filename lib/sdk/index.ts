/**
 * lib/sdk's front door: the client a program uses to stream its own tree search into Arborist and take steering back
 * (README.md here). No dependency beyond fetch; runs in Node 20+ and browsers.
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { Arborist } from './client';
export type { ArboristOptions } from './client';
export { ArboristRun } from './run';
export type {
  ArboristWarning,
  CallFields,
  CommandHandler,
  CommandResult,
  DropReason,
  FinishOptions,
  FinishSummary,
  IngestCommand,
  NodeFields,
  RunStats,
  StartRunOptions,
} from './run';
export type { WarningKind } from './item-warnings';
export { BUILTIN_COMMANDS, CommandRefused } from './steering';
export type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
export type { FinishReason } from '../contract/vocabulary';
export { retryDelay } from './transport';
