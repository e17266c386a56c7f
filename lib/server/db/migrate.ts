/**
 * Applies prisma/migrations/<timestamp>_<name>/migration.sql to a SQLite file with better-sqlite3, in order, each in
 * its own transaction, recording them in Prisma's own `_prisma_migrations` table (same columns, unix-ms times,
 * sha256 checksums), so `prisma migrate status/deploy` still understand the database where the CLI can run.
 * Why our own runner: Prisma 7's CLI must download its schema engine first, which this machine cannot
 * (shared/STACK.md).
 * Not responsible for writing migrations (by hand, matching schema.prisma; migrate.test.ts catches drift), for
 * rolling back, nor for PostgreSQL (migrate-postgres.ts).
 * No `server-only` here: tsx scripts and vitest import this module too.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export const DEFAULT_DATABASE_URL = 'file:./data/arborist.db';

/** Where migrations live: resolved from the working directory, because a bundled server has no stable __dirname. */
export const DEFAULT_MIGRATIONS_DIR = path.join('prisma', 'migrations');

// Prisma's schema engine creates exactly this table on SQLite; keep it byte-for-byte compatible.
const MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma computes it. */
  checksum: string;
}

export interface MigrateOptions {
  /** Folder holding <timestamp>_<name>/migration.sql; default prisma/migrations under the working directory. */
  migrationsDir?: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: number | string | null;
  rolled_back_at: number | string | null;
}

/**
 * The SQLite file a DATABASE_URL points at. `file:` paths are relative to the working directory (as Prisma's CLI
 * resolves them); an unset or empty URL means ./data/arborist.db. Anything but a file: URL is refused (a
 * postgresql:// URL is backend.ts's resolveDatabase's to handle).
 */
export function resolveDatabaseFile(url: string | undefined = process.env.DATABASE_URL): string {
  const value = url?.trim() || DEFAULT_DATABASE_URL;
  if (!value.startsWith('file:')) {
    // Only the scheme is echoed: a postgres URL carries a password.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(value)?.[0] ?? 'a value without a scheme';
    throw new Error(
      `DATABASE_URL must be a SQLite file: URL such as ${DEFAULT_DATABASE_URL} or a PostgreSQL URL ` +
        `(postgresql://user:password@host:5432/database); got ${scheme}`,
    );
  }
  if (value.startsWith('file://')) return fileURLToPath(value.split('?')[0] ?? value);
  // Prisma accepts connection parameters after '?'; they say nothing about the file.
  const filePath = (value.slice('file:'.length).split('?')[0] ?? '').trim();
  if (filePath === '') throw new Error(`DATABASE_URL "${value}" names no file.`);
  if (filePath === ':memory:') throw new Error('DATABASE_URL file::memory: is not supported: the server needs a file.');
  // turbopackIgnore: a runtime path from the environment, not a file for Next to trace into the build
  return path.resolve(/*turbopackIgnore: true*/ process.cwd(), filePath);
}

/**
 * Whether a migration is still to apply, from its rows in `_prisma_migrations` (not rolled back, newest first): false
 * when it was applied; throws when it was applied from a file that has changed since, or started and never finished.
 * One rule for both runners (this one and migrate-postgres.ts).
 */
export function needsApplying(
  migration: MigrationFile,
  rows: readonly { checksum: string; finished_at: unknown }[],
): boolean {
  const done = rows.find((row) => row.finished_at !== null);
  if (done) {
    if (done.checksum !== migration.checksum) {
      throw new Error(
        `Migration ${migration.name} was applied with checksum ${done.checksum} but its file now hashes to ` +
          `${migration.checksum}. Applied migrations must not change: restore the file and add a new migration.`,
      );
    }
    return false;
  }
  if (rows.length > 0) {
    throw new Error(
      `Migration ${migration.name} started earlier but never finished (a row in _prisma_migrations without ` +
        'finished_at). Repair the database by hand, then mark that row rolled back.',
    );
  }
  return true;
}

/** The migrations in a folder, in the order they apply (their names start with a timestamp). */
export function readMigrations(migrationsDir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  const dir = path.resolve(/*turbopackIgnore: true*/ process.cwd(), migrationsDir);
  if (!existsSync(dir)) throw new Error(`No migrations folder at ${dir}: run from the repository root.`);
  return readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      // Bytes, not a decoded string: the checksum must match Prisma's, which hashes the file as it is.
      const bytes = readFileSync(path.join(dir, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

/**
 * Brings the database file up to the latest migration; creates the file and its folder when missing.
 * Idempotent: a second call applies nothing. Throws, applying nothing more, when an applied migration's file has
 * changed since (edit history by adding a migration, never by editing one) or an earlier attempt failed midway.
 */
export function migrate(databaseFile: string, options: MigrateOptions = {}): { applied: string[] } {
  const migrations = readMigrations(options.migrationsDir);
  mkdirSync(path.dirname(databaseFile), { recursive: true });
  const db = new Database(databaseFile, { timeout: 5_000 });
  try {
    // WAL persists in the file, so every later connection (Prisma's included) reads while the run manager writes.
    db.pragma('journal_mode = WAL');
    // Off for the migration itself, as SQLite's table-redefinition recipe requires (a no-op inside a transaction,
    // hence here); foreign_key_check below still refuses a migration that leaves dangling references.
    db.pragma('foreign_keys = OFF');
    db.exec(MIGRATIONS_TABLE_SQL);

    const findApplied = db.prepare<[string], AppliedRow>(
      'SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ' +
        'WHERE "migration_name" = ? AND "rolled_back_at" IS NULL ORDER BY "started_at" DESC',
    );
    const record = db.prepare(
      'INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "logs", ' +
        '"rolled_back_at", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)',
    );

    const applied: string[] = [];
    for (const migration of migrations) {
      // IMMEDIATE takes the write lock before reading the history: two processes starting at once cannot both
      // decide to apply the same migration.
      const applyOne = db.transaction((): boolean => {
        if (!needsApplying(migration, findApplied.all(migration.name))) return false;
        const startedAt = Date.now();
        db.exec(migration.sql);
        const dangling = db.pragma('foreign_key_check') as unknown[];
        if (dangling.length > 0) {
          throw new Error(`Migration ${migration.name} leaves ${dangling.length} rows violating foreign keys.`);
        }
        record.run(randomUUID(), migration.checksum, Date.now(), migration.name, startedAt);
        return true;
      });
      try {
        if (applyOne.immediate()) applied.push(migration.name);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (message.startsWith(`Migration ${migration.name}`)) throw error;
        throw new Error(`Migration ${migration.name} failed and was rolled back: ${message}`, { cause: error });
      }
    }
    return { applied };
  } finally {
    db.close();
  }
}
