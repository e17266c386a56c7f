/**
 * The import worker thread's body: it opens its own Prisma client on the server's database (a SQLite file: WAL lets the main
 * thread read meanwhile), decodes, parses, checks, folds and writes the upload (imports.ts importBytes: staged
 * chunks, then the swap-in), posts one ImportJobResult and closes. Everything an import costs in CPU happens here,
 * so the server's event loop never waits on it. A refused file is an `input` result with the formats' message; any
 * other failure an `internal` one (the staged runs are already deleted by importBytes).
 * Not responsible for starting the thread, limits or HTTP (import-jobs.ts, http/run-files.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createPrismaClient } from '../db/client';
import { domainErrorKind } from '../core/errors';
import type { ImportJobInput, ImportJobResult } from './import-jobs';
import { importBytes } from './imports';

async function main(input: ImportJobInput): Promise<ImportJobResult> {
  const prisma = createPrismaClient(input.database);
  try {
    const { kind, runs } = await importBytes(prisma, new Uint8Array(input.bytes, 0, input.byteLength), {
      importTag: input.importTag,
      fileName: input.fileName,
      now: input.now === null ? undefined : new Date(input.now),
      jobId: input.jobId,
      ownerId: input.ownerId,
    });
    return { ok: true, kind, runs: runs.map((run) => ({ id: run.id, goal: run.goal })) };
  } catch (error) {
    const input = domainErrorKind(error) === 'input';
    return { ok: false, input, message: input ? (error as Error).message : String((error as Error).stack ?? error) };
  } finally {
    await prisma.$disconnect();
  }
}

const result = await main(workerData as ImportJobInput);
parentPort?.postMessage(result);
