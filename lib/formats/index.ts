/**
 * lib/formats' front door: what other rooms use of it, the run export file (build, validate) and the foreign
 * log readers (Tree-of-Thoughts Game of 24 BFS and mini crosswords DFS, llm-reasoners MCTS), and OTLP trace exports
 * (decoded, and assembled into a search tree: otlp/). Node-side (the server's import and export, the harness, e2e).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { buildExport, foldChecked, validateRunExport } from './export';
export { checkEventFieldCaps, FIELD_CAPS } from './field-caps';
export type { RunExport } from './export';
export { describeValue, looksLikeTotLog, parseTotLog } from './tot-log';
export type { TotGame } from './tot-log';
export { looksLikeTotCrosswords, parseTotCrosswords } from './tot-crosswords';
export type { CrosswordRunDraft } from './tot-crosswords';
export { looksLikeLlmReasonersLog, parseLlmReasonersLog } from './llm-reasoners';
export type { LlmReasonersDraft, LlmReasonersLog } from './llm-reasoners';
export {
  decodeJsonTraces,
  decodeProtobufTraces,
  decodeTraces,
  encodeEmptyResponse,
  encodeStatus,
  encodeTraceResponse,
  OtlpDecodeError,
  PARENT_NOTE,
  partialSuccessOf,
  ROOT_NODE,
  TraceTree,
} from './otlp/index';
export type { DecodedTraces, DraftOp, OtlpEncoding, OtlpSpan, RefusedSpan } from './otlp/index';
