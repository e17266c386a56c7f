/**
 * The production server for a benchmark: `next start` on the benchmark's own port with its own SQLite file in a
 * temp folder (no demo run), and the small HTTP helpers to talk to its API (tRPC over plain HTTP, superjson's wire
 * format { json: ... }). The server is killed by its real PID on stop(), and on exit or Ctrl-C if the benchmark
 * dies first. Shared by bench:server and bench:ui; not a test helper (e2e/ has its own).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const nextBin = path.join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');

/** Builds the app (next build) when there is no build yet; exits on a failed build. */
export function ensureBuild(purpose: string): void {
  if (existsSync(path.join('.next', 'BUILD_ID'))) return;
  console.log(`\nbuilding the app for ${purpose}…`);
  const build = spawnSync(process.execPath, [nextBin, 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

export interface BenchServer {
  base: string;
  /** The PID of the node process that runs next start (no npx in between). */
  pid: number;
  /** Its SQLite file (a temp dir of its own), for a bench that writes through a repository in its own process. */
  databaseFile: string;
  post<T>(route: string, input: unknown): Promise<T>;
  query<T>(route: string, input: unknown): Promise<T>;
  stop(): void;
}

type Envelope<T> = { result?: { data: { json: T } }; error?: { json?: { message?: string } } };

function unwrap<T>(route: string, status: number, body: Envelope<T>): T {
  if (!body.result)
    throw new Error(`${route} failed (${status}): ${body.error?.json?.message ?? JSON.stringify(body)}`);
  return body.result.data.json;
}

/** Starts `next start -p <port>` on a fresh database and waits until it answers. */
export async function startBenchServer(port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const base = `http://127.0.0.1:${port}`;
  try {
    await fetch(`${base}/`, { signal: AbortSignal.timeout(1_000) });
    throw new Error(`port ${port} is already in use: stop what runs there first`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('port ')) throw error;
    // nothing there: good
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `arborist-bench-${port}-`));
  const databaseFile = path.join(dir, 'bench.db');
  const server: ChildProcess = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: `file:${databaseFile}`,
      ARBORIST_DEMO: '0',
      NEXT_TELEMETRY_DISABLED: '1',
      // serves /bench/flow, the bare React Flow page bench:ui compares with (a 404 on any other server)
      ARBORIST_BENCH: '1',
      ...env,
    },
    stdio: 'ignore',
  });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (server.pid !== undefined && server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = () => {
    stop();
    process.exit(130);
  };
  process.once('exit', stop);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  for (let i = 0; i < 300 && server.exitCode === null; i++) {
    try {
      if ((await fetch(`${base}/`)).ok) {
        return {
          base,
          pid: server.pid as number,
          databaseFile,
          stop,
          async post<T>(route: string, input: unknown) {
            const res = await fetch(`${base}/api/trpc/${route}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-arborist-actor': 'bench' },
              body: JSON.stringify({ json: input }),
            });
            return unwrap<T>(route, res.status, (await res.json()) as Envelope<T>);
          },
          async query<T>(route: string, input: unknown) {
            const res = await fetch(
              `${base}/api/trpc/${route}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`,
            );
            return unwrap<T>(route, res.status, (await res.json()) as Envelope<T>);
          },
        };
      }
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  stop();
  throw new Error(`the server on port ${port} did not start`);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
