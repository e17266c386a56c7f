/**
 * The OTLP decode worker thread's body: one large export body (transferred, not copied) decoded against the schema,
 * its spans posted back, so the server's event loop never spends seconds in protobufjs for one request. A body that
 * is not OTLP posts its reason.
 * Not responsible for starting the thread or deciding which bodies come here (otlp-decode.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeTraces, OtlpDecodeError } from '../../formats/index';
import type { DecodeJobInput, DecodeJobResult } from './otlp-decode';

function decode(input: DecodeJobInput): DecodeJobResult {
  try {
    return { ok: true, decoded: decodeTraces(new Uint8Array(input.bytes, 0, input.byteLength), input.encoding) };
  } catch (error) {
    if (error instanceof OtlpDecodeError) return { ok: false, notOtlp: true, message: error.message };
    return { ok: false, notOtlp: false, message: String((error as Error).stack ?? error) };
  }
}

parentPort?.postMessage(decode(workerData as DecodeJobInput));
