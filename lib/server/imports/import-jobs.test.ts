// The import limits on real SQLite and real PostgreSQL: one import at a time per person (a row per running import,
// so every instance sees it), MAX_IMPORTS_AT_ONCE in one process, a slot past its expiry nobody's (an instance that
// died mid-import holds it no longer), and on SQLite, the one process, a slot another process left is a dead one's;
// an import past its time limit is stopped with nothing kept.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BACKENDS, sharedTestDb } from '../testing/db';
import { acquireImportSlot, type ImportSlot, MAX_IMPORT_MS, MAX_IMPORTS_AT_ONCE, runImportJob } from './import-jobs';

const SAMPLE = new URL('../../formats/fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);

const reason = (slot: ImportSlot) => (slot.ok ? 'ok' : slot.reason);

describe.each(BACKENDS)('import slots (%s)', (backend) => {
  const t = sharedTestDb(backend);

  it("refuses a person's second import until the first is released, as a row any instance sees", async () => {
    const first = await acquireImportSlot(t.prisma, 'ann', 'instance-a');
    expect(reason(first)).toBe('ok');
    expect(await t.prisma.importSlot.findMany({ select: { who: true, instanceId: true } })).toEqual([
      { who: 'ann', instanceId: 'instance-a' },
    ]);
    expect(reason(await acquireImportSlot(t.prisma, 'ann', 'instance-a'))).toBe('yours');
    if (first.ok) {
      await first.release();
      await first.release(); // a second release does nothing
    }
    expect(await t.prisma.importSlot.count()).toBe(0);
    const again = await acquireImportSlot(t.prisma, 'ann', 'instance-a');
    expect(reason(again)).toBe('ok');
    if (again.ok) await again.release();
  });

  it('five imports of one person at once: one slot is taken, the rest are told it is theirs', async () => {
    const slots = await Promise.all(Array.from({ length: 5 }, () => acquireImportSlot(t.prisma, 'ann', 'instance-a')));
    expect(slots.map(reason).sort()).toEqual(['ok', 'yours', 'yours', 'yours', 'yours']);
    for (const slot of slots) if (slot.ok) await slot.release();
  });

  it(`holds ${MAX_IMPORTS_AT_ONCE} imports at once in a process, and leaves no row for the one refused as busy`, async () => {
    const slots = await Promise.all(
      Array.from({ length: MAX_IMPORTS_AT_ONCE }, (_, i) => acquireImportSlot(t.prisma, `user-${i}`, 'instance-a')),
    );
    expect(slots.map(reason)).toEqual(slots.map(() => 'ok'));
    expect(reason(await acquireImportSlot(t.prisma, 'late', 'instance-a'))).toBe('busy');
    expect(await t.prisma.importSlot.count()).toBe(MAX_IMPORTS_AT_ONCE);
    for (const slot of slots) if (slot.ok) await slot.release();
    const late = await acquireImportSlot(t.prisma, 'late', 'instance-a');
    expect(reason(late)).toBe('ok');
    if (late.ok) await late.release();
  });

  it('a slot past its expiry (MAX_IMPORT_MS after it was taken) is nobody’s', async () => {
    const start = new Date('2026-12-07T12:00:00.000Z');
    await t.prisma.importSlot.create({
      data: {
        id: 'dead',
        who: 'ann',
        instanceId: 'gone',
        startedAt: start,
        expiresAt: new Date(start.getTime() + MAX_IMPORT_MS),
      },
    });
    if (backend === 'postgresql') {
      expect(
        reason(await acquireImportSlot(t.prisma, 'ann', 'instance-a', new Date(start.getTime() + MAX_IMPORT_MS - 1))),
      ).toBe('yours');
    }
    const taken = await acquireImportSlot(t.prisma, 'ann', 'instance-a', new Date(start.getTime() + MAX_IMPORT_MS));
    expect(reason(taken)).toBe('ok');
    if (taken.ok) await taken.release();
  });

  it(
    backend === 'sqlite'
      ? "a slot this process does not hold is a gone process's: SQLite is one process (a restart forgets, as before)"
      : 'a slot of another instance holds until it expires: that instance may be importing',
    async () => {
      const now = new Date();
      await t.prisma.importSlot.create({
        data: {
          id: 'left',
          who: 'ann',
          instanceId: 'before-restart',
          startedAt: now,
          expiresAt: new Date(now.getTime() + MAX_IMPORT_MS),
        },
      });
      const mine = await acquireImportSlot(t.prisma, 'ann', 'instance-a', now);
      expect(reason(mine)).toBe(backend === 'sqlite' ? 'ok' : 'yours');
      // one this process holds stays its person's
      expect(reason(await acquireImportSlot(t.prisma, 'ann', 'instance-a', now))).toBe('yours');
      if (mine.ok) await mine.release();
    },
  );

  it('stops an import that runs past its limit, and keeps none of its runs', async () => {
    const bytes = new Uint8Array(readFileSync(SAMPLE)).buffer;
    const job = runImportJob({
      prisma: t.prisma,
      database: t.file,
      bytes,
      byteLength: bytes.byteLength,
      importTag: null,
      fileName: null,
      ownerId: null,
      maxMs: 1,
    });
    await expect(job).rejects.toThrow('the import took longer than 0.001 s and was stopped');
    expect(await t.prisma.run.count()).toBe(0);
  });
});
