/**
 * PostgreSQL's migration runner against real databases on the test cluster, and the guard against drift between
 * schema.prisma and prisma/migrations-postgres (hand-written, like SQLite's: this test is what keeps them equal, so a
 * model changed without a PostgreSQL migration fails here).
 */
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from './client';
import { readMigrations } from './migrate';
import { POSTGRES_MIGRATIONS_DIR, migratePostgres } from './migrate-postgres';
import { listRuns } from '../repositories/runs';
import { createPostgresDatabase, tempDir } from '../testing/db';
import { type SchemaModel, parseSchema } from '../testing/schema';

/** Tables a migration makes that are no Prisma model: the runner's own, and the runs list's search index. */
const NON_MODEL_TABLES = ['RunSearch', '_prisma_migrations'];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new empty database (never migrated); dropped after the test. */
async function emptyDatabase(): Promise<string> {
  const database = await createPostgresDatabase('template0');
  cleanups.push(database.drop);
  return database.url;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  cleanups.push(() => client.end());
  return client;
}

/** A copy of the migrations folder to edit, with only the migrations `keep` accepts. */
function migrationsCopy(keep: (name: string) => boolean = () => true): string {
  const dir = tempDir('arborist-pg-migrations-');
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const copy = path.join(dir, 'migrations');
  cpSync(POSTGRES_MIGRATIONS_DIR, copy, { recursive: true });
  for (const m of readMigrations(copy)) if (!keep(m.name)) rmSync(path.join(copy, m.name), { recursive: true });
  return copy;
}

const names = readMigrations(POSTGRES_MIGRATIONS_DIR).map((m) => m.name);

describe('migratePostgres', () => {
  it('applies every migration once, records it with its checksum, and applies nothing the second time', async () => {
    const url = await emptyDatabase();
    expect(names.length).toBeGreaterThan(0);
    expect(await migratePostgres(url)).toEqual({ applied: names });
    expect(await migratePostgres(url)).toEqual({ applied: [] });
    const client = await connect(url);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" ORDER BY "migration_name"',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    expect(rows.map((r) => r.checksum)).toEqual(readMigrations(POSTGRES_MIGRATIONS_DIR).map((m) => m.checksum));
    expect(rows.every((r) => r.finished_at instanceof Date)).toBe(true);
  });

  it('two instances starting at once: one applies each migration, the other finds nothing left to do', async () => {
    const url = await emptyDatabase();
    const results = await Promise.all([migratePostgres(url), migratePostgres(url)]);
    expect(results.map((r) => r.applied).sort((a, b) => b.length - a.length)).toEqual([names, []]);
    const client = await connect(url);
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "_prisma_migrations"');
    expect(Number(rows[0]?.n)).toBe(names.length);
  });

  it('refuses an applied migration whose file changed, and applies nothing after it', async () => {
    const url = await emptyDatabase();
    const migrations = migrationsCopy();
    await migratePostgres(url, { migrationsDir: migrations });
    const first = readMigrations(migrations)[0]!;
    appendFileSync(path.join(migrations, first.name, 'migration.sql'), '\n-- edited after the fact\n');
    mkdirSync(path.join(migrations, '99990101000000_later'));
    writeFileSync(path.join(migrations, '99990101000000_later', 'migration.sql'), 'CREATE TABLE "Later" ("x" TEXT);');
    await expect(migratePostgres(url, { migrationsDir: migrations })).rejects.toThrow(
      new RegExp(`Migration ${first.name} was applied with checksum .* Applied migrations must not change`),
    );
    const client = await connect(url);
    expect((await client.query(`SELECT to_regclass('"Later"') AS t`)).rows[0]).toEqual({ t: null });
  });

  it('rolls a failing migration back whole and records nothing of it', async () => {
    const url = await emptyDatabase();
    const migrations = migrationsCopy();
    mkdirSync(path.join(migrations, '99990101000000_broken'));
    writeFileSync(
      path.join(migrations, '99990101000000_broken', 'migration.sql'),
      'CREATE TABLE "Half" ("x" TEXT);\nTHIS IS NOT SQL;',
    );
    await expect(migratePostgres(url, { migrationsDir: migrations })).rejects.toThrow(
      /99990101000000_broken failed and was rolled back/,
    );
    const client = await connect(url);
    expect((await client.query(`SELECT to_regclass('"Half"') AS t`)).rows[0]).toEqual({ t: null });
    const { rows } = await client.query<{ migration_name: string }>(
      'SELECT "migration_name" FROM "_prisma_migrations"',
    );
    expect(rows.map((r) => r.migration_name).sort()).toEqual(names);
  });

  it('makes the runs stored before the search migration searchable', async () => {
    const url = await emptyDatabase();
    const search = '20261201030000_runs_search';
    await migratePostgres(url, { migrationsDir: migrationsCopy((name) => name < search) });
    const client = await connect(url);
    await client.query(
      'INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status", ' +
        `"output") VALUES ('old', now(), 'open-goal', 'An older goal about glaciers', 'm', 'm', '{}', 'finished', ` +
        `'Ice moves')`,
    );
    expect((await migratePostgres(url)).applied).toContain(search);
    const prisma = createPrismaClient(url);
    cleanups.push(() => prisma.$disconnect());
    const found = async (q: string) => (await listRuns(prisma, { limit: 5, q })).items.map((r) => r.id);
    expect(await found('glaciers')).toEqual(['old']);
    expect(await found('ice mov')).toEqual(['old']);
  });
});

