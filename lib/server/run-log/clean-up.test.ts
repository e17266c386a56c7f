// What nothing refers to any more, swept on SQLite and PostgreSQL alike, clustered or not (issue 33): the staged runs
// of an import that died (older than MAX_IMPORT_MS, never a live import's), and the prompt texts no event names (a
// deleted run's, a failed import's), never one a concurrent writer is naming; at start and on a timer.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import type { TotGame } from '../../formats/index';
import { importTotLog } from '../imports/imports';
import { listRuns } from '../repositories/runs';
import { DEFAULT_MIGRATIONS_DIR, migrate, readMigrations } from '../db/migrate';
import { migratePostgres, POSTGRES_MIGRATIONS_DIR } from '../db/migrate-postgres';
import { BACKENDS, createPostgresDatabase, sampleRunInput, sharedTestDb, tempDir } from '../testing/db';
import { startLeftoverSweeps, sweepLeftovers } from './clean-up';
import { appendEvents, appendEventsInTransaction, listEvents, PROMPT_TEXT_IDLE_MS, sweepPromptTexts } from './events';
import { sweepStagedImports } from './import-writer';
import { MAX_IMPORT_MS } from '../imports/import-jobs';
import { createRun, deleteRun, deleteStagedRuns } from './run-rows';

const SAMPLE = new URL('../../formats/fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);
const sampleLog = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];

const SYSTEM = `You judge steps of a search. ${'Rules. '.repeat(60)}`;

/** A model call whose system text every run shares and whose user text is `user` (long: stored by hash). */
const call = (runId: string, seq: number, user: string): ExplorationEvent => ({
  runId,
  seq,
  ts: 1_000 + seq,
  type: 'model.called',
  payload: {
    nodeId: 'n1',
    purpose: 'evaluate',
    modelId: 'gpt-4o',
    messages: [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: user },
    ],
    response: '{"confidence": 0.5}',
    error: null,
    usage: { inputTokens: 10, outputTokens: 2 },
    cost: 0.001,
    latencyMs: 5,
  },
});
const own = (runId: string) => `Only ${runId} asks this. ${'A step of its own. '.repeat(20)}`;

const later = (ms: number) => new Date(Date.now() + ms + 1_000);

