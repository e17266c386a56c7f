/**
 * `npm start`: the one command on a fresh clone. Checks the environment (team mode needs its secret), migrates the
 * database (a SQLite file under data/ unless DATABASE_URL names another file or a PostgreSQL database), builds the app when there is no build or
 * the sources changed since, then serves it with `next start` on HOST:PORT (127.0.0.1:3000). The demo run is seeded
 * by the server itself on first start.
 * Listening beyond loopback (HOST=0.0.0.0, a LAN address) is for team mode (ARBORIST_AUTH=1); without it, it needs
 * ARBORIST_ALLOW_OPEN=1 and says loudly that anyone who reaches the port can do anything.
 * Not responsible for what the server does (instrumentation.ts and lib/server/services.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveDatabase } from './db/backend';
import { migrateDatabase } from './db/client';
import { isTeamMode, readEnv } from './core/env';
import { isLoopbackHost } from './auth/listen';

const root = process.cwd();
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const SOURCES = ['app', 'components', 'lib', 'public', 'next.config.mjs', 'instrumentation.ts', 'package.json'];

/** The newest modification time under the app's sources (tests and generated files do not count). */
function newestSource(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of readdirSync(full)) {
    if (child === 'generated' || child.endsWith('.test.ts')) continue;
    newest = Math.max(newest, newestSource(path.join(entry, child)));
  }
  return newest;
}

function needsBuild(): string | null {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!existsSync(buildId)) return 'no build yet';
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((s) => newestSource(s) > built) ? 'the sources changed since the last build' : null;
}

async function main(): Promise<void> {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';
  let env;
  try {
    env = readEnv();
  } catch (error) {
    console.error(`arborist: ${(error as Error).message}`);
    process.exit(1);
  }
  const host = process.env.HOST?.trim() || '127.0.0.1';
  const team = isTeamMode(env);
  if (!isLoopbackHost(host) && !team) {
    if (env.ARBORIST_ALLOW_OPEN !== '1') {
      console.error(
        `arborist: HOST=${host} would let anyone who reaches this machine delete, steer and fork every run. Turn on ` +
          'team mode (ARBORIST_AUTH=1 with ARBORIST_SECRET) or, on a network you trust, set ARBORIST_ALLOW_OPEN=1.',
      );
      process.exit(1);
    }
    console.warn(
      `arborist: WARNING: listening on ${host} without sign-in (ARBORIST_ALLOW_OPEN=1): anyone who reaches the port can do anything`,
    );
  }
  const database = resolveDatabase();
  const { applied } = await migrateDatabase(database);
  const shownDatabase = database.kind === 'sqlite' ? path.relative(root, database.location) : database.display;
  console.log(
    `arborist: database ${shownDatabase || database.display}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`,
  );

  const reason = needsBuild();
  if (reason) {
    console.log(`arborist: building the app (${reason})…`);
    const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const port = process.env.PORT ?? '3000';
  const shown = isLoopbackHost(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  console.log(`arborist: serving on http://${shown}:${port} (${team ? 'team mode: sign-in required' : 'local mode'})`);
  // the server handles SIGTERM/SIGINT itself (instrumentation.ts): a graceful shutdown hands its runs back first
  const server = spawn(process.execPath, [nextBin, 'start', '-p', port, '-H', host], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_MANUAL_SIG_HANDLE: 'true' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main().catch((error: unknown) => {
  console.error(`arborist: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
