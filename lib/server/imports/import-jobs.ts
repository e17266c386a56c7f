/**
 * Imports off the event loop: each upload is handed (its bytes transferred, not copied) to a worker thread that
 * parses, checks, folds and writes it (import-worker.ts), while the main thread only awaits the answer. Also the
 * limits on imports running at once: one per user (`who`) across every instance on the database (an ImportSlot row,
 * repositories/import-slots.ts), MAX_IMPORTS_AT_ONCE in this process, and MAX_IMPORT_MS for one import.
 *
 * How the worker's code is loaded, two ways, one per way this module itself runs:
 * - bundled (`next build`, then `next start` or `npm start`): `new Worker(new URL('./import-worker.ts',
 *   import.meta.url))`, which Turbopack (node:worker_threads support since Next 16.2; a resolution bug fixed in 16.3)
 *   compiles into a worker chunk of its own, `[worker thread]-lib_server_import-worker_ts_*.js` under .next/server.
 *   Tried in a real build: it imports under `next start`. The worker runs the code the app was built from.
 * - from the sources (vitest, tsx scripts): that URL names a .ts file Node cannot load, so the worker starts from
 *   import-worker-boot.mjs, which registers tsx's loader in the thread and imports import-worker.ts.
 * Told apart by NEXT_RUNTIME, which Next sets in its server process.
 *
 * A worker that dies (a crash, out of memory, terminated) leaves its staged runs: they are deleted here, and a
 * process killed mid-import leaves them to the start-up sweep (services.ts, sweepStagedImports).
 * Not responsible for HTTP (http/run-files.ts) or what an import writes (imports.ts).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Db, databaseKindOf, type PrismaClient } from '../db/client';
import type { ImportKind } from './imports';
import { deleteStagedImport } from '../run-log/index';
import { claimImportSlot, releaseImportSlot } from '../repositories/import-slots';

/** What the worker is given (workerData); `bytes` is transferred to it, the caller's copy becomes empty. */
export interface ImportJobInput {
  /** The worker's TypeScript entry, for the tsx boot file (from the sources only; null when bundled). */
  entry: string | null;
  /** The SQLite file or PostgreSQL URL the worker opens its own client on (createPrismaClient). */
  database: string;
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

/**
 * Imports running at once in this process, across all users. Per process, not per cluster: it guards this process's
 * memory (each holds its upload, up to MAX_IMPORT_BYTES) and threads, which no other instance shares; so it is counted
 * here, synchronously, where no two requests can both take the last place.
 */
export const MAX_IMPORTS_AT_ONCE = 2;

/**
 * The longest an import may take: its worker is stopped then, and its slot stops counting, so an instance that died
 * mid-import holds its person's slot no longer than this. Far above what a 50 MB file takes.
 */
export const MAX_IMPORT_MS = 10 * 60_000;

/** `release` settles once the slot is free (it never rejects); call it exactly once, whatever the import's outcome. */
export type ImportSlot = { ok: true; release: () => Promise<void> } | { ok: false; reason: 'yours' | 'busy' };

/**
 * This process's imports, kept on globalThis (Next may load this module more than once in one process): the slots it
 * holds or is taking (`mine`), and how many imports it runs (`running`, counted synchronously, so two requests cannot
 * both take the last place).
 */
const globalForImports = globalThis as typeof globalThis & {
  arboristImports?: { mine: Set<string>; running: number };
};

/**
 * Takes a slot for `who`'s import on instance `instanceId`, or says why not: `yours` when `who` already has one
 * running on any instance, `busy` when MAX_IMPORTS_AT_ONCE are running in this process. The person's slot comes first
 * (that refusal says the more useful thing).
 */
export async function acquireImportSlot(
  db: Db,
  who: string,
  instanceId: string,
  now = new Date(),
): Promise<ImportSlot> {
  const here = (globalForImports.arboristImports ??= { mine: new Set(), running: 0 });
  const id = randomUUID();
  // SQLite is one process: a slot row this process neither holds nor is taking was left by a process that has gone,
  // and is taken over at once (a restart forgot it when slots lived in memory). Listed before this slot joins them,
  // and this slot joins before its claim is sent, so a concurrent claim of the same person here sees it as live.
  const heldHere = databaseKindOf(db) === 'sqlite' ? [...here.mine] : null;
  here.mine.add(id);
  const expiresAt = new Date(now.getTime() + MAX_IMPORT_MS);
  let claimed = false;
  try {
    claimed = await claimImportSlot(db, { id, who, instanceId, startedAt: now, expiresAt }, heldHere);
  } finally {
    if (!claimed) here.mine.delete(id);
  }
  if (!claimed) return { ok: false, reason: 'yours' };
  if (here.running >= MAX_IMPORTS_AT_ONCE) {
    here.mine.delete(id);
    await releaseImportSlot(db, id);
    return { ok: false, reason: 'busy' };
  }
  here.running += 1;
  let released = false;
  return {
    ok: true,
    release: async () => {
      if (released) return;
      released = true;
      here.running -= 1;
      here.mine.delete(id);
      // a slot that cannot be deleted now stops counting at its expiry
      await releaseImportSlot(db, id).catch((error: unknown) =>
        console.error('[arborist] releasing an import slot failed (it expires by itself):', error),
      );
    },
  };
}

/**
 * True inside Next's server (next start, next dev), where this module is bundled. Not `import.meta.url`: Turbopack
 * keeps the source file's name in it, so it ends in .ts in the bundle too (tried).
 */
const bundled = () => process.env.NEXT_RUNTIME === 'nodejs';

/**
 * A worker on import-worker.ts from the sources, through the tsx boot file. node:worker_threads is fetched at run
 * time here, not imported: Turbopack takes the path of any `new Worker(...)` it can see as an entry to bundle, and a
 * path built at run time as a pattern over the whole project (tried: the build then failed bundling vitest.config.ts
 * and start.ts into the route; a turbopackIgnore comment on that argument is not honoured). The path under
 * process.cwd() carries turbopackIgnore, else Turbopack traces the folder and compiles every file in it.
 */
function sourceWorker(workerData: ImportJobInput, transferList: ArrayBuffer[]): Worker {
  const dir = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'server', 'imports');
  const { Worker: SourceWorker } = process.getBuiltinModule('node:worker_threads');
  return new SourceWorker(path.join(dir, 'import-worker-boot.mjs'), {
    workerData: { ...workerData, entry: path.join(dir, 'import-worker.ts') },
    transferList,
  });
}