describe.each(BACKENDS)('clean-up (%s)', (backend) => {
  const t = sharedTestDb(backend);
  const visible = async () => (await listRuns(t.prisma, { limit: 50 })).items.length;

  describe('staged imports', () => {
    it("never sweeps a live import's young staged runs, while it writes them chunk after chunk", async () => {
      const swept: number[] = [];
      const runs = await importTotLog(t.prisma, sampleLog(), {
        jobId: 'live',
        chunkRows: 20,
        afterChunk: async () => {
          swept.push((await sweepLeftovers(t.prisma, { maxImportMs: MAX_IMPORT_MS })).stagedRuns);
        },
      });
      expect(swept.length).toBeGreaterThan(10);
      expect(swept.every((n) => n === 0)).toBe(true);
      expect(runs).toHaveLength(5);
      expect(await visible()).toBe(5);
    });

    it('sweeps the staged runs of an import that died once they are older than MAX_IMPORT_MS, and nothing else', async () => {
      await importTotLog(t.prisma, sampleLog(), { jobId: 'kept' });
      await importTotLog(t.prisma, sampleLog(), { jobId: 'dead' });
      // as if its instance died before the swap-in: its runs staged again
      const dead = (await listRuns(t.prisma, { limit: 50 })).items.slice(0, 5).map((run) => run.id);
      await t.prisma.run.updateMany({ where: { id: { in: dead } }, data: { importJobId: 'dead' } });
      expect(await sweepStagedImports(t.prisma, MAX_IMPORT_MS)).toBe(0);
      expect(await sweepStagedImports(t.prisma, MAX_IMPORT_MS, later(MAX_IMPORT_MS - 60_000))).toBe(0);
      expect(await sweepStagedImports(t.prisma, MAX_IMPORT_MS, later(MAX_IMPORT_MS))).toBe(5);
      expect(await visible()).toBe(5);
      expect(await t.prisma.run.count()).toBe(5);
    });

    it('a swap-in that a sweep raced (one of its runs gone) makes none of them visible', async () => {
      // how many chunks this file takes, so the race can come after the last one, right before the swap-in
      let chunks = 0;
      await importTotLog(t.prisma, sampleLog(), { chunkRows: 20, afterChunk: async () => void chunks++ });
      const before = await t.prisma.run.count();
      let seen = 0;
      await expect(
        importTotLog(t.prisma, sampleLog(), {
          jobId: 'raced',
          chunkRows: 20,
          afterChunk: async () => {
            if (++seen !== chunks) return;
            const [first] = await t.prisma.run.findMany({ where: { importJobId: 'raced' }, select: { id: true } });
            await deleteRun(t.prisma, first!.id);
          },
        }),
      ).rejects.toThrow(/1 of its 5 staged runs were swept before the swap-in/);
      expect(await t.prisma.run.count()).toBe(before);
    });
  });

  describe('prompt texts', () => {
    async function twoRuns() {
      for (const id of ['run-a', 'run-b']) {
        await createRun(t.prisma, sampleRunInput(id));
        await appendEvents(t.prisma, id, [call(id, 1, own(id))]);
      }
      // the shared system text, and each run's own text
      expect(await t.prisma.promptText.count()).toBe(3);
    }

    it("sweeps a deleted run's own texts, keeps those another run still names", async () => {
      await twoRuns();
      // all named: nothing goes, however old
      expect(await sweepPromptTexts(t.prisma, later(PROMPT_TEXT_IDLE_MS))).toBe(0);
      await deleteRun(t.prisma, 'run-a');
      // unnamed but recently used: kept a while (a writer may be naming it in a transaction not yet committed)
      expect(await sweepPromptTexts(t.prisma)).toBe(0);
      expect(await sweepPromptTexts(t.prisma, later(PROMPT_TEXT_IDLE_MS))).toBe(1);
      expect(await t.prisma.promptText.count()).toBe(2);
      expect(await listEvents(t.prisma, 'run-b')).toEqual([call('run-b', 1, own('run-b'))]);
    });

    it('sweeps the texts of an import that failed (its staged runs deleted)', async () => {
      await twoRuns();
      await createRun(t.prisma, sampleRunInput('staged', { importJobId: 'failed' }));
      await appendEvents(t.prisma, 'staged', [call('staged', 1, own('staged'))]);
      expect(await t.prisma.promptText.count()).toBe(4);
      await deleteStagedRuns(t.prisma, 'failed');
      expect(
        (await sweepLeftovers(t.prisma, { maxImportMs: MAX_IMPORT_MS, now: later(PROMPT_TEXT_IDLE_MS) })).promptTexts,
      ).toBe(1);
      expect(await t.prisma.promptText.count()).toBe(3);
    });

    it('a text left unnamed long ago and named again by a new run is kept', async () => {
      await twoRuns();
      await deleteRun(t.prisma, 'run-a');
      await t.prisma.promptText.updateMany({ data: { usedAt: new Date('2026-01-01T00:00:00Z') } });
      await createRun(t.prisma, sampleRunInput('run-c'));
      await appendEvents(t.prisma, 'run-c', [call('run-c', 1, own('run-a'))]);
      expect(await sweepPromptTexts(t.prisma)).toBe(0);
      expect(await listEvents(t.prisma, 'run-c')).toEqual([call('run-c', 1, own('run-a'))]);
    });
  });

  it.each([true, false])(
    'at start, as the only process (%s), sweeps every staged run, young ones too; else only old ones',
    async (soleProcess) => {
      await importTotLog(t.prisma, sampleLog(), { jobId: 'killed' });
      // as if a kill -9 had cut the import a moment ago
      await t.prisma.run.updateMany({ data: { importJobId: 'killed' } });
      const sweeper = startLeftoverSweeps({
        prisma: t.prisma,
        maxImportMs: MAX_IMPORT_MS,
        soleProcess,
        log: { info: () => {}, warn: () => {} },
      });
      await sweeper.first;
      await sweeper.stop();
      expect(await t.prisma.run.count()).toBe(soleProcess ? 0 : 5);
    },
  );

  it('sweeps at start and then on its timer, unreferenced, until stopped', async () => {
    await importTotLog(t.prisma, sampleLog(), { jobId: 'dead' });
    const old = new Date(Date.now() - MAX_IMPORT_MS - 60_000);
    await t.prisma.run.updateMany({ data: { importJobId: 'dead', updatedAt: old } });
    const sweeps: number[] = [];
    const sweeper = startLeftoverSweeps({
      prisma: t.prisma,
      maxImportMs: MAX_IMPORT_MS,
      everyMs: 20,
      log: { info: () => {}, warn: () => {} },
      onSwept: (counts) => sweeps.push(counts.stagedRuns),
    });
    expect(sweeper.timer.hasRef()).toBe(false);
    await sweeper.first;
    expect(sweeps).toEqual([5]);
    await expect.poll(() => sweeps.length, { timeout: 5_000 }).toBeGreaterThan(2);
    expect(await t.prisma.run.count()).toBe(0);
    await sweeper.stop();
    const stopped = sweeps.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sweeps.length).toBe(stopped);
  });
});

