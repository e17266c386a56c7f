/**
 * lib/harness' front door: what e2e, the benches and playwright.config.ts share, finding Chromium and recording a
 * run into a server's database, starting a production server and a throwaway PostgreSQL, the team-mode test server's
 * settings. Node-only tools, never imported by the app.
 * Not responsible for anything itself: it names what is public; the room's files hold the definitions.
 */

export { bigTotLog } from './big-logs';
export { CHROMIUM_ARGS, findChromium } from './chromium';
export { BENCH_GOAL, exportFile, recordRun, searchEvents } from './recorded-runs';
export type { StoredRun } from './recorded-runs';
export { PG_BIN, startPostgres } from './postgres';
export type { PostgresCluster } from './postgres';
export { ensureBuild, freePort, startBenchServer, startServer, waitUntilUp } from './server';
export type { BenchServer } from './server';
export { E2E_PORT, TEAM_ADMIN, TEAM_BASE, TEAM_ENV, TEAM_PORT } from './team-server';
