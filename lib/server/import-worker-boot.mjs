// The import worker's first module (import-jobs.ts starts it as a worker thread): Node cannot load TypeScript, and
// the app is bundled by Next, so the worker's code is run from the sources through tsx's loader (the same tsx that
// `npm start` runs on), registered here for this thread only. Not responsible for the import (import-worker.ts).
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(workerData.entry).href);
