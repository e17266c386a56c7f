// Browser tests against the production server on a test port with its own SQLite file: the local project (e2e/,
// local mode, no accounts) and the team project (e2e/team/, ARBORIST_AUTH=1 with a fixed test secret and first
// admin, on the next port with its own database), and the cluster project (e2e/cluster/: two instances on one PostgreSQL,
// which its specs start themselves).
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_PORT, findChromium, TEAM_ENV, TEAM_PORT } from './lib/harness/index';

const executablePath = findChromium();
if (!executablePath) {
  console.error(
    'e2e: no Chromium found: install one (apt-get install -y chromium) or set CHROMIUM_PATH to its binary.',
  );
  process.exit(1);
}

// E2E_PORT lets two checkouts on one machine run their browser tests at once (the team server takes the next port:
// lib/harness/team-server.ts)
export { E2E_PORT };

const NEXT_START = 'node node_modules/next/dist/bin/next start -H 127.0.0.1';

/** A fresh database per run, the real production server. */
function server(port: number, db: string, env: Record<string, string>) {
  return {
    command: `rm -f data/${db} data/${db}-wal data/${db}-shm && ${NEXT_START} -p ${port}`,
    url: `http://127.0.0.1:${port}/`,
    env: {
      DATABASE_URL: `file:./data/${db}`,
      NEXT_TELEMETRY_DISABLED: '1',
      ARBORIST_MAX_CONCURRENT_RUNS: '4',
      // quick heartbeats, so a killed ingest client's run is interrupted within seconds (e2e/sdk-*.spec.ts)
      ARBORIST_INGEST_TIMEOUT_MS: '4000',
      ARBORIST_INGEST_HEARTBEAT_MS: '1000',
      // a traced run ends 1.5 s after its root span, not 5 s (e2e/otel-traces.spec.ts)
      ARBORIST_OTEL_IDLE_MS: '1500',
      ...env,
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  };
}

export default defineConfig({
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'local',
      testDir: 'e2e',
      testIgnore: ['team/**', 'cluster/**'],
      use: { baseURL: `http://127.0.0.1:${E2E_PORT}` },
    },
    {
      name: 'team',
      testDir: 'e2e/team',
      use: { baseURL: `http://127.0.0.1:${TEAM_PORT}` },
    },
    {
      // the team server: its specs start their own PostgreSQL and instances (lib/harness), on free ports
      name: 'cluster',
      testDir: 'e2e/cluster',
    },
  ],
  webServer: [server(E2E_PORT, 'e2e.db', {}), server(TEAM_PORT, 'e2e-team.db', TEAM_ENV)],
});