// PostgreSQL's writers run side by side with the sweep: a writer naming an old unnamed text in a transaction not yet
// committed must not lose it to a sweep that cannot see that transaction's rows.
describe('prompt texts against a concurrent writer (postgresql)', () => {
  const t = sharedTestDb('postgresql');

  it('a sweep waits for a writer naming an old text, then keeps it', async () => {
    await createRun(t.prisma, sampleRunInput('run-a'));
    await appendEvents(t.prisma, 'run-a', [call('run-a', 1, own('run-a'))]);
    await deleteRun(t.prisma, 'run-a');
    await t.prisma.promptText.updateMany({ data: { usedAt: new Date('2026-01-01T00:00:00Z') } });
    await createRun(t.prisma, sampleRunInput('run-b'));
    // the writer's transaction (one connection of the pool) names the old text; the sweep runs on another
    let swept: Promise<number> | null = null;
    await t.prisma.$transaction(async (tx) => {
      await appendEventsInTransaction(tx, 'run-b', [call('run-b', 1, own('run-a'))]);
      swept = sweepPromptTexts(t.prisma);
      // the sweep cannot finish while the writer holds the texts it refreshed
      const early = await Promise.race([swept, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
      expect(early).toBe('waiting');
    });
    expect(await swept).toBe(0);
    expect(await t.prisma.promptText.count()).toBe(2);
    expect(await listEvents(t.prisma, 'run-b')).toEqual([call('run-b', 1, own('run-a'))]);
  });
});

// Runs stored before PromptUse existed: the migration reads their uses from the stored payloads, so their texts are
// never taken for unnamed ones.
describe('the migration that brings PromptUse', () => {
  const MIGRATION = '20261207100000_prompt_uses';
  const SYSTEM_HASH = 'ab'.repeat(32);
  /** A stored model.called as events.ts writes it: a long block by its hash, a short one inline. */
  const payload = JSON.stringify({
    messages: [
      { role: 'system', blocks: [{ sha256: SYSTEM_HASH }, 'short\n\n'] },
      { role: 'user', content: 'short' },
    ],
  });
  const before = (from: string) => {
    const dir = tempDir('arborist-clean-up-migrations-');
    const copy = path.join(dir, 'migrations');
    cpSync(from, copy, { recursive: true });
    for (const m of readMigrations(copy)) if (m.name >= MIGRATION) rmSync(path.join(copy, m.name), { recursive: true });
    return { copy, remove: () => rmSync(dir, { recursive: true, force: true }) };
  };
  /** A stored payload quoted in a message (its quotes escaped there), naming another hash: no use of that one. */
  const quoted = payload.replace(SYSTEM_HASH, 'ef'.repeat(32));
  const rows = [
    `INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status") VALUES ('old', 0, 't', 'g', 'm', 'm', '{}', 'finished')`,
    `INSERT INTO "PromptText" ("hash", "content") VALUES ('${SYSTEM_HASH}', 'a long text'), ('${'cd'.repeat(32)}', 'no one')`,
  ];

  it('on SQLite', () => {
    const dir = tempDir('arborist-clean-up-db-');
    const file = path.join(dir, 'old.db');
    const migrations = before(DEFAULT_MIGRATIONS_DIR);
    try {
      migrate(file, { migrationsDir: migrations.copy });
      const db = new Database(file);
      for (const sql of rows) db.exec(sql);
      const insert = db.prepare(
        `INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES ('old', ?, 'model.called', ?, ?)`,
      );
      insert.run(1, payload, 1);
      insert.run(2, JSON.stringify({ messages: [{ role: 'user', content: `a \u0000 in it, and ${quoted}` }] }), 2);
      db.close();
      expect(migrate(file).applied).toContain(MIGRATION);
      const after = new Database(file, { readonly: true });
      expect(after.prepare('SELECT "runId", "hash" FROM "PromptUse"').all()).toEqual([
        { runId: 'old', hash: SYSTEM_HASH },
      ]);
      const used = after.prepare('SELECT "usedAt" FROM "PromptText"').all() as { usedAt: number }[];
      after.close();
      // unix ms, as the adapter stores DateTime
      expect(used.every((row) => Math.abs(row.usedAt - Date.now()) < 60_000)).toBe(true);
    } finally {
      migrations.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on PostgreSQL', async () => {
    const database = await createPostgresDatabase('template0');
    const migrations = before(POSTGRES_MIGRATIONS_DIR);
    const client = new Client({ connectionString: database.url });
    try {
      await migratePostgres(database.url, { migrationsDir: migrations.copy });
      await client.connect();
      for (const sql of rows) await client.query(sql.replace(`VALUES ('old', 0,`, `VALUES ('old', now(),`));
      await client.query(
        `INSERT INTO "Event" ("runId", "seq", "type", "payload", "ts") VALUES ('old', 1, 'model.called', $1, 1), ('old', 2, 'model.called', $2, 2)`,
        // a \u0000, which PostgreSQL's JSON functions refuse, and a stored payload quoted in a message: no use of it
        [payload, JSON.stringify({ messages: [{ role: 'user', content: `a \u0000 in it, and ${quoted}` }] })],
      );
      expect((await migratePostgres(database.url)).applied).toContain(MIGRATION);
      const uses = await client.query('SELECT "runId", "hash" FROM "PromptUse"');
      expect(uses.rows).toEqual([{ runId: 'old', hash: SYSTEM_HASH }]);
    } finally {
      await client.end();
      migrations.remove();
      await database.drop();
    }
  });
});
