// A server killed with SIGKILL loses nothing: started again on the same database, it continues a run cut mid-way
// from its event log (the log has no gap), and an import cut mid-way is gone whole (nothing of it half-stored, the
// runs before it untouched). Runs its own server processes on their own port and database.
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { mutate, ndjson, query } from './api';
import { bigTotLog, freePort, startServer, waitUntilUp } from '../lib/harness/index';

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

test('an import cut by SIGKILL mid-way is gone whole after the restart, and the runs before it are untouched', async () => {
  const db = 'data/e2e-crash-import.db';
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const start = () => startServer(port, { DATABASE_URL: `file:./${db}`, ARBORIST_DEMO: '0' });
  let server = start();
  try {
    await waitUntilUp(server, base);
    const { id } = await mutate<{ id: string }>(base, 'run.create', {
      taskId: 'game24',
      goal: '4 9 10 13',
      model: { provider: 'simulated', seed: 3, latencyMs: 0 },
    });
    await expect.poll(async () => (await query<Run>(base, 'run.byId', { id })).status).toBe('finished');
    const before = await ndjson(base, id);

    // a log of ~2,000 games: written in many chunks, so there is a moment when some are staged and the rest not
    const upload = fetch(`${base}/api/runs/import?tag=cut`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bigTotLog(20),
    }).catch(() => null); // the server dies under it
    const file = new Database(db, { readonly: true, fileMustExist: true });
    const staged = () =>
      (file.prepare('SELECT COUNT(*) AS n FROM "Run" WHERE "importJobId" IS NOT NULL').get() as { n: number }).n;
    try {
      await expect.poll(staged, { timeout: 60_000, intervals: [20] }).toBeGreaterThan(0);
      server.kill('SIGKILL');
      await new Promise((resolve) => server.once('exit', resolve));
    } finally {
      file.close();
    }
    await upload;

    server = start();
    await waitUntilUp(server, base);
    const runs = (await query<{ items: { id: string }[] }>(base, 'run.list', { limit: 200 })).items;
    expect(runs.map((r) => r.id)).toEqual([id]);
    const after = new Database(db, { readonly: true, fileMustExist: true });
    try {
      const count = (sql: string, ...params: string[]) => (after.prepare(sql).get(...params) as { n: number }).n;
      expect(count('SELECT COUNT(*) AS n FROM "Run"')).toBe(1);
      // nothing of the cut import is left: no staged row, no event or node of a run that is not there
      expect(count('SELECT COUNT(*) AS n FROM "Event" WHERE "runId" <> ?', id)).toBe(0);
      expect(count('SELECT COUNT(*) AS n FROM "Node" WHERE "runId" <> ?', id)).toBe(0);
    } finally {
      after.close();
    }
    expect(await ndjson(base, id)).toEqual(before);
  } finally {
    server.kill('SIGKILL');
  }
});

interface ExperimentProgress {
  status: string;
  progress: { done: number; total: number };
  cells: { item: number; configuration: number; runId: string | null; outcome: string; costUsd: number }[];
}

test('an experiment cut by SIGKILL keeps every finished cell and runs the rest after the restart', async () => {
  const db = 'data/e2e-crash-experiment.db';
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const start = () =>
    startServer(port, {
      DATABASE_URL: `file:./${db}`,
      ARBORIST_DEMO: '0',
      ARBORIST_RESUME: 'auto',
      ARBORIST_MAX_CONCURRENT_RUNS: '2',
    });
  let server = start();
  try {
    await waitUntilUp(server, base);
    const { id } = await mutate<{ id: string }>(base, 'experiment.create', {
      taskId: 'game24',
      items: ['4 9 10 13', '1 1 4 6', '2 7 8 8', '1 2 3 4', '3 3 8 8', '1 5 5 5'],
      configurations: [
        { label: 'beam 1', config: { beamWidth: 1 }, model: { provider: 'simulated', seed: 1, latencyMs: 40 } },
        { label: 'beam 3', config: { beamWidth: 3 }, model: { provider: 'simulated', seed: 1, latencyMs: 40 } },
      ],
    });
    const view = () => query<ExperimentProgress>(base, 'experiment.byId', { id });
    await expect.poll(async () => (await view()).progress.done, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));

    // what the file holds at the kill, read without a server: the cells whose runs had finished
    const file = new Database(db, { readonly: true });
    const finishedBefore = file
      .prepare(
        `SELECT c."item", c."configuration", c."runId", r."cost" FROM "ExperimentCell" c JOIN "Run" r ON r."id" = c."runId"
         WHERE c."experimentId" = ? AND r."status" = 'finished'`,
      )
      .all(id) as { item: number; configuration: number; runId: string; cost: number }[];
    file.close();
    expect(finishedBefore.length).toBeGreaterThanOrEqual(3);
    expect(finishedBefore.length).toBeLessThan(12);

    server = start();
    await waitUntilUp(server, base);
    await expect.poll(async () => (await view()).status, { timeout: 90_000 }).toBe('finished');
    const after = await view();
    expect(after.progress).toMatchObject({ done: 12, total: 12 });
    expect(after.cells.every((c) => c.outcome === 'solved' || c.outcome === 'failed')).toBe(true);
    expect(new Set(after.cells.map((c) => c.runId)).size).toBe(12); // one run per cell, none started twice
    for (const cell of finishedBefore) {
      const now = after.cells.find((c) => c.item === cell.item && c.configuration === cell.configuration)!;
      expect(now.runId).toBe(cell.runId);
      expect(now.costUsd).toBe(cell.cost);
    }
    // the runs cut mid-search resumed from their logs: no gap, one run.finished each
    for (const cell of after.cells) {
      const events = await ndjson(base, cell.runId!);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => e.type === 'run.finished')).toHaveLength(1);
    }
  } finally {
    server.kill('SIGKILL');
  }
});
