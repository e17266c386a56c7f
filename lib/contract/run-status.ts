/**
 * A stored run's lifecycle, as the run table, export files, the API, the runs list and the engine's tree
 * (RunStatus) all name it: a run is queued before it starts, interrupted by a restart, failed by an error outside
 * the search. Each status is reached by an event in the run's log (lib/engine reduce). One list; everyone imports
 * it. Browser-safe, imports nothing.
 * Not responsible for moving a run between them (lib/server/runs/run-manager.ts and the engine write the events).
 */

export const RUN_STATUSES = ['queued', 'running', 'paused', 'interrupted', 'finished', 'failed'] as const;
export type StoredRunStatus = (typeof RUN_STATUSES)[number];

/** True for a run that has ended (finished or failed): nothing follows in its log, and it takes no command. */
export function hasEnded(status: string | null): boolean {
  return status === 'finished' || status === 'failed';
}
