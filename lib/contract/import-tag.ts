/**
 * The tag an imported run carries (Run.importTag): written here when a file is imported and read back here for the
 * page, so the run can say it was imported and from what. "tot-log:<file>:<ISO time>" for a Tree-of-Thoughts log,
 * "llm-reasoners:<file>:<ISO time>" for an llm-reasoners MCTS log, "arborist.run:<run id>" for an Arborist export; a tag a person chose at import time is kept as it is.
 * Browser-safe and pure. Not responsible for storing runs (lib/server/imports.ts) or for how the page lays it out.
 * It lives in lib/contract because the server writes it and the run page and the runs list read it.
 */

export type ImportTagKind = 'tot-log' | 'llm-reasoners' | 'arborist.run' | 'tag';

export interface ImportOrigin {
  kind: ImportTagKind;
  /** What was imported, in words: "a Tree-of-Thoughts log". */
  what: string;
  /** Which one: the file name, "run <id>", or the person's own tag. */
  source: string;
  /** When, as "2025-03-04 05:06 UTC"; null when the tag does not say. */
  at: string | null;
}

const TOT_LOG = /^tot-log:(.*):(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/s;
const ARBORIST_RUN = /^arborist\.run:(.+)$/s;
const LLM_REASONERS = /^llm-reasoners:(.*):(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/s;

export function totLogTag(fileName: string | null | undefined, at: Date): string {
  return `tot-log:${fileName?.trim() || 'upload'}:${at.toISOString()}`;
}

/** "llm-reasoners:<file>:<ISO time>": an llm-reasoners MCTS tree log. */
export function llmReasonersTag(fileName: string | null | undefined, at: Date): string {
  return `llm-reasoners:${fileName?.trim() || 'upload'}:${at.toISOString()}`;
}

export function arboristRunTag(runId: string): string {
  return `arborist.run:${runId}`;
}

export function describeImportTag(tag: string): ImportOrigin {
  const log = TOT_LOG.exec(tag);
  if (log) {
    const [, source = '', iso = ''] = log;
    return {
      kind: 'tot-log',
      what: 'a Tree-of-Thoughts log',
      source,
      at: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`,
    };
  }
  const mcts = LLM_REASONERS.exec(tag);
  if (mcts) {
    const [, source = '', iso = ''] = mcts;
    return {
      kind: 'llm-reasoners',
      what: 'an llm-reasoners MCTS log',
      source,
      at: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`,
    };
  }
  const run = ARBORIST_RUN.exec(tag);
  if (run) return { kind: 'arborist.run', what: 'an Arborist export', source: `run ${run[1] ?? ''}`, at: null };
  return { kind: 'tag', what: 'a file', source: tag, at: null };
}

/**
 * The tag in a few words, for a table cell or a filter option: "<file> · <date time>" for a Tree-of-Thoughts log,
 * "export of <first 8 of the run id>" for an Arborist export, a chosen tag as it is.
 */
export function shortImportTag(tag: string): string {
  const origin = describeImportTag(tag);
  if (origin.kind === 'tot-log' || origin.kind === 'llm-reasoners')
    return `${origin.source} · ${origin.at?.replace(/ UTC$/, '') ?? ''}`;
  if (origin.kind === 'arborist.run') return `export of ${origin.source.slice('run '.length, 'run '.length + 8)}`;
  return tag;
}
