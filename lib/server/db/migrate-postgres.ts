/**
 * Applies prisma/migrations-postgres/<timestamp>_<name>/migration.sql to a PostgreSQL database with `pg`, in order,
 * each in its own transaction, recorded in Prisma's own `_prisma_migrations` table (PostgreSQL's columns, sha256
 * checksums), as migrate.ts does for SQLite. Several instances starting at once take turns: a session advisory lock
 * is held for the whole run, so one applies and the others find nothing left to do.
 * Not responsible for writing migrations (by hand, the same models as prisma/schema.prisma; migrate-postgres.test.ts
 * catches drift) nor for SQLite (migrate.ts).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { needsApplying, readMigrations } from './migrate';

export const POSTGRES_MIGRATIONS_DIR = path.join('prisma', 'migrations-postgres');

/** Any constant both sides agree on: pg_advisory_lock's key for "migrating Arborist's schema". */
const MIGRATION_LOCK_KEY = 0x4172626f; // 'Arbo'

// Prisma's schema engine creates exactly this table on PostgreSQL; keep it compatible.
const MIGRATIONS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Brings the database up to the latest migration; idempotent; throws on a changed or half-applied migration. */
export async function migratePostgres(
  url: string,
  options: { migrationsDir?: string } = {},
): Promise<{ applied: string[] }> {
  const migrations = readMigrations(options.migrationsDir ?? POSTGRES_MIGRATIONS_DIR);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(MIGRATIONS_TABLE_SQL);
    const applied: string[] = [];
    for (const migration of migrations) {
      const { rows } = await client.query<{ checksum: string; finished_at: Date | null }>(
        'SELECT "checksum", "finished_at" FROM "_prisma_migrations" WHERE "migration_name" = $1 ' +
          'AND "rolled_back_at" IS NULL ORDER BY "started_at" DESC',
        [migration.name],
      );
      if (!needsApplying(migration, rows)) continue;
      const startedAt = new Date();
      try {
        await client.query('BEGIN');
        await client.query(migration.sql);
        await client.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", ' +
            '"applied_steps_count") VALUES ($1, $2, now(), $3, $4, 1)',
          [randomUUID(), migration.checksum, migration.name, startedAt],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`Migration ${migration.name} failed and was rolled back: ${message}`, { cause: error });
      }
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    // ending the session releases the advisory lock too
    await client.end();
  }
}
