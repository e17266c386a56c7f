// Unit tests live beside the code (*.test.ts); Playwright's e2e/ is kept out.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('./', import.meta.url)) } },
  test: {
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'app/**/*.test.ts'],
    // the benchmark's projects hold node:test files of their own, run only inside the sandbox
    exclude: ['node_modules', 'e2e', 'lib/tasks/code/bench/**', 'lib/sdk/dist/**'],
    environment: 'node',
    // one PostgreSQL cluster for the run: the repository and router tests run on it as well as on SQLite
    globalSetup: ['lib/server/testing/postgres-setup.ts'],
    testTimeout: 20_000,
  },
});
