// A worker thread's first module when the server code runs from its sources (vitest, tsx scripts; a built app
// bundles the worker into a chunk of its own instead): the import worker (import-jobs.ts) and the OTLP decode worker
// (../http/otlp-decode.ts). Node cannot load TypeScript, so tsx's loader is registered here, for this thread only,
// before `workerData.entry` is imported. Not responsible for what the worker does.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(workerData.entry).href);
