/**
 * Backups of the database while the app runs, and their restore into an empty database (`npm run db:backup` and
 * `npm run db:restore`, backup-cli.ts).
 * - SQLite: SQLite's online backup API (better-sqlite3's `backup`) from a connection of this process. All the pages
 *   are copied in one step, inside one read transaction: with WAL the server goes on writing meanwhile, and the copy is
 *   the database as of one commit (the API restarts a copy that another connection wrote under, which with small steps
 *   on a busy run would never finish).
 * - PostgreSQL: `pg_dump --format=custom` (one snapshot, repeatable read), restored with `pg_restore` in one
 *   transaction.
 * A backup is written beside its name and renamed into place once checked, so a file of that name is a whole backup.
 * A restore goes only into an empty database (no table at all) and then migrates it: a backup of an older Arborist
 * opens on a newer one. Whether a file is a SQLite or a PostgreSQL backup is read from its first bytes.
 * Not responsible for when or where backups are kept (the README says), nor for what is inside the tables.
 */
import { execFile } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { type DatabaseKind, type DatabaseTarget } from './backend';
import { migrateDatabase } from './client';

const run = promisify(execFile);

/** A backup or restore that cannot be done, with what to do about it (the CLI prints the message alone). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupSummary {
  kind: DatabaseKind;
  file: string;
  bytes: number;
  ms: number;
}

export interface RestoreSummary extends BackupSummary {
  /** Migrations applied after the restore: the backup was made by an older Arborist. */
  migrated: string[];
}

export interface PostgresTools {
  /** Where pg_dump and pg_restore are (ARBORIST_PG_BIN); on the PATH when unset. */
  binDir?: string;
}

// SQLite's header string (its file format's first 16 bytes) and pg_dump's custom format's magic
const SQLITE_MAGIC = 'SQLite format 3\0';
const PG_DUMP_MAGIC = 'PGDMP';

/** The largest page count one step of the backup API takes: every page in one step (better-sqlite3 caps at 2^31-1). */
const ALL_PAGES = 0x7fffffff;

/** Writes a consistent copy of `target` to `file` (a new file; its folder is made). */
export async function backupDatabase(
  target: DatabaseTarget,
  file: string,
  tools: PostgresTools = {},
): Promise<BackupSummary> {
  const destination = path.resolve(file);
  if (target.kind === 'sqlite' && !existsSync(target.location)) {
    throw new BackupError(`${target.location}: no such database file`);
  }
  if (existsSync(destination))
    throw new BackupError(`${destination} exists: a backup never overwrites a file, name a new one`);
  const started = performance.now();
  await writeInPlace(destination, (partial) =>
    target.kind === 'sqlite' ? backupSqlite(target.location, partial) : backupPostgres(target.location, partial, tools),
  );
  return { kind: target.kind, file: destination, bytes: statSync(destination).size, ms: performance.now() - started };
}

/** Restores `file` (a backup of the same kind of database) into `target`, which must be empty, then migrates it. */
export async function restoreDatabase(
  target: DatabaseTarget,
  file: string,
  tools: PostgresTools = {},
): Promise<RestoreSummary> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`${source}: no such file`);
  const kind = backupKindOf(source);
  if (kind === null)
    throw new BackupError(`${source} is not an Arborist backup (neither a SQLite file nor a pg_dump archive)`);
  if (kind !== target.kind) {
    throw new BackupError(
      `${source} is a ${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} backup and DATABASE_URL names a ` +
        `${target.kind === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'}: restore it into the same kind`,
    );
  }
  const started = performance.now();
  if (target.kind === 'sqlite') await restoreSqlite(source, target.location);
  else await restorePostgres(source, target, tools);
  const { applied } = await migrateDatabase(target);
  return { kind, file: source, bytes: statSync(source).size, ms: performance.now() - started, migrated: applied };
}

/** Which database a backup file is of, from its first bytes; null when it is neither. */
export function backupKindOf(file: string): DatabaseKind | null {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') === SQLITE_MAGIC) return 'sqlite';
  if (head.subarray(0, PG_DUMP_MAGIC.length).toString('latin1') === PG_DUMP_MAGIC) return 'postgresql';
  return null;
}

