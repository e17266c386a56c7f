/**
 * The Prisma client: one per process, kept on globalThis so Next's hot reload does not open a new SQLite connection
 * on every edit. Prisma 7 is engine-free: the generated client (lib/generated/prisma, `npm run db:generate`) runs
 * its query compiler in wasm and talks to SQLite through the better-sqlite3 driver adapter.
 * Not responsible for the schema (prisma/) nor for queries (lib/server/repositories/).
 * No `server-only` here: tsx scripts and vitest import this module; the tRPC and route entry points carry it.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { type Prisma, PrismaClient } from '../../generated/prisma/client';
import { migrate, resolveDatabaseFile } from './migrate';

export type { PrismaClient };
/** What repository functions accept: the client, or the client inside `prisma.$transaction(async (tx) => ...)`. */
export type Db = PrismaClient | Prisma.TransactionClient;

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

// Per-connection settings. WAL lets the UI read while a run writes; with WAL, synchronous=NORMAL is still safe
// against application crashes (a power cut may lose the last commits, never corrupt the file) and saves an fsync
// per transaction on the event append path. Foreign keys carry the cascades from Run to Event and Node.
const CONNECTION_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';

/** The better-sqlite3 adapter, plus our pragmas on the connection it opens (it offers no hook of its own). */
class ArboristSqliteAdapter extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(CONNECTION_PRAGMAS);
    return adapter;
  }
}

/**
 * A new client on a SQLite file (tests give a temporary one; the file must be migrated first).
 * DateTime columns hold unix milliseconds, as Prisma's former native engine and `_prisma_migrations` store them:
 * every connection to this database must use this function so the format never mixes.
 */
export function createPrismaClient(databaseFile: string): PrismaClient {
  const adapter = new ArboristSqliteAdapter(
    { url: databaseFile, timeout: BUSY_TIMEOUT_MS },
    { timestampFormat: 'unixepoch-ms' },
  );
  return new PrismaClient({ adapter });
}

const globalForPrisma = globalThis as typeof globalThis & { arboristPrisma?: PrismaClient };

/**
 * The process's client on DATABASE_URL's file. The first call migrates that file (creating it on first start);
 * migrations are idempotent and take milliseconds when nothing is pending.
 */
export function getPrisma(): PrismaClient {
  if (!globalForPrisma.arboristPrisma) {
    const file = resolveDatabaseFile();
    migrate(file);
    globalForPrisma.arboristPrisma = createPrismaClient(file);
  }
  return globalForPrisma.arboristPrisma;
}
