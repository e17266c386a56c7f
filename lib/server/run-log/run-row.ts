/**
 * The one builder of a new run's row, for every producer (engine runs, forks, replays, external runs, imports, and
 * the producers to come): who and what it runs, where it came from, and the defaults a row starts with. The status is
 * not the producer's to say: the log room takes it from the fold of the run's first events.
 * Not responsible for storing it (run-rows.ts createRun, called by run-log.ts and import-writer.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RunRecord } from '../../contract/run';
import type { CreateRunInput } from './run-rows';

/** What a producer says of a new run; everything else of the row is a default or the log's. */
export type NewRun = Pick<RunRecord, 'taskId' | 'goal' | 'modelId' | 'modelLabel' | 'config'> &
  Partial<
    Pick<
      RunRecord,
      'id' | 'modelSettings' | 'seed' | 'createdAt' | 'importTag' | 'parentRunId' | 'parentNodeId' | 'ownerId'
    >
  > & {
    /** Stages the row for an import: invisible to every read until the swap-in. */
    importJobId?: string | null;
  };

/** The row to insert for a new run: a fresh id unless the producer's events already name one. */
export function newRunRow(run: NewRun): CreateRunInput & { id: string } {
  return {
    id: run.id ?? randomUUID(),
    taskId: run.taskId,
    goal: run.goal,
    modelId: run.modelId,
    modelLabel: run.modelLabel,
    modelSettings: run.modelSettings ?? undefined,
    config: run.config,
    seed: run.seed ?? null,
    status: 'queued',
    createdAt: run.createdAt,
    importTag: run.importTag ?? null,
    parentRunId: run.parentRunId ?? null,
    parentNodeId: run.parentNodeId ?? null,
    ownerId: run.ownerId ?? null,
    importJobId: run.importJobId ?? null,
  };
}
