/**
 * `npm start`: the one command on a fresh clone. Migrates the database (a SQLite file under data/ unless
 * DATABASE_URL says otherwise), builds the app when there is no build or the sources changed since, then serves
 * it with `next start` on PORT (3000). The demo run is seeded by the server itself on first start.
 * Not responsible for what the server does (instrumentation.ts and lib/server/services.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { migrate, resolveDatabaseFile } from './db/migrate';

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

function main(): void {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';
  const file = resolveDatabaseFile();
  const { applied } = migrate(file);
  console.log(
    `arborist: database ${path.relative(root, file) || file}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`,
  );

  const reason = needsBuild();
  if (reason) {
    console.log(`arborist: building the app (${reason})…`);
    const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: process.env });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const port = process.env.PORT ?? '3000';
  console.log(`arborist: serving on http://localhost:${port}`);
  const server = spawn(process.execPath, [nextBin, 'start', '-p', port], { stdio: 'inherit', env: process.env });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

main();
