/**
 * lib/server's front door, for the server's callers only: the route handlers under app/api and instrumentation.ts
 * (the services, the tRPC router and context, the event stream, export and import), lib/trpc (`import type
 * { AppRouter }`, erased, so nothing of the server reaches the browser) and the node tools (lib/harness, benches)
 * that open a database directly. Browser code never imports it (eslint.config.mjs holds that arrow).
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions. No
 * `server-only` here: tsx scripts and vitest come through it; the route handlers carry that marker.
 */

export { createPrismaClient } from './db/client';
export { EventBus, withoutPrompt } from './run-log/index';
export { migrate } from './db/migrate';
export { eventPagesText, ndjsonBody, streamRunEventPages, streamRunEvents } from './streaming/event-stream';
export { isSecureRequest } from './auth/cookies';
export { accessErrorResponse, admit, admitToRun, mayImport } from './http/admit';
export { openShareLinkResponse } from './http/share-open';
export { exportRunResponse, importRunsResponse, MAX_IMPORT_BYTES } from './http/run-files';
export { historyResponse, logQueryOf, snapshotResponse } from './http/run-reads';
export { importRun } from './imports/imports';
export {
  ingestCommandsResponse,
  ingestCreateResponse,
  ingestEventsResponse,
  ingestFinishResponse,
  ingestHeartbeatResponse,
} from './http/ingest';
export { otlpEmptyResponse, otlpTracesResponse } from './http/otlp';
export { getServices, shutdownServices, wireServices } from './services';
export { checkHealth, type HealthReport } from './cluster/index';
export { actorFromHeader } from './auth/actor';
export { createContextInner } from './trpc/context';
export { appRouter, createCaller } from './trpc/routers/root';
export type { AppRouter } from './trpc/routers/root';
// the experiment CLI's local mode (lib/cli/experiment-local.ts) wires the services in its own process on the app's
// SQLite file, without recovering or sweeping anything, and calls the routers through createCaller as the local person
export { readEnv } from './core/env';
export { resolveDatabase } from './db/backend';
export { authSettings } from './auth/settings';
export { principalFor } from './auth/principal';
