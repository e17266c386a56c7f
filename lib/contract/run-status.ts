/**
 * A stored run's lifecycle, as the run table, export files, the API and the runs list all name it: wider than the
 * engine's own RunStatus (a run is queued before it starts, interrupted by a restart, failed by an error outside
 * the search). One list; everyone imports it. Browser-safe, imports nothing.
 * Not responsible for moving a run between them (lib/server/run-manager.ts).
 */

export const RUN_STATUSES = ['queued', 'running', 'paused', 'interrupted', 'finished', 'failed'] as const;
export type StoredRunStatus = (typeof RUN_STATUSES)[number];
