/**
 * Imports off the event loop: each upload is handed (its bytes transferred, not copied) to a worker thread that
 * parses, checks, folds and writes it (import-worker.ts), while the main thread only awaits the answer. Also the
 * limits on imports running at once: one per user (`who`), MAX_IMPORTS_AT_ONCE in the whole process.
 *
 * How the worker's code is loaded: under `next start` this module is bundled by Turbopack, which takes
 * `new Worker(new URL('./x.ts', import.meta.url))` as an entry to bundle into its own chunk (node:worker_threads
 * support landed in Next 16.2), but the same line cannot run under vitest or tsx, where the URL is a .ts file Node
 * cannot load; and the path of an imported Worker built at run time is taken as a pattern over the whole project
 * (workerThreads()). So the worker is started from the sources, resolved from process.cwd() (the project root under
 * `npm start`, `next start`, vitest and the benches alike), through a small .mjs that registers tsx's loader in the
 * thread (import-worker-boot.mjs): one way that works everywhere, at the price of ~0.5 s of TypeScript compilation
 * per import and tsx being installed where the server runs.
 *
 * A worker that dies (a crash, out of memory, terminated) leaves its staged runs: they are deleted here, and a
 * process killed mid-import leaves them to the start-up sweep (services.ts, sweepStagedImports).
 * Not responsible for HTTP (http/run-files.ts) or what an import writes (imports.ts).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { PrismaClient } from './db/client';
import type { ImportKind } from './imports';
import { deleteStagedRuns } from './repositories/runs';

/** What the worker is given (workerData); `bytes` is transferred to it, the caller's copy becomes empty. */
export interface ImportJobInput {
  entry: string;
  databaseFile: string;
  bytes: ArrayBuffer;
  /** The file's length: `bytes` may be longer (the buffer it was read into grows by doubling). */
  byteLength: number;
  jobId: string;
  importTag: string | null;
  fileName: string | null;
  /** The import's time in epoch ms (tests); null for now. */
  now: number | null;
  ownerId: string | null;
}

/** The worker's one message: the new runs, or why not (`input`: the file is wrong, a 400 with this message). */
export type ImportJobResult =
  { ok: true; kind: ImportKind; runs: { id: string; goal: string }[] } | { ok: false; input: boolean; message: string };

/** Imports running at once in this process, across all users. */
export const MAX_IMPORTS_AT_ONCE = 2;

export type ImportSlot = { ok: true; release: () => void } | { ok: false; reason: 'yours' | 'busy' };

const globalForImports = globalThis as typeof globalThis & { arboristImportsRunning?: Set<string> };

/**
 * Takes a slot for `who`'s import, or says why not: `yours` when `who` already has one running, `busy` when
 * MAX_IMPORTS_AT_ONCE are running. Kept on globalThis: Next may load this module more than once in one process.
 * Release exactly once, when the import has finished (whatever its outcome).
 */
export function acquireImportSlot(who: string): ImportSlot {
  const running = (globalForImports.arboristImportsRunning ??= new Set());
  if (running.has(who)) return { ok: false, reason: 'yours' };
  if (running.size >= MAX_IMPORTS_AT_ONCE) return { ok: false, reason: 'busy' };
  running.add(who);
  let released = false;
  return {
    ok: true,
    release: () => {
      if (released) return;
      released = true;
      running.delete(who);
    },
  };
}

/**
 * node:worker_threads fetched at run time, not imported: Turbopack takes the path of any `new Worker(...)` of an
 * imported Worker as an entry to bundle, and a path built at run time as a pattern over the whole project (tried:
 * the build then failed bundling vitest.config.ts and start.ts into the route; a turbopackIgnore comment on the
 * argument is not honoured there). The worker's files are read by Node from the sources, never bundled.
 */
function workerThreads(): typeof WorkerThreads {
  return process.getBuiltinModule('node:worker_threads');
}

function workerFiles(): { boot: string; entry: string } {
  // turbopackIgnore: a path under process.cwd() is otherwise traced as a folder the route reads, and Turbopack then
  // compiles every file in it (start.ts included) into the route's output
  const dir = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'server');
  return { boot: path.join(dir, 'import-worker-boot.mjs'), entry: path.join(dir, 'import-worker.ts') };
}

export interface ImportJobRequest {
  /** The main thread's client, to delete a dead worker's staged runs. */
  prisma: PrismaClient;
  databaseFile: string;
  /** Transferred to the worker: empty for the caller afterwards. */
  bytes: ArrayBuffer;
  byteLength: number;
  importTag: string | null;
  fileName: string | null;
  now?: Date;
  ownerId: string | null;
}

/** Runs one import in a new worker thread and resolves with its result; rejects when the worker died. */
export function runImportJob(request: ImportJobRequest): Promise<ImportJobResult> {
  const jobId = randomUUID();
  const { boot, entry } = workerFiles();
  const workerData: ImportJobInput = {
    entry,
    databaseFile: request.databaseFile,
    bytes: request.bytes,
    byteLength: request.byteLength,
    jobId,
    importTag: request.importTag,
    fileName: request.fileName,
    now: request.now ? request.now.getTime() : null,
    ownerId: request.ownerId,
  };
  return new Promise<ImportJobResult>((resolve, reject) => {
    let result: ImportJobResult | null = null;
    let failure: unknown = null;
    const worker = new (workerThreads().Worker)(boot, { workerData, transferList: [request.bytes] });
    worker.once('message', (message: ImportJobResult) => {
      result = message;
    });
    worker.once('error', (error) => {
      failure = error;
    });
    worker.once('exit', (code) => {
      if (result) return resolve(result);
      // died before answering: what it staged is nobody's, delete it (a few runs per statement)
      deleteStagedRuns(request.prisma, jobId)
        .catch((cleanup: unknown) => console.error('[arborist] deleting a dead import’s staged runs failed:', cleanup))
        .finally(() => reject(failure ?? new Error(`the import worker exited with code ${code} before answering`)));
    });
  });
}
