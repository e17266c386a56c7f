// A server killed with SIGKILL mid-run loses nothing: started again on the same database, it continues the run
// from its event log, and the log has no gap. Runs its own server processes on their own port and database.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect, test } from '@playwright/test';
import { mutate, ndjson, query } from './api';

const DB = 'data/e2e-crash.db';
let PORT = 0;
let BASE = '';

/** A port nobody listens on now, so a second copy of this test (or anything else) cannot answer for our server. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function startServer(): ChildProcess {
  // node runs next directly, so the PID we kill is the server itself (no npx wrapper left orphaned)
  return spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(PORT), '-H', '127.0.0.1'], {
    env: {
      ...process.env,
      DATABASE_URL: `file:./${DB}`,
      ARBORIST_RESUME: 'auto',
      ARBORIST_DEMO: '0',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: 'ignore',
  });
}

async function waitUntilUp(server: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${BASE}/`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

interface Run {
  status: string;
  lastSeq: number;
}

test('a run survives SIGKILL of its server', async () => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
  PORT = await freePort();
  BASE = `http://127.0.0.1:${PORT}`;
  let server = startServer();
  try {
    await waitUntilUp(server);
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
      server = startServer();
      await waitUntilUp(server);
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
