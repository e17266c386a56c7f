// The health report on both backends: its shape, the cluster's queue depth, a draining instance, and a database that
// does not answer (reported without its password).
import { describe, expect, it } from 'vitest';
import { createPrismaClient } from '../db/client';
import { createRun } from '../run-log/run-rows';
import { sampleRunInput } from '../testing/db';
import { clusterPerTest } from '../testing/cluster';
import { servicesPerTest } from '../testing/services';
import { checkHealth } from './health';

const clusters = clusterPerTest();
const services = servicesPerTest();

const shape = {
  ok: true,
  instance: expect.any(String),
  database: { reachable: true, latencyMs: expect.any(Number) },
  queue: { depth: expect.any(Number) },
  runs: { executingHere: expect.any(Number) },
  shuttingDown: false,
};

describe('the health report', () => {
  it('on SQLite: ok, the backend, the database answering, nothing queued or executing', async () => {
    const s = services.create();
    expect(await checkHealth(s)).toEqual({
      ...shape,
      backend: 'sqlite',
      queue: { depth: 0 },
      runs: { executingHere: 0 },
    });
  });

  it("on PostgreSQL: the instance's name and the whole cluster's queued runs", async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    const b = await db.start('B');
    // a queued run written on A that nobody has claimed (no job was added for it: it waits), seen from B
    await createRun(a.prisma, { ...sampleRunInput('waiting'), status: 'queued' });
    expect(await checkHealth(b)).toEqual({ ...shape, backend: 'postgresql', instance: 'B', queue: { depth: 1 } });
  });

  it('says 503-worthy (ok false, shuttingDown) once the instance drains', async () => {
    const db = await clusters.database();
    const a = await db.start('A');
    await a.manager.shutdown();
    const report = await checkHealth(a);
    expect(report).toMatchObject({ ok: false, shuttingDown: true, database: { reachable: true } });
  });

  it('reports a database that does not answer, without the password in its error', async () => {
    const prisma = createPrismaClient('postgresql://arborist:hunter2-secret@127.0.0.1:1/nowhere');
    try {
      const report = await checkHealth({ prisma, manager: { instanceId: 'X', shuttingDown: false, executingHere: 0 } });
      expect(report).toMatchObject({ ok: false, backend: 'postgresql', database: { reachable: false } });
      expect(report.database.error).toEqual(expect.any(String));
      expect(JSON.stringify(report)).not.toContain('hunter2-secret');
    } finally {
      await prisma.$disconnect();
    }
  });
});
