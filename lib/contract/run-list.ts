/**
 * What the runs list's server and browser agree on: the columns a list can be sorted by, the longest tag filter
 * (how a tag reads is lib/contract/import-tag.ts) and a listed run's discussion counts. Browser-safe (imports nothing of ours), so the list's URL model and the repository share one definition.
 * Not responsible for the SQL (lib/server/repositories/runs.ts) or the table's cells (components/runs).
 */

/**
 * Sortable columns. `best` is Run.bestScore (the best node's own score, 0..1; runs with none sort as the lowest),
 * `nodes` is the number of nodes created, `created` the time the run was created (an import keeps the original's).
 */
export const RUN_SORT_KEYS = ['created', 'best', 'cost', 'nodes'] as const;
export type RunSortKey = (typeof RUN_SORT_KEYS)[number];

export interface RunSort {
  by: RunSortKey;
  dir: 'asc' | 'desc';
}

/** The list's order when none is asked for: newest first. */
export const DEFAULT_RUN_SORT: RunSort = { by: 'created', dir: 'desc' };

/**
 * The longest import tag a filter takes: a tag a person gives is at most 200 characters
 * (lib/server/http/run-files.ts), but a generated "tot-log:<file name>:<time>" adds to a 200-character name.
 */
export const MAX_TAG_FILTER_LENGTH = 300;

/** A listed run's discussion (its row's badge): comments not deleted, and labels on its nodes. */
export interface RunDiscussionCounts {
  comments: number;
  labels: number;
}
