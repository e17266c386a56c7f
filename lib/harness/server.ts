/**
 * The production server driven from outside, for e2e/ and lib/bench alike: a free port, `next start` run by node
 * directly (so the PID we kill is the server itself), a wait until it answers, and a bench's whole server on its own
 * port and SQLite file in a temp folder (no demo run) with the small HTTP helpers to talk to its API (tRPC over plain
 * HTTP, superjson's wire format { json: ... }). That server is killed by its real PID on stop(), and on exit or
 * Ctrl-C if the script dies first. Not responsible for what runs on it (recorded-runs.ts) or for measuring anything.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sleep } from '../contract/sleep';

const nextBin = path.join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');

/** A port nobody listens on now, so no other copy of a test can answer for our server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * `next start` on 127.0.0.1:`port` with `env` on top of ours; the child is the server itself. `onOutput` hears what
 * it prints (a team server's first start prints its setup code there); without it the output is dropped.
 */
export function startServer(
  port: number,
  env: Record<string, string>,
  onOutput?: (text: string) => void,
  nodeArgs: readonly string[] = [],
): ChildProcess {
  // node's own flags (bench:server's --inspect) go before next's script, so they are the server process's own
  const child = spawn(process.execPath, [...nodeArgs, nextBin, 'start', '-p', String(port), '-H', '127.0.0.1'], {
    // SIGTERM and SIGINT are the server's own (instrumentation.ts: a graceful shutdown), as under `npm start`
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_MANUAL_SIG_HANDLE: 'true', ...env },
    stdio: onOutput ? ['ignore', 'pipe', 'pipe'] : 'ignore',
  });
  // read as it comes, so a full pipe never stalls the server
  child.stdout?.on('data', (chunk: Buffer) => onOutput?.(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => onOutput?.(chunk.toString()));
  return child;
}

/** Resolves once `base` answers; throws when the server exits first or is still silent after 30 s. */
export async function waitUntilUp(server: ChildProcess, base: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/`)).ok) return;
    } catch {
      // not yet
    }
    await sleep(100);
  }
  throw new Error(`the server at ${base} did not start`);
}

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

/**
 * Starts `next start -p <port>` on a fresh database and waits until it answers. `nodeArgs` are node's flags for the
 * server process (bench:server passes --inspect to read the server's heap from outside).
 */
export async function startBenchServer(
  port: number,
  env: Record<string, string> = {},
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
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
  const server = startServer(
    port,
    {
      DATABASE_URL: `file:${databaseFile}`,
      ARBORIST_DEMO: '0',
      ...env,
    },
    undefined,
    nodeArgs,
  );
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

  try {
    await waitUntilUp(server, base);
  } catch (error) {
    stop();
    throw new Error(`the server on port ${port} did not start`, { cause: error });
  }
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
      const res = await fetch(`${base}/api/trpc/${route}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
      return unwrap<T>(route, res.status, (await res.json()) as Envelope<T>);
    },
  };
}