function startWorker(workerData: ImportJobInput, transferList: ArrayBuffer[]): Worker {
  if (!bundled()) return sourceWorker(workerData, transferList);
  // the options as a literal: Turbopack recognises this call as a worker entry (a chunk of its own) only so (tried)
  return new Worker(new URL('./import-worker.ts', import.meta.url), { workerData, transferList });
}

export interface ImportJobRequest {
  /** The main thread's client, to delete a dead worker's staged runs. */
  prisma: PrismaClient;
  /** The SQLite file or PostgreSQL URL the worker opens its own client on (createPrismaClient). */
  database: string;
  /** Transferred to the worker: empty for the caller afterwards. */
  bytes: ArrayBuffer;
  byteLength: number;
  importTag: string | null;
  fileName: string | null;
  now?: Date;
  ownerId: string | null;
  /** When the worker is stopped (tests); MAX_IMPORT_MS, which the slots' expiry counts on, unless given. */
  maxMs?: number;
}

/** Runs one import in a new worker thread and resolves with its result; rejects when the worker died or was stopped. */
export function runImportJob(request: ImportJobRequest): Promise<ImportJobResult> {
  const jobId = randomUUID();
  const workerData: ImportJobInput = {
    entry: null,
    database: request.database,
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
    const worker = startWorker(workerData, [request.bytes]);
    // past the longest an import may take, its slot no longer counts (acquireImportSlot): stop it, keep nothing of it
    const maxMs = request.maxMs ?? MAX_IMPORT_MS;
    const limit = setTimeout(() => {
      failure = new Error(`the import took longer than ${maxMs / 1000} s and was stopped`);
      void worker.terminate();
    }, maxMs);
    limit.unref();
    worker.once('message', (message: ImportJobResult) => {
      result = message;
    });
    worker.once('error', (error) => {
      failure = error;
    });
    worker.once('exit', (code) => {
      clearTimeout(limit);
      if (result) return resolve(result);
      // died before answering: what it staged is nobody's, delete it (a few runs per statement)
      deleteStagedImport(request.prisma, jobId)
        .catch((cleanup: unknown) => console.error('[arborist] deleting a dead import’s staged runs failed:', cleanup))
        .finally(() => reject(failure ?? new Error(`the import worker exited with code ${code} before answering`)));
    });
  });
}
