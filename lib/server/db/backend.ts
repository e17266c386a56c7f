/**
 * Which database DATABASE_URL names: a SQLite file (`file:...`, the default ./data/arborist.db: one process, the
 * local default) or PostgreSQL (`postgresql://...` or `postgres://...`: the team server, any number of instances).
 * One place reads the URL; everything else asks `resolveDatabase()` or, for a client in hand, `databaseKindOf()`.
 * Not responsible for connecting (client.ts) nor for migrating (migrate.ts, migrate-postgres.ts).
 */
import { resolveDatabaseFile } from './migrate';

export type DatabaseKind = 'sqlite' | 'postgresql';

export interface DatabaseTarget {
  kind: DatabaseKind;
  /** The SQLite file's absolute path, or PostgreSQL's connection URL (with its password: never log it). */
  location: string;
  /** What logs and errors may show: the file, or the URL without its password. */
  display: string;
}

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** The URL without a password, for logs (a team server's log must not carry the database's secret). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgresql://(unparsable URL)';
  }
}

export function resolveDatabase(url: string | undefined = process.env.DATABASE_URL): DatabaseTarget {
  const value = url?.trim() ?? '';
  if (isPostgresUrl(value)) return { kind: 'postgresql', location: value, display: redactUrl(value) };
  const file = resolveDatabaseFile(value || undefined);
  return { kind: 'sqlite', location: file, display: file };
}
