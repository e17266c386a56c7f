// `npm run db:backup` and `npm run db:restore` as an operator runs them (the CLI in a child process, DATABASE_URL in its
// environment), on both databases: a backup made while a run is writing is the database as of one commit, and a
// fresh server on its restore opens every run, finishes the one that was live, and reads the others exactly as the
// source does, their comments and labels too. Refusals write nothing.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fold } from '../../engine/index';
import { listEvents } from '../run-log/index';
import { addComment, listComments, listLabels, setLabel } from '../repositories/discussion';
import { BACKENDS, createPostgresDatabase, tempDir } from '../testing/db';
import { type TestServices, createTestServices, servicesPerTest, settledGame24Run } from '../testing/services';
import type { DatabaseKind } from './backend';

const run = promisify(execFile);
const CLI = path.resolve('lib/server/db/backup-cli.ts');
const TSX = path.resolve('node_modules/.bin/tsx');

/** The CLI with DATABASE_URL set: its exit code and what it printed. */
async function cli(command: 'backup' | 'restore', databaseUrl: string, file: string) {
  const url = databaseUrl.startsWith('postgres') ? databaseUrl : `file:${databaseUrl}`;
  try {
    const { stdout, stderr } = await run(TSX, [CLI, command, file], { env: { ...process.env, DATABASE_URL: url } });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** Each run of a database with its whole log, and the tree its log folds to. */
async function runsOf(services: TestServices) {
  const rows = await services.prisma.run.findMany({ orderBy: { createdAt: 'asc' } });
  return Promise.all(
    rows.map(async (row) => {
      const events = await listEvents(services.prisma, row.id);
      return { row, events, tree: fold(events) };
    }),
  );
}

/** An empty database of `kind` for a restore, and how to drop it. */
async function emptyTarget(kind: DatabaseKind): Promise<{ url: string; drop: () => Promise<void> }> {
  if (kind === 'postgresql') return createPostgresDatabase('template0');
  return { url: path.join(tempDir('arborist-restore-'), 'restored.db'), drop: async () => {} };
}

describe.each(BACKENDS)('db:backup and db:restore (%s)', (kind) => {
  const services = servicesPerTest();

  it('backs up during a live run; a fresh server on the restore opens every run, with its comments and labels, and finishes the live one', async () => {
    const source = await services.open(kind, { resumeMode: 'auto' });
    const finishedId = await settledGame24Run(source);
    // its discussion, beside the log: a thread and a label
    const ada = { id: null, name: 'ada' };
    const first = await addComment(source.prisma, {
      runId: finishedId,
      nodeId: 'n1',
      text: 'kept by the backup?',
      replyTo: null,
      step: 3,
      author: ada,
    });
    await addComment(source.prisma, {
      runId: finishedId,
      nodeId: null,
      text: 'yes',
      replyTo: first.id,
      step: 4,
      author: ada,
    });
    await setLabel(source.prisma, {
      runId: finishedId,
      nodeId: 'n1',
      label: 'good thought',
      note: 'a note',
      step: 3,
      author: ada,
    });
    // a run that writes for about 12 s (60 nodes, a model call 200 ms long, about three at a time)
    const live = await source.manager.create({
      taskId: 'open-goal',
      goal: 'Cut the p99 latency of the checkout API',
      model: { provider: 'simulated', seed: 11, latencyMs: 200 },
      config: { maxDepth: 12, terminationConfidence: 1, confidenceThreshold: 0, maxTotalNodes: 60 },
    });
    await expect
      .poll(async () => (await listEvents(source.prisma, live.id)).length, { timeout: 20_000 })
      .toBeGreaterThan(30);

    const file = path.join(tempDir('arborist-backup-'), 'nightly', 'arborist.backup');
    const backup = await cli('backup', source.file, file);
    expect(backup.out).toContain('backed up to');
    expect(backup.code).toBe(0);
    // the backup was made while the run was still writing (else this test would prove nothing of a live backup)
    const sourceRow = await source.prisma.run.findUniqueOrThrow({ where: { id: live.id } });
    expect(['running', 'queued']).toContain(sourceRow.status);
    expect(readdirSync(path.dirname(file))).toEqual(['arborist.backup']); // one whole file, no -wal, no .partial
    // the source's logs now: each holds the backup's as its beginning
    const sourceRuns = await runsOf(source);

    const target = await emptyTarget(kind);
    try {
      const restore = await cli('restore', target.url, file);
      expect(restore.out).toContain('restored from');
      expect(restore.code).toBe(0);

      const restored = services.track(createTestServices({ resumeMode: 'auto' }, target.url));
      const atBackup = await runsOf(restored);
      expect(atBackup.map((r) => r.row.id).sort()).toEqual(sourceRuns.map((r) => r.row.id).sort());
      for (const { row, events, tree } of atBackup) {
        // one commit's state: each log gap-free from seq 1, its row's summary that of its own log
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(row.lastSeq).toBe(events.length);
        expect(row.totalNodes).toBe(tree.stats.totalNodes);
        // and the source's log up to there, event for event
        const original = sourceRuns.find((r) => r.row.id === row.id);
        expect(events).toEqual(original?.events.slice(0, events.length));
      }
      const finished = atBackup.find((r) => r.row.id === finishedId);
      expect(finished?.events).toEqual(sourceRuns.find((r) => r.row.id === finishedId)?.events);
      // and its comments and label, whole
      expect(await listComments(restored.prisma, finishedId)).toEqual(await listComments(source.prisma, finishedId));
      expect(await listLabels(restored.prisma, finishedId)).toEqual(await listLabels(source.prisma, finishedId));
      expect((await listComments(restored.prisma, finishedId)).map((c) => c.text)).toEqual([
        'kept by the backup?',
        'yes',
      ]);
      expect(await listLabels(restored.prisma, finishedId)).toMatchObject([{ label: 'good thought', note: 'a note' }]);
      const cut = atBackup.find((r) => r.row.id === live.id);
      expect(cut?.tree.status).not.toBe('finished');

      // the restored server resumes the run the backup caught mid-flight, and it ends with its log whole
      await restored.manager.recover();
      await restored.manager.settled(live.id);
      const [resumed] = (await runsOf(restored)).filter((r) => r.row.id === live.id);
      expect(resumed?.tree.status).toBe('finished');
      expect(resumed?.events.map((e) => e.seq)).toEqual(resumed?.events.map((_, i) => i + 1));
      expect(resumed?.events.some((e) => e.type === 'run.resumed')).toBe(true);
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('refuses what it must not do, and writes nothing', async () => {
    const source = await services.open(kind);
    await settledGame24Run(source);
    const dir = tempDir('arborist-backup-');
    const file = path.join(dir, 'a.backup');
    expect((await cli('backup', source.file, file)).code).toBe(0);

    // a backup never overwrites a file
    const again = await cli('backup', source.file, file);
    expect(again.code).toBe(1);
    expect(again.out).toContain('exists: a backup never overwrites a file');

    // a restore goes only into an empty database: the source itself is not
    const intoFull = await cli('restore', source.file, file);
    expect(intoFull.code).toBe(1);
    expect(intoFull.out).toMatch(/is not empty \(\d+ tables\): a restore goes into an empty database/);
    expect(await source.prisma.run.count()).toBe(1);

    // a file that is no backup, and a backup of the other kind of database
    const target = await emptyTarget(kind);
    try {
      const notes = path.join(dir, 'notes.txt');
      writeFileSync(notes, 'not a backup');
      const foreign = await cli('restore', target.url, notes);
      expect(foreign.code).toBe(1);
      expect(foreign.out).toContain('is not an Arborist backup');
      const other = kind === 'sqlite' ? await createPostgresDatabase('template0') : null;
      try {
        const otherUrl = other?.url ?? path.join(dir, 'other.db');
        const crossed = await cli('restore', otherUrl, file);
        expect(crossed.code).toBe(1);
        expect(crossed.out).toContain('restore it into the same kind');
      } finally {
        await other?.drop();
      }
      if (kind === 'sqlite') expect(existsSync(target.url)).toBe(false);
    } finally {
      await target.drop();
    }
  }, 60_000);
});
