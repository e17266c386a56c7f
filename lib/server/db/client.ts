/**
 * The Prisma client: one per process, kept on globalThis so Next's hot reload does not open a new connection on every
 * edit. Prisma 7 is engine-free: a generated client (`npm run db:generate`) runs its query compiler in wasm and talks
 * to the database through a driver adapter: better-sqlite3 for a SQLite file (lib/generated/prisma), `pg` for
 * PostgreSQL (lib/generated/prisma-postgres, generated from the same schema). Both have the same models, so the
 * PostgreSQL client is used through the SQLite client's type and every repository serves both.
 * Not responsible for the schema (prisma/) nor for queries (lib/server/repositories/).
 * No `server-only` here: tsx scripts and vitest import this module; the tRPC and route entry points carry it.
 */
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { type Prisma, PrismaClient } from '../../generated/prisma/client';
import { PrismaClient as PostgresPrismaClient } from '../../generated/prisma-postgres/client';
import { type DatabaseKind, type DatabaseTarget, isPostgresUrl, resolveDatabase } from './backend';
import { readEnv } from '../core/env';
import { migrate } from './migrate';
import { migratePostgres } from './migrate-postgres';
import { registerSqliteConnection } from './sqlite-connection';

export type { PrismaClient };
/** What repository functions accept: the client, or the client inside `prisma.$transaction(async (tx) => ...)`. */
export type Db = PrismaClient | Prisma.TransactionClient;

/** How long a statement waits for another connection's write lock before failing with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5_000;

// Per-connection settings. WAL lets the UI read while a run writes; with WAL, synchronous=NORMAL is still safe
// against application crashes (a power cut may lose the last commits, never corrupt the file) and saves an fsync
// per transaction on the event append path. Foreign keys carry the cascades from Run to Event and Node.
const CONNECTION_PRAGMAS = 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;';

/**
 * The better-sqlite3 adapter, plus our pragmas on the connection it opens (it offers no hook of its own), and that
 * connection registered for the log room's prepared statements (sqlite-connection.ts).
 */
class ArboristSqliteAdapter extends PrismaBetterSqlite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(CONNECTION_PRAGMAS);
    registerSqliteConnection(this, adapter);
    return adapter;
  }
}

export interface ClientOptions {
  /** PostgreSQL: the connections the client keeps open (the server passes ARBORIST_PG_POOL_SIZE). */
  pgPoolSize?: number;
}

/**
 * A new client on a database: a SQLite file's path, or a postgresql:// URL (both must be migrated first).
 * SQLite's DateTime columns hold unix milliseconds, as Prisma's former native engine and `_prisma_migrations` store
 * them: every connection to such a file must use this function so the format never mixes.
 */
export function createPrismaClient(location: string, { pgPoolSize = 10 }: ClientOptions = {}): PrismaClient {
  if (isPostgresUrl(location)) {
    const adapter = new PrismaPg({ connectionString: location, max: pgPoolSize });
    // the same models from the same schema: only the provider differs, so it is used through the one type
    return new PostgresPrismaClient({ adapter }) as unknown as PrismaClient;
  }
  const adapter = new ArboristSqliteAdapter(
    { url: location, timeout: BUSY_TIMEOUT_MS },
    { timestampFormat: 'unixepoch-ms' },
  );
  return new PrismaClient({ adapter });
}

/**
 * The backend behind a client or a transaction client, for the few statements whose SQL differs (full-text search,
 * the append, notifications). Prisma answers no public question for it, and a transaction client is not the client
 * itself, so both are asked for the provider Prisma keeps on them; an answer it stops giving fails every PostgreSQL
 * test at once rather than silently taking SQLite's path.
 */
export function databaseKindOf(db: Db): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  if (provider === 'postgresql' || provider === 'sqlite') return provider;
  throw new Error(`unknown database client (provider ${String(provider)})`);
}

/** Brings a database up to its latest migration (creating a SQLite file on first start). */
export async function migrateDatabase(target: DatabaseTarget): Promise<{ applied: string[] }> {
  return target.kind === 'postgresql' ? migratePostgres(target.location) : migrate(target.location);
}

const globalForPrisma = globalThis as typeof globalThis & { arboristPrisma?: Promise<PrismaClient> };

/**
 * The process's client on DATABASE_URL's database. The first call migrates it; migrations are idempotent and take
 * milliseconds when nothing is pending.
 */
export function getPrisma(): Promise<PrismaClient> {
  globalForPrisma.arboristPrisma ??= (async () => {
    const target = resolveDatabase();
    await migrateDatabase(target);
    return createPrismaClient(target.location, { pgPoolSize: readEnv().ARBORIST_PG_POOL_SIZE });
  })().catch((error: unknown) => {
    globalForPrisma.arboristPrisma = undefined;
    throw error;
  });
  return globalForPrisma.arboristPrisma;
}
