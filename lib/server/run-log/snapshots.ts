/**
 * Stored snapshots: one row per run holding its tree folded up to some seq, as JSON text. The run page asks for a
 * run's latest tree first (run.snapshot) and gets its history later, so a 100k-event run is drawn without sending
 * or folding 100k events first.
 *
 * The row is derived from the log and may lag it: latestTree() folds the events after it (at most about
 * SNAPSHOT_EVERY of them, since it stores a new row when the tail was longer), so a run whose row is missing
 * (older runs, a crash) is folded once and stored. The run manager stores one when a run ends and imports store
 * one with the run. Not responsible for folding (lib/engine reduce) nor for the browser's time travel.
 */
import type { ExplorationEvent } from '../../contract/events';
import { createEmptyTree, fold, type ThoughtTree, TREE_FORMAT } from '../../engine/index';
import type { Db } from '../db/client';
import { listEvents } from './events';

/** A stored snapshot is replaced once the log has grown this many events beyond it. */
export const SNAPSHOT_EVERY = 2_000;
/** Events read per query while folding a long tail. */
const FOLD_PAGE = 10_000;

/** Stores the tree as the run's snapshot unless a newer one is stored already. */
export async function saveSnapshot(db: Db, runId: string, tree: ThoughtTree): Promise<void> {
  await saveSnapshotText(db, runId, tree.lastSeq, JSON.stringify(tree));
}

async function saveSnapshotText(db: Db, runId: string, seq: number, text: string): Promise<void> {
  // one statement, portable to Postgres: a slower writer never replaces a newer snapshot of the same format, and a
  // snapshot of today's format replaces one folded by an older version
  await db.$executeRaw`INSERT INTO "RunSnapshot" ("runId", "seq", "tree", "format")
    VALUES (${runId}, ${seq}, ${text}, ${TREE_FORMAT})
    ON CONFLICT ("runId") DO UPDATE SET "seq" = excluded."seq", "tree" = excluded."tree", "format" = excluded."format"
    WHERE excluded."seq" > "RunSnapshot"."seq" OR "RunSnapshot"."format" <> excluded."format"`;
}

/**
 * The run's tree at its lastSeq as JSON text (a ThoughtTree), or null when there is no such run. The text of a
 * stored snapshot that is current is returned as it is: not parsed, not serialised again. A tree folded over at
 * least `storeAfter` events is stored as the run's new snapshot.
 */
export async function latestTreeText(
  db: Db,
  runId: string,
  storeAfter = SNAPSHOT_EVERY,
): Promise<{ seq: number; tree: string } | null> {
  // a staged run (an import still being written) is no run yet
  const run = await db.run.findUnique({ where: { id: runId, importJobId: null }, select: { lastSeq: true } });
  if (!run) return null;
  const stored = await db.runSnapshot.findUnique({ where: { runId }, select: { seq: true, tree: true, format: true } });
  // a tree folded by an older version of reduce() is not this version's tree: fold the log again
  const row = stored?.format === TREE_FORMAT ? stored : null;
  if (row && row.seq >= run.lastSeq) return { seq: row.seq, tree: row.tree };
  let tree = row ? (JSON.parse(row.tree) as ThoughtTree) : createEmptyTree(runId);
  while (tree.lastSeq < run.lastSeq) {
    const page: ExplorationEvent[] = await listEvents(db, runId, {
      afterSeq: tree.lastSeq,
      untilSeq: run.lastSeq,
      limit: FOLD_PAGE,
      light: true, // reduce() reads a model call's usage and cost, never its prompt
    });
    if (page.length === 0) break;
    tree = fold(page, tree);
  }
  const text = JSON.stringify(tree);
  if (tree.lastSeq - (row?.seq ?? 0) >= storeAfter || (stored && !row))
    await saveSnapshotText(db, runId, tree.lastSeq, text);
  return { seq: tree.lastSeq, tree: text };
}
