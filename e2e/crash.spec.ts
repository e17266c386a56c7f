// A server killed with SIGKILL mid-run loses nothing: started again on the same database, it continues the run
// from its event log, and the log has no gap. Runs its own server processes on their own port and database.
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { mutate, ndjson, query } from './api';
import { freePort, startServer, waitUntilUp } from '../lib/harness/index';

const DB = 'data/e2e-crash.db';
let BASE = '';
const launch = (port: number) =>
  startServer(port, { DATABASE_URL: `file:./${DB}`, ARBORIST_RESUME: 'auto', ARBORIST_DEMO: '0' });

interface Run {
  status: string;
  lastSeq: number;
}

test('a run survives SIGKILL of its server', async () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  const port = await freePort();
  BASE = `http://127.0.0.1:${port}`;
  let server = launch(port);
  try {
    await waitUntilUp(server, BASE);
    const { id } = await mutate<{ id: string }>(BASE, 'run.create', {
      taskId: 'open-goal',
      goal: 'Plan the migration of a payments service to a new database',
      config: { maxTotalNodes: 40, maxDepth: 4, terminationConfidence: 1 },
      model: { provider: 'simulated', seed: 5, latencyMs: 60 },
    });
    await expect
      .poll(async () => (await query<Run>(BASE, 'run.byId', { id })).lastSeq, { timeout: 30_000 })
      .toBeGreaterThan(40);
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const before = await (async () => {
      server = launch(port);
      await waitUntilUp(server, BASE);
      return ndjson(BASE, id);
    })();
    expect(before.length).toBeGreaterThan(40);

    await expect
      .poll(async () => (await query<Run>(BASE, 'run.byId', { id })).status, { timeout: 60_000 })
      .toBe('finished');
    const events = await ndjson(BASE, id);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1)); // no gap, no duplicate
    const resumed = events.filter((e) => e.type === 'run.resumed');
    expect(resumed).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('run.finished');
    expect(events.filter((e) => e.type === 'run.started')).toHaveLength(1);
  } finally {
    server.kill('SIGKILL');
  }
});
