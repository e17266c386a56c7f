/**
 * lib/server's second door, for the benchmarks only (lib/bench, held by eslint.config.mjs): the write path's
 * internals they measure against bare drivers (the log room's live batching and RunLog, the raw append, a bench run's
 * row, the node row a projection writes), the run page's reads bench:history times (the history's pages, the latest
 * tree, an import to read them from) and the database they open. The product never comes through here.
 * Not responsible for anything itself: the room's files hold the definitions.
 */
export { silentLogger } from './core/logger';
export { createPrismaClient } from './db/client';
export { migrate } from './db/migrate';
export { migratePostgres } from './db/migrate-postgres';
export {
  createWriteState,
  drainWrites,
  enqueueWrite,
  EventBus,
  foldTouched,
  latestTreeText,
  listEvents,
  nodeRow,
  RunLog,
  type RunWriteState,
  summarizeTree,
} from './run-log/index';
export { appendEvents } from './run-log/events';
export { createRun, type CreateRunInput } from './run-log/run-rows';
export { importRun } from './imports/imports';
export { historyText } from './streaming/history-text';
