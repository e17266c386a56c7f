/**
 * An OTLP export body decoded without holding the event loop: a small body (an SDK's batch of 512 spans is ~130 KiB,
 * ~10 ms) on this thread; a large one (up to the 16 MiB cap: ~64,000 spans, ~3 s of protobufjs and normalisation,
 * `npm run bench:otel`) in a worker thread of its own, at most MAX_DECODE_WORKERS at once (past them the request is
 * shed with 429, as the receiver sheds load). The worker is loaded as import-jobs.ts loads the import worker: bundled,
 * `new Worker(new URL(...))` (a Turbopack worker chunk); from the sources, the shared tsx boot file.
 * Not responsible for HTTP answers (otlp.ts) or what the spans mean (lib/formats/otlp).
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type DecodedTraces, decodeTraces, type OtlpEncoding, OtlpDecodeError } from '../../formats/index';
import { TraceBackpressure } from '../otel/index';

/** Bodies at least this large are decoded in a worker. */
export const WORKER_DECODE_BYTES = 1024 * 1024;
/** Large bodies decoded at once, each in its own thread (the machine's cores are the app's too). */
const MAX_DECODE_WORKERS = 2;

export interface DecodeJobInput {
  /** The worker's TypeScript entry, for the tsx boot file (from the sources only; null when bundled). */
  entry: string | null;
  encoding: OtlpEncoding;
  bytes: ArrayBuffer;
  byteLength: number;
}

export type DecodeJobResult = { ok: true; decoded: DecodedTraces } | { ok: false; notOtlp: boolean; message: string };

let running = 0;

/** True inside Next's server, where this module is bundled (import-jobs.ts says why not import.meta.url). */
const bundled = () => process.env.NEXT_RUNTIME === 'nodejs';

/** From the sources: the worker through the tsx boot file (import-jobs.ts says why node:worker_threads is fetched so). */
function sourceWorker(workerData: DecodeJobInput, transferList: ArrayBuffer[]): Worker {
  const server = path.join(/* turbopackIgnore: true */ process.cwd(), 'lib', 'server');
  const { Worker: SourceWorker } = process.getBuiltinModule('node:worker_threads');
  return new SourceWorker(path.join(server, 'imports', 'import-worker-boot.mjs'), {
    workerData: { ...workerData, entry: path.join(server, 'http', 'otlp-decode-worker.ts') },
    transferList,
  });
}

function startWorker(workerData: DecodeJobInput, transferList: ArrayBuffer[]): Worker {
  if (!bundled()) return sourceWorker(workerData, transferList);
  // the options as a literal: Turbopack recognises the call as a worker entry only so (import-jobs.ts)
  return new Worker(new URL('./otlp-decode-worker.ts', import.meta.url), { workerData, transferList });
}

function decodeInWorker(bytes: Uint8Array, encoding: OtlpEncoding): Promise<DecodedTraces> {
  // a copy of its own to transfer (the body's buffer may be a pooled slab other bytes live in)
  const owned = new Uint8Array(bytes).buffer;
  const input: DecodeJobInput = { entry: null, encoding, bytes: owned, byteLength: bytes.byteLength };
  return new Promise<DecodedTraces>((resolve, reject) => {
    let result: DecodeJobResult | null = null;
    const worker = startWorker(input, [owned]);
    worker.once('message', (message: DecodeJobResult) => {
      result = message;
    });
    worker.once('error', reject);
    worker.once('exit', () => {
      if (result === null) return reject(new Error('the OTLP decode worker exited without an answer'));
      if (result.ok) resolve(result.decoded);
      else reject(result.notOtlp ? new OtlpDecodeError(result.message) : new Error(result.message));
    });
  });
}

/** The body's spans; a large body's decoded in a worker, past MAX_DECODE_WORKERS at once refused (429). */
export async function decodeOtlp(bytes: Uint8Array, encoding: OtlpEncoding): Promise<DecodedTraces> {
  if (bytes.byteLength < WORKER_DECODE_BYTES) return decodeTraces(bytes, encoding);
  if (running >= MAX_DECODE_WORKERS) throw new TraceBackpressure(1);
  running += 1;
  try {
    return await decodeInWorker(bytes, encoding);
  } finally {
    running -= 1;
  }
}
