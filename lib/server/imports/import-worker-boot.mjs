// The import worker's first module when the server code runs from its sources (vitest, tsx scripts; a built app
// bundles import-worker.ts into a worker chunk instead, import-jobs.ts): Node cannot load TypeScript, so tsx's loader
// is registered here, for this thread only, before the entry is imported. Not responsible for the import itself.
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(pathToFileURL(workerData.entry).href);
