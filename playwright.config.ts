// Browser tests (e2e/) against the production server on a test port with its own SQLite file.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './lib/harness/index';

const executablePath = findChromium();
if (!executablePath) {
  console.error(
    'e2e: no Chromium found: install one (apt-get install -y chromium) or set CHROMIUM_PATH to its binary.',
  );
  process.exit(1);
}

// E2E_PORT lets two checkouts on one machine run their browser tests at once
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  webServer: {
    // a fresh database per run, the real production server
    command: `rm -f data/e2e.db data/e2e.db-wal data/e2e.db-shm && node node_modules/next/dist/bin/next start -H 127.0.0.1 -p ${E2E_PORT}`,
    url: `http://127.0.0.1:${E2E_PORT}/`,
    env: { DATABASE_URL: 'file:./data/e2e.db', NEXT_TELEMETRY_DISABLED: '1', ARBORIST_MAX_CONCURRENT_RUNS: '4' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
