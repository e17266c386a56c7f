/**
 * A throwaway PostgreSQL cluster from the OS packages (postgresql-15), for the unit tests, e2e and the benches: initdb
 * into a temp folder, `pg_ctl start` on a free port (TCP on 127.0.0.1, trust auth, nothing else can reach it), and a
 * database per caller. Run as root (CI, these machines), the server runs as the `postgres` user, since PostgreSQL
 * refuses root. Any failure throws with the reason: a test run that needs PostgreSQL never skips it silently.
 * Not responsible for the schema (lib/server/db/migrate-postgres.ts) nor for a production database.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/** Where Debian's postgresql-15 puts initdb and pg_ctl (override with ARBORIST_PG_BIN). */
export const PG_BIN = process.env.ARBORIST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  port: number;
  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** A new empty database; returns its URL. */
  createDatabase(name: string, template?: string): Promise<string>;
  stop(): void;
}

function asPostgres(command: string, args: string[]): string[] {
  // root may not run PostgreSQL: run it as the packages' own user
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', command, ...args] : [command, ...args];
}

function run(command: string, args: string[], what: string): void {
  const [bin, ...rest] = asPostgres(command, args);
  const result = spawnSync(bin!, rest, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`.trim();
    throw new Error(`PostgreSQL could not ${what}: ${output || `exit code ${result.status}`}`);
  }
}

export interface PostgresOptions {
  /**
   * PostgreSQL's own defaults (fsync, synchronous_commit and full-page writes on), as a production server runs: for the
   * benches' durable figures. Off by default: a test cluster is thrown away, and without fsync it does not wait on the
   * disk at each commit.
   */
  durable?: boolean;
}

/** Starts a new cluster on `port`; throws with the reason when PostgreSQL is missing or will not start. */
export function startPostgres(port: number, { durable = false }: PostgresOptions = {}): PostgresCluster {
  const initdb = path.join(PG_BIN, 'initdb');
  if (!existsSync(initdb)) {
    throw new Error(
      `PostgreSQL is not installed: no ${initdb}. Install it (apt-get install -y postgresql-15) or set ARBORIST_PG_BIN.`,
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-pg-'));
  // the postgres user must own its data folder (and reach it through the temp folder)
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '-N'], 'initialise');
  run(
    path.join(PG_BIN, 'pg_ctl'),
    [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '30',
      // loopback only; no unix socket in a shared folder; fsync off unless asked: a test cluster is thrown away anyway
      '-o',
      `-p ${port} -h 127.0.0.1 -k '' ${durable ? '' : '-c fsync=off -c synchronous_commit=off -c full_page_writes=off '}` +
        '-c max_connections=300',
      'start',
    ],
    `start on port ${port} (see ${path.join(dir, 'log')})`,
  );
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stop);
    const [bin, ...rest] = asPostgres(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
    spawnSync(bin!, rest, { timeout: 30_000 });
    rmSync(dir, { recursive: true, force: true });
  };
  // a script that ends without stopping it (an exception, process.exit) must not leave a server running behind it
  process.once('exit', stop);
  return {
    port,
    url,
    async createDatabase(name, template) {
      const client = new Client({ connectionString: url() });
      await client.connect();
      try {
        // names come from our own code; quoted anyway
        await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
  };
}
