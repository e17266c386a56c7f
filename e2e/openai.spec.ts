// Real models (issue 6) in the browser: a run started from the form on an OpenAI-compatible backend, here the
// test's own local server speaking OpenAI's wire format. The app runs on its own port with OPENAI_BASE_URL and a
// key pointing at it; the key must reach that server and nothing the browser can fetch.
// data-testid used: field-provider, field-model, run-status, run-header.
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { game24Handler } from '../lib/tasks/testing/game24-openai';
import { startFakeOpenAI } from '../lib/models/testing';
import { ndjson } from './api';
import { freePort, startServer, waitUntilUp } from '../lib/harness/index';

const KEY = 'sk-test-SECRET-e2e-7319';
const DB = 'data/e2e-openai.db';

test('a run on a configured OpenAI-compatible server, started from the form, keeps the key on the server', async ({
  page,
}) => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  const fake = await startFakeOpenAI(game24Handler(7));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(port, {
    DATABASE_URL: `file:./${DB}`,
    ARBORIST_DEMO: '0',
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: fake.baseURL,
    ARBORIST_DEFAULT_MODEL: 'gpt-4o-mini',
  });
  try {
    await waitUntilUp(server, base);
    await page.goto(`${base}/`);
    await page.getByTestId('field-provider').selectOption('openai');
    await expect(page.getByTestId('field-model')).toHaveValue('gpt-4o-mini');
    await page.getByRole('button', { name: 'Start run' }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]+$/);
    const id = new URL(page.url()).pathname.split('/').at(-1) as string;
    await expect(page.getByTestId('run-status')).toHaveText('finished', { timeout: 60_000 });
    await expect(page.getByTestId('run-header')).toContainText('gpt-4o-mini');

    // every call went over HTTP to the fake server, with the server's key
    expect(fake.requests.length).toBeGreaterThan(3);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    const events = await ndjson(base, id);
    const calls = events.filter((e) => e.type === 'model.called');
    expect(calls.length).toBe(fake.requests.length);
    expect(calls.every((e) => e.payload.modelId === 'gpt-4o-mini' && (e.payload.cost ?? 0) > 0)).toBe(true);

    // the key is in nothing the browser can fetch: the page, the log, the export, the run, the backends
    const fetched = await Promise.all(
      [
        `/runs/${id}`,
        `/api/runs/${id}/events.ndjson`,
        `/api/runs/${id}/export`,
        `/api/trpc/run.byId?input=${encodeURIComponent(JSON.stringify({ json: { id } }))}`,
        `/api/trpc/backend.list`,
      ].map(async (path) => (await fetch(`${base}${path}`)).text()),
    );
    for (const body of [...fetched, await page.content()]) expect(body).not.toContain(KEY);
    expect(fetched[4]).toContain('"configured":true');
  } finally {
    server.kill('SIGKILL');
    await fake.close();
  }
});
