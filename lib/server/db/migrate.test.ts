/**
 * The migration runner against real SQLite files, and the guard against drift between schema.prisma and the
 * hand-written SQL (nothing generates that SQL here, so this test is what keeps them equal).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, readMigrations, resolveDatabaseFile } from './migrate';
import { tempDir } from '../testing/db';
import { parseSchema } from '../testing/schema';

const dirs: string[] = [];
function scratch(): string {
  const dir = tempDir('arborist-migrate-');
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: number;
  migration_name: string;
  logs: string | null;
  rolled_back_at: number | null;
  started_at: number;
  applied_steps_count: number;
}

function readRows(file: string): MigrationRow[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT * FROM "_prisma_migrations" ORDER BY "migration_name"').all() as MigrationRow[];
  } finally {
    db.close();
  }
}

describe('migrate', () => {
  it('applies every migration once, records it as Prisma does, and applies nothing the second time', () => {
    const file = path.join(scratch(), 'nested', 'folder', 'a.db');
    const names = readMigrations().map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);

    expect(migrate(file)).toEqual({ applied: names });
    expect(migrate(file)).toEqual({ applied: [] });

    const rows = readRows(file);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const row of rows) {
      const bytes = readFileSync(path.join('prisma', 'migrations', row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      // Unix milliseconds, as Prisma's engine writes them on SQLite.
      expect(typeof row.finished_at).toBe('number');
      expect(row.finished_at).toBeGreaterThanOrEqual(row.started_at);
    }
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses an applied migration whose file changed, and applies nothing after it', () => {
    const dir = scratch();
    const migrations = path.join(dir, 'migrations');
    cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
    const file = path.join(dir, 'b.db');
    migrate(file, { migrationsDir: migrations });

    const first = readMigrations(migrations)[0]!;
    appendFileSync(path.join(migrations, first.name, 'migration.sql'), '\n-- edited after the fact\n');
    mkdirSync(path.join(migrations, '99990101000000_later'));
    writeFileSync(path.join(migrations, '99990101000000_later', 'migration.sql'), 'CREATE TABLE "Later" ("x" TEXT);');

    expect(() => migrate(file, { migrationsDir: migrations })).toThrow(
      new RegExp(`Migration ${first.name} was applied with checksum .* Applied migrations must not change`),
    );
    const db = new Database(file, { readonly: true });
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'Later'`).all()).toEqual([]);
    db.close();
  });

  it('rolls a failing migration back whole and records nothing', () => {
    const dir = scratch();
    const migrations = path.join(dir, 'migrations');
    cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
    mkdirSync(path.join(migrations, '99990101000000_broken'));
    writeFileSync(
      path.join(migrations, '99990101000000_broken', 'migration.sql'),
      'CREATE TABLE "Half" ("x" TEXT);\nTHIS IS NOT SQL;',
    );
    const file = path.join(dir, 'c.db');

    expect(() => migrate(file, { migrationsDir: migrations })).toThrow(
      /99990101000000_broken failed and was rolled back/,
    );
    const rows = readRows(file);
    expect(rows.map((r) => r.migration_name)).not.toContain('99990101000000_broken');
    expect(rows.length).toBe(readMigrations().length);
    const db = new Database(file, { readonly: true });
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'Half'`).all()).toEqual([]);
    db.close();
  });
});

// ---- drift: schema.prisma against the migrated database ----

// The column types Prisma's SQLite connector writes for each scalar.
const SQLITE_TYPES: Record<string, string> = {
  String: 'TEXT',
  Int: 'INTEGER',
  BigInt: 'BIGINT',
  Float: 'REAL',
  Boolean: 'BOOLEAN',
  DateTime: 'DATETIME',
  Decimal: 'DECIMAL',
  Json: 'JSONB',
  Bytes: 'BLOB',
};

describe('schema.prisma and the migrations agree', () => {
  const models = parseSchema();

  it('parses the models this project expects', () => {
    expect(models.map((m) => m.name).sort()).toEqual([
      'ApiKey',
      'Comment',
      'DailySpend',
      'Dataset',
      'DatasetVersion',
      'Event',
      'Experiment',
      'ExperimentCell',
      'ExperimentShareLink',
      'ImportSlot',
      'IngestClient',
      'IngestItem',
      'Label',
      'Node',
      'PromptText',
      'PromptUse',
      'Run',
      'RunSnapshot',
      'Session',
      'SetupCode',
      'ShareLink',
      'SignInThrottle',
      'SpendHold',
      'User',
    ]);
  });

  it('has every field as a column of the right type and nullability, the same keys and indexes, nothing extra', () => {
    const file = path.join(scratch(), 'd.db');
    migrate(file);
    const db = new Database(file, { readonly: true });
    try {
      for (const model of models) {
        const columns = db.pragma(`table_info("${model.name}")`) as {
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }[];
        expect(columns.length, `table ${model.name} exists`).toBeGreaterThan(0);
        const byName = new Map(columns.map((c) => [c.name, c]));
        for (const field of model.fields) {
          const column = byName.get(field.name);
          expect(column, `${model.name}.${field.name} has a column`).toBeDefined();
          expect(column!.type, `${model.name}.${field.name} type`).toBe(SQLITE_TYPES[field.type]);
          expect(column!.notnull === 0, `${model.name}.${field.name} nullability`).toBe(field.optional);
        }
        expect(columns.map((c) => c.name).sort(), `${model.name} has no column the schema lacks`).toEqual(
          model.fields.map((f) => f.name).sort(),
        );
        const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
        expect(
          pk.map((c) => c.name),
          `${model.name} primary key`,
        ).toEqual(model.id);

        const indexes = db.pragma(`index_list("${model.name}")`) as { name: string; origin: string }[];
        const created = indexes
          .filter((i) => i.origin === 'c')
          .map((i) => i.name)
          .sort();
        const expected = [
          ...model.indexes.map((cols) => `${model.name}_${cols.join('_')}_idx`),
          ...model.unique.map((cols) => `${model.name}_${cols.join('_')}_key`),
        ].sort();
        expect(created, `${model.name} indexes`).toEqual(expected);
        for (const cols of model.indexes) {
          const info = db.pragma(`index_info("${model.name}_${cols.join('_')}_idx")`) as { name: string }[];
          expect(info.map((c) => c.name)).toEqual(cols);
        }
      }
    } finally {
      db.close();
    }
  });

  it('cascades deletes from Run to Event, Node and RunSnapshot', () => {
    const file = path.join(scratch(), 'e.db');
    migrate(file);
    const db = new Database(file, { readonly: true });
    try {
      for (const table of ['Event', 'Node', 'RunSnapshot']) {
        const keys = db.pragma(`foreign_key_list("${table}")`) as { table: string; from: string; on_delete: string }[];
        expect(keys).toEqual([expect.objectContaining({ table: 'Run', from: 'runId', on_delete: 'CASCADE' })]);
      }
    } finally {
      db.close();
    }
  });
});

describe('resolveDatabaseFile', () => {
  it('defaults to ./data/arborist.db under the working directory', () => {
    expect(resolveDatabaseFile(undefined)).toBe(path.resolve('data/arborist.db'));
    expect(resolveDatabaseFile('')).toBe(path.resolve('data/arborist.db'));
  });

  it('resolves relative file: URLs against the working directory, keeps absolute ones, drops parameters', () => {
    expect(resolveDatabaseFile('file:./x/y.db')).toBe(path.resolve('x/y.db'));
    expect(resolveDatabaseFile('file:dev.db?connection_limit=1')).toBe(path.resolve('dev.db'));
    expect(resolveDatabaseFile('file:/var/tmp/a.db')).toBe('/var/tmp/a.db');
    expect(resolveDatabaseFile('file:///var/tmp/b.db')).toBe('/var/tmp/b.db');
  });

  it('refuses other URLs without echoing their credentials', () => {
    expect(() => resolveDatabaseFile('postgresql://me:secret@host/db')).toThrow(/must be a SQLite file: URL/);
    expect(() => resolveDatabaseFile('postgresql://me:secret@host/db')).not.toThrow(/secret/);
    expect(() => resolveDatabaseFile('./plain/path.db')).toThrow(/must be a SQLite file: URL/);
  });
});