// ---- drift: schema.prisma against what PostgreSQL has after its migrations ----

/** What Prisma's postgresql connector makes of each scalar (information_schema's data_type). */
const POSTGRES_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Decimal: 'numeric',
  Json: 'jsonb',
  Bytes: 'bytea',
};

/** Prisma's referential actions as pg_constraint.confdeltype spells them (NoAction when the schema says none). */
const DELETE_RULES: Record<string, string> = {
  Cascade: 'c',
  SetNull: 'n',
  Restrict: 'r',
  NoAction: 'a',
  SetDefault: 'd',
};

interface Catalog {
  tables: string[];
  columns: {
    table: string;
    name: string;
    type: string;
    nullable: boolean;
    precision: number | null;
    default: boolean;
  }[];
  indexes: { table: string; name: string; primary: boolean; unique: boolean; columns: string[] }[];
  foreignKeys: { table: string; columns: string[]; references: string; refColumns: string[]; onDelete: string }[];
}

/** The public schema's tables, columns, indexes and foreign keys, read from PostgreSQL's catalogs. */
async function readCatalog(client: Client): Promise<Catalog> {
  const tables = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
  );
  const columns = await client.query<Catalog['columns'][number]>(
    `SELECT table_name AS "table", column_name AS "name", data_type AS "type", is_nullable = 'YES' AS "nullable",
       datetime_precision AS "precision", column_default IS NOT NULL AS "default"
     FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  const attnames = (rel: string, keys: string) =>
    `ARRAY(SELECT a.attname::text FROM unnest(${keys}) WITH ORDINALITY k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = k.attnum ORDER BY k.n)`;
  const indexes = await client.query<Catalog['indexes'][number]>(
    `SELECT t.relname AS "table", i.relname AS "name", ix.indisprimary AS "primary", ix.indisunique AS "unique",
       ${attnames('t.oid', 'ix.indkey')} AS "columns"
     FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
     JOIN pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = 'public'`,
  );
  const foreignKeys = await client.query<Catalog['foreignKeys'][number]>(
    `SELECT t.relname AS "table", ${attnames('c.conrelid', 'c.conkey')} AS "columns", r.relname AS "references",
       ${attnames('c.confrelid', 'c.confkey')} AS "refColumns", c.confdeltype AS "onDelete"
     FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
     JOIN pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = 'public' AND c.contype = 'f'`,
  );
  return {
    tables: tables.rows.map((r) => r.name),
    columns: columns.rows,
    indexes: indexes.rows,
    foreignKeys: foreignKeys.rows,
  };
}

/** Every way the database differs from the models, one line each (empty when they agree). */
function drift(models: SchemaModel[], catalog: Catalog): string[] {
  const found: string[] = [];
  const modelTables = models.map((m) => m.name);
  for (const table of catalog.tables) {
    if (!modelTables.includes(table) && !NON_MODEL_TABLES.includes(table)) found.push(`table ${table} is no model`);
  }
  for (const model of models) {
    if (!catalog.tables.includes(model.name)) {
      found.push(`model ${model.name} has no table`);
      continue;
    }
    const columns = catalog.columns.filter((c) => c.table === model.name);
    for (const field of model.fields) {
      const column = columns.find((c) => c.name === field.name);
      const where = `${model.name}.${field.name}`;
      if (!column) {
        found.push(`${where} has no column`);
        continue;
      }
      if (column.type !== POSTGRES_TYPES[field.type]) found.push(`${where} is ${column.type}, not ${field.type}`);
      if (field.type === 'DateTime' && column.precision !== 3) found.push(`${where} is not TIMESTAMP(3)`);
      if (column.nullable !== field.optional) found.push(`${where} nullability`);
      if (column.default !== field.hasDefault) found.push(`${where} default`);
    }
    for (const column of columns) {
      if (!model.fields.some((f) => f.name === column.name)) found.push(`${model.name}.${column.name} is no field`);
    }
    const indexes = catalog.indexes.filter((i) => i.table === model.name);
    const primary = indexes.find((i) => i.primary);
    if (JSON.stringify(primary?.columns) !== JSON.stringify(model.id)) found.push(`${model.name} primary key`);
    const expected = [
      ...model.indexes.map((columns) => ({ name: `${model.name}_${columns.join('_')}_idx`, columns, unique: false })),
      ...model.unique.map((columns) => ({ name: `${model.name}_${columns.join('_')}_key`, columns, unique: true })),
    ];
    const secondary = indexes.filter((i) => !i.primary);
    for (const index of expected) {
      const actual = secondary.find((i) => i.name === index.name);
      if (!actual) found.push(`${model.name} lacks index ${index.name}`);
      else if (JSON.stringify(actual.columns) !== JSON.stringify(index.columns) || actual.unique !== index.unique)
        found.push(`${model.name} index ${index.name} differs`);
    }
    for (const index of secondary) {
      if (!expected.some((e) => e.name === index.name)) found.push(`${model.name} has index ${index.name}`);
    }
    const keys = catalog.foreignKeys.filter((k) => k.table === model.name);
    for (const relation of model.relations) {
      const key = keys.find((k) => JSON.stringify(k.columns) === JSON.stringify(relation.fields));
      const where = `${model.name}(${relation.fields.join(', ')}) -> ${relation.model}`;
      if (
        !key ||
        key.references !== relation.model ||
        JSON.stringify(key.refColumns) !== JSON.stringify(relation.references)
      )
        found.push(`${where} has no foreign key`);
      else if (key.onDelete !== DELETE_RULES[relation.onDelete ?? 'NoAction']) found.push(`${where} on delete`);
    }
    if (keys.length !== model.relations.length) found.push(`${model.name} has foreign keys the schema lacks`);
  }
  return found;
}

describe('schema.prisma and the PostgreSQL migrations agree', () => {
  let catalog: Catalog;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const database = await createPostgresDatabase('template0');
    drop = database.drop;
    await migratePostgres(database.url);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      catalog = await readCatalog(client);
    } finally {
      await client.end();
    }
  });
  afterAll(() => drop());

  it('has every field as a column of the right type, nullability and default, the same keys, indexes and foreign keys, nothing extra', () => {
    expect(drift(parseSchema(), catalog)).toEqual([]);
  });

  it('fails on a model changed without a PostgreSQL migration', () => {
    const changed = parseSchema().map((model) =>
      model.name === 'Run'
        ? {
            ...model,
            fields: [...model.fields, { name: 'priority', type: 'Int', optional: false, hasDefault: true }],
            indexes: [...model.indexes, ['priority']],
          }
        : model.name === 'Node'
          ? { ...model, fields: model.fields.map((f) => (f.name === 'thought' ? { ...f, optional: false } : f)) }
          : model,
    );
    expect(drift(changed, catalog)).toEqual([
      'Run.priority has no column',
      'Run lacks index Run_priority_idx',
      'Node.thought nullability',
    ]);
  });
});
