// The test databases themselves: each backend gives a fresh, migrated, empty database that Prisma can write to.
import { describe, expect, it } from 'vitest';
import { databaseKindOf } from '../db/client';
import { BACKENDS, createTestDb, sampleRunInput } from './db';
import { getRun } from '../repositories/runs';
import { createRun } from '../run-log/run-rows';

describe.each(BACKENDS)('a test database (%s)', (backend) => {
  it('starts empty, takes a run and reads it back', async () => {
    const db = await createTestDb(backend);
    try {
      expect(databaseKindOf(db.prisma)).toBe(backend);
      expect(await db.prisma.run.count()).toBe(0);
      await createRun(db.prisma, { ...sampleRunInput('r1'), status: 'queued' });
      expect((await getRun(db.prisma, 'r1'))?.goal).toBe('Use 4 9 10 13 to make 24');
    } finally {
      await db.cleanup();
    }
  });
});
