/**
 * The type-check (and the tests' JavaScript) in worker threads, never on the calling thread: a small pool of warm
 * workers on typecheck-worker.mjs, each job one message. A cold worker pays for loading `typescript` and parsing
 * lib.d.ts and @types/node (measured by bench:sandbox); a warm one reuses them, so idle workers are kept (unref'd:
 * they never hold a process open). A job past its time limit or aborted terminates its worker; the pool starts a
 * new one for the next job.
 *
 * Where things are found at run time, the same under `next start` (bundled), vitest and tsx: the worker file and
 * `typescript` under the server's working directory (process.cwd(), the project root for all three, as
 * lib/server/import-jobs.ts relies on too), @types/node beside typescript. node:worker_threads and node:module are
 * fetched at run time (process.getBuiltinModule) so Turbopack neither bundles the worker nor `typescript`.
 * Not responsible for the temp folder (folder.ts) or the tests (runner.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';

export interface CheckJob {
  root: string;
  /** The project's files, relative to root. */
  files: string[];
  /** Where the tests' JavaScript goes (absolute). */
  outDir: string;
  /** 'if-clean': only after a clean type-check; 'always': whatever it says. */
  emit: 'always' | 'if-clean' | 'never';
  typecheck: boolean;
}

export interface CheckResult {
  diagnostics: string[];
  ms: number;
  emitted: boolean;
  /** transpileModule's own complaints (syntax it cannot read), per file. */
  emitErrors: string[];
}

type WorkerAnswer = { id: number; ok: true } & CheckResult;
type WorkerFailure = { id: number; ok: false; message: string };

interface Located {
  workerFile: string;
  typescriptPath: string;
  typeRoots: string[];
  nodeTypes: boolean;
}

let located: Located | null = null;

/** The worker file, `typescript` and @types/node, found once (see the header for why under process.cwd()). */
function locate(): Located {
  if (located) return located;
  const root = path.join(/* turbopackIgnore: true */ process.cwd());
  const { createRequire } = process.getBuiltinModule('node:module');
  const fromRoot = createRequire(path.join(root, 'package.json'));
  const typescriptPath = fromRoot.resolve('typescript');
  let typeRoots: string[] = [];
  let nodeTypes = false;
  try {
    const nodeTypesDir = path.dirname(fromRoot.resolve('@types/node/package.json'));
    typeRoots = [path.dirname(nodeTypesDir)];
    nodeTypes = true;
  } catch {
    // no @types/node: projects that import node:test get TS2307 from the check, which says so
  }
  const workerFile = path.join(root, 'lib', 'tasks', 'code', 'sandbox', 'typecheck-worker.mjs');
  if (!fs.existsSync(workerFile)) throw new Error(`sandbox: the type-check worker is missing (${workerFile})`);
  located = { workerFile, typescriptPath, typeRoots, nodeTypes };
  return located;
}

/** The type-check worker's heap: a pathological project fails its check rather than the server. */
const WORKER_HEAP_MB = 1536;

const idle: Worker[] = [];
let nextId = 1;
/** How many idle workers are kept warm (the verification pool's size: index.ts sets it). */
let keepWarm = 2;

export function setWarmWorkers(count: number): void {
  keepWarm = Math.max(1, count);
  for (const worker of idle.splice(keepWarm)) void worker.terminate();
}

function startWorker(): Worker {
  const { workerFile, typescriptPath } = locate();
  const { Worker: ThreadWorker } = process.getBuiltinModule('node:worker_threads');
  return new ThreadWorker(workerFile, {
    workerData: { typescriptPath },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    // the worker sees no secret of the server's: it needs none
    env: {},
    stdout: false,
    stderr: false,
  });
}

/**
 * Runs one job on a warm worker (or a new one). Rejects with the signal's reason when aborted and with a timeout
 * error past `timeMs`; the worker is then terminated, never reused.
 */
export function runCheck(job: CheckJob, timeMs: number, signal?: AbortSignal): Promise<CheckResult> {
  signal?.throwIfAborted();
  const { typeRoots, nodeTypes } = locate();
  const worker = idle.pop() ?? startWorker();
  worker.ref();
  const id = nextId++;
  return new Promise<CheckResult>((resolve, reject) => {
    let settled = false;
    const finish = (keep: boolean, outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep && idle.length < keepWarm) {
        worker.unref();
        idle.push(worker);
      } else void worker.terminate();
      outcome();
    };
    const onMessage = (answer: WorkerAnswer | WorkerFailure) => {
      if (answer.id !== id) return;
      if (answer.ok) {
        const { diagnostics, ms, emitted, emitErrors } = answer;
        finish(true, () => resolve({ diagnostics, ms, emitted, emitErrors }));
      } else finish(true, () => reject(new Error(`sandbox: the type-check failed to run: ${answer.message}`)));
    };
    const onError = (error: Error) =>
      finish(false, () => reject(new Error(`sandbox: the type-check worker died: ${error.message}`)));
    const onExit = (code: number) =>
      finish(false, () => reject(new Error(`sandbox: the type-check worker exited (${code})`)));
    const onAbort = () => finish(false, () => reject(signal?.reason));
    const timer = setTimeout(() => finish(false, () => reject(new CheckTimeout(timeMs))), timeMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ ...job, id, typeRoots, nodeTypes });
  });
}

export class CheckTimeout extends Error {
  constructor(readonly timeMs: number) {
    super(`the type-check did not finish within ${Math.round(timeMs / 1000)} s`);
  }
}
