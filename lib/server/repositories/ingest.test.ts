/**
 * The ingest API's rows against real SQLite and PostgreSQL through real Prisma: a client marks its run external,
 * stored items keep their hashes by client seq across statements, and silence is measured against stored times.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, sampleRunInput, sharedTestDb } from '../testing/db';
import {
  createIngestClient,
  externalRunIds,
  getIngestClient,
  silentIngestRuns,
  storeIngestItems,
  storedItemHashes,
  touchIngestClient,
} from './ingest';
import { createRun, deleteRun } from '../run-log/run-rows';

describe.each(BACKENDS)('ingest clients and items (%s)', (backend) => {
  const t = sharedTestDb(backend);
  const t0 = new Date('2030-01-01T00:00:00.000Z');
  beforeEach(async () => {
    await createRun(t.prisma, { ...sampleRunInput('ext'), status: 'running' });
    await createRun(t.prisma, { ...sampleRunInput('own'), status: 'running' });
    await createIngestClient(t.prisma, 'ext', t0);
  });

  it('marks its run external, and only that run', async () => {
    expect(await externalRunIds(t.prisma, ['ext', 'own', 'missing'])).toEqual(new Set(['ext']));
    expect(await getIngestClient(t.prisma, 'ext')).toEqual({ runId: 'ext', lastClientSeq: 0, lastSeenAt: t0 });
    expect(await getIngestClient(t.prisma, 'own')).toBeNull();
  });

  it('stores items over several statements, moves the numbering on, and gives back their hashes by seq', async () => {
    const items = Array.from({ length: 1_203 }, (_, i) => ({ clientSeq: i + 1, hash: `h${i + 1}` }));
    const later = new Date(t0.getTime() + 1_234);
    await storeIngestItems(t.prisma, 'ext', items, later);
    expect(await getIngestClient(t.prisma, 'ext')).toEqual({ runId: 'ext', lastClientSeq: 1_203, lastSeenAt: later });
    const hashes = await storedItemHashes(t.prisma, 'ext', [1, 600, 1_203, 1_204]);
    expect(Object.fromEntries(hashes)).toEqual({ 1: 'h1', 600: 'h600', 1203: 'h1203' });
    await expect(storeIngestItems(t.prisma, 'ext', [{ clientSeq: 5, hash: 'other' }], later)).rejects.toThrow();
  });

  it('finds the runs whose client fell silent before a moment, in the given statuses, to the millisecond', async () => {
    await touchIngestClient(t.prisma, 'ext', new Date(t0.getTime() + 5));
    expect(await silentIngestRuns(t.prisma, ['running'], new Date(t0.getTime() + 5))).toEqual([]);
    expect(await silentIngestRuns(t.prisma, ['running'], new Date(t0.getTime() + 6))).toEqual([
      { runId: 'ext', lastClientSeq: 0, lastSeenAt: new Date(t0.getTime() + 5) },
    ]);
    expect(await silentIngestRuns(t.prisma, ['finished'], new Date(t0.getTime() + 6))).toEqual([]);
    await deleteRun(t.prisma, 'ext');
    expect(await getIngestClient(t.prisma, 'ext')).toBeNull();
  });
});