async function backupSqlite(databaseFile: string, partial: string): Promise<void> {
  const db = new Database(databaseFile, { fileMustExist: true });
  try {
    await db.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  // the copy keeps the source's WAL mode, whose -wal and -shm files would not follow it on a rename or to another disk:
  // in rollback-journal mode the backup is one file (a restore's migration turns WAL back on)
  const copy = new Database(partial, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  assertSqliteBackup(partial);
}

/** A SQLite file that passes SQLite's own check and holds Arborist's migrations. */
function assertSqliteBackup(file: string): void {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${file} fails SQLite's check: ${String(check)}`);
    if (tableCount(db, '_prisma_migrations') === 0) {
      throw new BackupError(`${file} is a SQLite file but not an Arborist database (no migrations)`);
    }
  } finally {
    db.close();
  }
}

function tableCount(db: Database.Database, name?: string): number {
  const sql = `SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'${name ? ' AND name = ?' : ''}`;
  return (db.prepare(sql).get(...(name ? [name] : [])) as { n: number }).n;
}

async function restoreSqlite(source: string, databaseFile: string): Promise<void> {
  assertSqliteBackup(source);
  if (existsSync(databaseFile)) {
    const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
    let tables: number;
    try {
      tables = tableCount(db);
    } finally {
      db.close();
    }
    if (tables > 0) {
      throw new BackupError(
        `${databaseFile} is not empty (${tables} tables): a restore goes into an empty database. ` +
          'Stop the server, move the file (and its -wal and -shm files) away, and restore again.',
      );
    }
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${databaseFile}${suffix}`, { force: true });
  // a backup is one file in rollback-journal mode that nothing writes: a copy of it is the restored database
  await writeInPlace(databaseFile, async (partial) => copyFileSync(source, partial));
}

/**
 * `write` fills a file beside `file` (its folder made), which is then renamed to `file`: a file of that name is always
 * whole, and a failed write leaves nothing behind.
 */
async function writeInPlace(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    await write(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * pg_dump and pg_restore take the URL without its password, which goes in PGPASSWORD: a command line is visible to
 * every user of the machine (ps), the environment of a process is not.
 */
function connectionFor(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password && { PGPASSWORD: password }) } };
}

function tool(name: 'pg_dump' | 'pg_restore', tools: PostgresTools): string {
  return tools.binDir ? path.join(tools.binDir, name) : name;
}

/** Runs a PostgreSQL tool; its failure becomes a BackupError with what it said (never the URL's password). */
async function runTool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv, tools: PostgresTools) {
  try {
    await run(tool(name, tools), args, { env, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new BackupError(
        `${name} not found${tools.binDir ? ` in ${tools.binDir}` : ' on the PATH'}: install PostgreSQL's client ` +
          '(apt-get install -y postgresql-client-15) or set ARBORIST_PG_BIN to the folder that holds it',
      );
    }
    throw new BackupError(`${name} failed: ${(failure.stderr ?? failure.message).trim()}`);
  }
}

async function backupPostgres(url: string, partial: string, tools: PostgresTools): Promise<void> {
  const { dbname, env } = connectionFor(url);
  // --no-owner and --no-privileges: the restore's database may belong to another role
  await runTool(
    'pg_dump',
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`, `--dbname=${dbname}`],
    env,
    tools,
  );
  // the archive's table of contents read back: a truncated or foreign file fails here, not at the restore
  await runTool('pg_restore', ['--list', partial], env, tools);
}

async function restorePostgres(source: string, target: DatabaseTarget, tools: PostgresTools): Promise<void> {
  const client = new Client({ connectionString: target.location });
  await client.connect();
  let tables: number;
  try {
    const result = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()`,
    );
    tables = Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
  if (tables > 0) {
    throw new BackupError(
      `${target.display} is not empty (${tables} tables): a restore goes into an empty database. ` +
        'Create a new database (createdb) and point DATABASE_URL at it.',
    );
  }
  const { dbname, env } = connectionFor(target.location);
  // one transaction: a restore that fails leaves the database as empty as it was
  await runTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, source],
    env,
    tools,
  );
}
