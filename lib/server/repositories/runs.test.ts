/**
 * Runs against real SQLite and real PostgreSQL through real Prisma: the record mapping, pages, sorts, the search,
 * filters, patches and cascades, with the same expectations on both backends.
 */
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { emptyStats } from '../../engine/index';
import { createPrismaClient } from '../db/client';
import { migrate, readMigrations } from '../db/migrate';
import { BACKENDS, createTestDb, sampleEvents, sampleNode, sampleRunInput, sharedTestDb, tempDir } from '../testing/db';
import { appendEvents, countEvents } from '../run-log/events';
import { listNodes, upsertNodes } from '../run-log/nodes';
import type { RunRecord } from '../../contract/run';
import { findRunsByStatus, getRun, listImportTags, listRuns, summarizeRuns } from './runs';
import { addComment, deleteComment, setLabel } from './discussion';
import { createRun, deleteRun, updateRun, writeRunPatch, type RunPatch } from '../run-log/run-rows';

const ids = (runs: RunRecord[]) => runs.map((r) => r.id);

// Every repository behaviour holds on both backends, from the same expectations (the search included).
describe.each(BACKENDS)('the runs repository (%s)', (backend) => {
  const t = sharedTestDb(backend);

  describe('createRun and getRun', () => {
    it('round-trips every field, with defaults, config parsed', async () => {
      const input = sampleRunInput('r1');
      const created = await createRun(t.prisma, input);
      expect(created).toEqual({
        id: 'r1',
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
        taskId: input.taskId,
        goal: input.goal,
        modelId: input.modelId,
        modelLabel: input.modelLabel,
        modelSettings: null,
        config: input.config,
        seed: 7,
        status: 'queued',
        finishReason: null,
        startedAt: null,
        finishedAt: null,
        lastSeq: 0,
        stats: null,
        output: null,
        success: null,
        verified: null,
        bestScore: null,
        cost: 0,
        unpricedCalls: 0,
        exploredNodes: 0,
        totalNodes: 0,
        error: null,
        importTag: null,
        parentRunId: null,
        parentNodeId: null,
        ownerId: null,
        executingOn: null,
      } satisfies RunRecord);
      expect(Math.abs(created.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
      expect(await getRun(t.prisma, 'r1')).toEqual(created);
    });

    it('keeps a given creation time and fork origin', async () => {
      const createdAt = new Date('2024-05-06T07:08:09.123Z');
      const run = await createRun(
        t.prisma,
        sampleRunInput('fork', {
          createdAt,
          parentRunId: 'r0',
          parentNodeId: 'n3',
          importTag: 'x',
          seed: null,
          modelSettings: { provider: 'simulated', seed: 3, latencyMs: 0 },
        }),
      );
      expect(run).toMatchObject({ createdAt, parentRunId: 'r0', parentNodeId: 'n3', importTag: 'x', seed: null });
      expect(run.modelSettings).toEqual({ provider: 'simulated', seed: 3, latencyMs: 0 });
    });

    it('returns null for a missing run and refuses a duplicate id', async () => {
      expect(await getRun(t.prisma, 'missing')).toBeNull();
      await createRun(t.prisma, sampleRunInput('r1'));
      await expect(createRun(t.prisma, sampleRunInput('r1'))).rejects.toThrow();
    });
  });

  describe('updateRun', () => {
    it('patches fields, serialises stats, bumps updatedAt, leaves the rest', async () => {
      const before = await createRun(t.prisma, sampleRunInput('r1'));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const stats = { ...emptyStats(), totalNodes: 12, exploredNodes: 5, cost: 0.25 };
      const finishedAt = new Date('2031-01-02T03:04:05.006Z');
      const after = await updateRun(t.prisma, 'r1', {
        status: 'finished',
        finishReason: 'terminated',
        finishedAt,
        stats,
        output: '24',
        success: true,
        verified: true,
        bestScore: 0.91,
        cost: 0.25,
        exploredNodes: 5,
        totalNodes: 12,
      });
      expect(after).toEqual({
        ...before,
        updatedAt: expect.any(Date),
        status: 'finished',
        finishReason: 'terminated',
        finishedAt,
        stats,
        output: '24',
        success: true,
        verified: true,
        bestScore: 0.91,
        cost: 0.25,
        exploredNodes: 5,
        totalNodes: 12,
      });
      expect(after!.updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
      expect(await getRun(t.prisma, 'r1')).toEqual(after);

      const cleared = await updateRun(t.prisma, 'r1', {
        stats: null,
        error: 'boom',
        config: { ...before.config, maxDepth: 9 },
      });
      expect(cleared).toMatchObject({ stats: null, error: 'boom', config: { maxDepth: 9 }, output: '24' });
    });

    it('returns null for a missing run', async () => {
      expect(await updateRun(t.prisma, 'missing', { status: 'failed' })).toBeNull();
    });
  });

  describe('writeRunPatch (the write path: nothing read back)', () => {
    it('stores what updateRun stores, and bumps updatedAt', async () => {
      const createdAt = new Date('2030-05-06T07:08:09.010Z');
      const base = await createRun(t.prisma, sampleRunInput('by-orm', { createdAt }));
      await createRun(t.prisma, sampleRunInput('by-sql', { createdAt }));
      const patches: RunPatch[] = [
        {
          status: 'running',
          stats: { ...emptyStats(), totalNodes: 3 },
          exploredNodes: 1,
          totalNodes: 3,
          bestScore: 0.1 + 0.2,
        },
        {
          status: 'finished',
          finishReason: 'terminated',
          finishedAt: new Date('2031-01-02T03:04:05.006Z'),
          output: 'it\'s "24" ✓\n(10 - 4) * (13 - 9)',
          success: true,
          verified: false,
          cost: 0.25,
          unpricedCalls: 2,
        },
        { stats: null, error: 'boom', bestScore: null, config: { ...base.config, maxDepth: 9 } },
      ];
      for (const patch of patches) {
        const updated = await updateRun(t.prisma, 'by-orm', patch);
        expect(await writeRunPatch(t.prisma, 'by-sql', patch)).toBe(true);
        const written = await getRun(t.prisma, 'by-sql');
        expect({ ...written, id: 'by-orm', updatedAt: null }).toEqual({ ...updated, updatedAt: null });
        expect(written!.updatedAt.getTime()).toBeGreaterThanOrEqual(base.updatedAt.getTime());
      }
    });

    it('returns false for a missing run', async () => {
      expect(await writeRunPatch(t.prisma, 'missing', { status: 'failed' })).toBe(false);
    });
  });

  describe('listRuns', () => {
    // Runs 0..11 created a second apart, two pairs sharing a time (the id breaks the tie); alternating tasks/statuses.
    const statuses = ['finished', 'running', 'failed'] as const;
    beforeEach(async () => {
      for (let i = 0; i < 12; i++) {
        const second = i === 5 || i === 9 ? i - 1 : i;
        await createRun(
          t.prisma,
          sampleRunInput(`run-${String(i).padStart(2, '0')}`, {
            createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, second)),
            taskId: i % 2 === 0 ? 'game24' : 'open-goal',
            status: statuses[i % 3],
          }),
        );
      }
    });

    const newestFirst = Array.from({ length: 12 }, (_, i) => `run-${String(11 - i).padStart(2, '0')}`);

    it('pages newest first with a stable order and a cursor, until nextCursor is null', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await listRuns(t.prisma, { cursor, limit: 5 });
        seen.push(...ids(page.items));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen).toEqual(newestFirst);
    });

    it('a last page that is exactly full has no next cursor', async () => {
      const page = await listRuns(t.prisma, { limit: 12 });
      expect(ids(page.items)).toEqual(newestFirst);
      expect(page.nextCursor).toBeNull();
    });

    it('new runs at the top do not shift the next page', async () => {
      const first = await listRuns(t.prisma, { limit: 4 });
      await createRun(t.prisma, sampleRunInput('run-new', { createdAt: new Date(Date.UTC(2031, 0, 1)) }));
      const second = await listRuns(t.prisma, { cursor: first.nextCursor, limit: 4 });
      expect(ids(second.items)).toEqual(newestFirst.slice(4, 8));
    });

    it('filters by status (one or several) and task, and pages within the filter', async () => {
      const running = await listRuns(t.prisma, { limit: 50, status: 'running' });
      expect(ids(running.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 3 === 1));
      const done = await listRuns(t.prisma, { limit: 50, status: ['finished', 'failed'] });
      expect(ids(done.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 3 !== 1));

      const game24 = newestFirst.filter((id) => Number(id.slice(4)) % 2 === 0);
      const p1 = await listRuns(t.prisma, { limit: 4, taskId: 'game24' });
      const p2 = await listRuns(t.prisma, { limit: 4, taskId: 'game24', cursor: p1.nextCursor });
      expect([...ids(p1.items), ...ids(p2.items)]).toEqual(game24);
      expect(p2.nextCursor).toBeNull();

      const both = await listRuns(t.prisma, { limit: 50, taskId: 'open-goal', status: 'running' });
      expect(ids(both.items)).toEqual(newestFirst.filter((id) => Number(id.slice(4)) % 6 === 1));
    });

    it('an unknown cursor gives an empty last page; the limit is clamped', async () => {
      expect(await listRuns(t.prisma, { cursor: 'gone', limit: 5 })).toEqual({ items: [], nextCursor: null });
      expect((await listRuns(t.prisma, { limit: 0 })).items).toHaveLength(1);
    });
  });

  describe('findRunsByStatus', () => {
    it('finds runs in any of the statuses, oldest first', async () => {
      await createRun(t.prisma, sampleRunInput('b', { status: 'running', createdAt: new Date(2000) }));
      await createRun(t.prisma, sampleRunInput('a', { status: 'paused', createdAt: new Date(3000) }));
      await createRun(t.prisma, sampleRunInput('c', { status: 'finished', createdAt: new Date(1000) }));
      expect(ids(await findRunsByStatus(t.prisma, ['running', 'paused']))).toEqual(['b', 'a']);
      expect(await findRunsByStatus(t.prisma, [])).toEqual([]);
    });
  });

  describe('deleteRun', () => {
    it('deletes the run with its events and nodes, and nothing of other runs', async () => {
      for (const id of ['keep', 'drop']) {
        await createRun(t.prisma, sampleRunInput(id));
        await appendEvents(t.prisma, id, sampleEvents(id, 1, 30));
        await upsertNodes(t.prisma, id, [sampleNode('n0')]);
      }
      expect(await deleteRun(t.prisma, 'drop')).toBe(true);
      expect(await deleteRun(t.prisma, 'drop')).toBe(false);

      expect(await getRun(t.prisma, 'drop')).toBeNull();
      expect(await countEvents(t.prisma, 'drop')).toBe(0);
      expect(await listNodes(t.prisma, 'drop')).toEqual([]);
      expect(await countEvents(t.prisma, 'keep')).toBe(30);
      expect(await listNodes(t.prisma, 'keep')).toHaveLength(1);
    });
  });

  describe('listRuns with a search', () => {
    beforeEach(async () => {
      const runs: [string, string, string | null, string | null][] = [
        ['g1', 'Use 4 9 10 13 to make 24', '4 * (9 + 10 - 13) = 24', null],
        ['g2', 'Use 1 1 4 6 to make 24', null, 'tot-log:paper-runs.json:2025'],
        ['o1', 'Write a haiku about autumn leaves', 'Crimson leaves falling', null],
        ['o2', 'Plan a café opening in Lisbon', 'Rent first, then "soft launch"', 'arborist.run:abc'],
      ];
      for (const [i, [id, goal, output, importTag]] of runs.entries()) {
        await createRun(
          t.prisma,
          sampleRunInput(id, { goal, importTag, createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)) }),
        );
        if (output) await updateRun(t.prisma, id, { output, status: 'finished' });
      }
    });

    const search = async (q: string, more: Partial<Parameters<typeof listRuns>[1]> = {}) =>
      ids((await listRuns(t.prisma, { limit: 50, q, ...more })).items);

    it('finds runs by a word of the goal, of the output, of the import tag, and by a prefix', async () => {
      expect(await search('haiku')).toEqual(['o1']);
      expect(await search('HAIKU autumn')).toEqual(['o1']); // every word, any case
      expect(await search('haiku lisbon')).toEqual([]);
      expect(await search('crimson')).toEqual(['o1']); // output
      expect(await search('paper-runs')).toEqual(['g2']); // import tag
      expect(await search('tot-log')).toEqual(['g2']);
      expect(await search('autu')).toEqual(['o1']); // a prefix
      expect(await search('cafe')).toEqual(['o2']); // diacritics folded
      expect(await search('24')).toEqual(['g2', 'g1']); // newest first
    });

    it('cuts words at every punctuation mark and folds case and accents (a number, a hyphen, an address)', async () => {
      await createRun(
        t.prisma,
        sampleRunInput('p1', { goal: 'Weigh 4.5 kg of flour-based dough; mail ana@example.org about the ÉCLAIRS!' }),
      );
      expect(await search('5 kg')).toEqual(['p1']);
      expect(await search('based dough')).toEqual(['p1']);
      expect(await search('flour-based')).toEqual(['p1']);
      expect(await search('example org')).toEqual(['p1']);
      expect(await search('eclairs')).toEqual(['p1']);
      expect(await search('Éclair')).toEqual(['p1']);
      expect(await search('weigh ana')).toEqual(['p1']);
      expect(await search('4.5 dou')).toEqual(['p1']);
    });

    it('takes only the last word as a prefix (still being typed): the words before it are whole', async () => {
      await createRun(
        t.prisma,
        sampleRunInput('g3', { goal: '2 5 8 11', importTag: 'tot-log:x.json:2026-11-30T12:37:34.575Z' }),
      );
      await createRun(
        t.prisma,
        sampleRunInput('g4', { goal: '6 7 8 9', importTag: 'tot-log:x.json:2026-11-30T12:37:34.575Z' }),
      );
      // "2" is not the 2026 of a date, "5" not a 5xx: a game found by its numbers is that game only
      expect(await search('2 5 8 11')).toEqual(['g3']);
      expect(await search('2 5 8 1')).toEqual(['g3']); // the last one as typed so far
      expect(await search('haiku autu')).toEqual(['o1']);
      expect(await search('hai autumn')).toEqual([]);
    });

    it('keeps the index in step with the table: an output written later, an edited goal, a deleted run', async () => {
      await updateRun(t.prisma, 'g2', { output: 'Solved by sixes' });
      expect(await search('sixes')).toEqual(['g2']);
      await updateRun(t.prisma, 'o1', { goal: 'Write a limerick' });
      expect(await search('haiku')).toEqual([]);
      expect(await search('limerick')).toEqual(['o1']);
      await updateRun(t.prisma, 'o1', { status: 'failed' }); // an unsearched column leaves it alone
      expect(await search('limerick')).toEqual(['o1']);
      await deleteRun(t.prisma, 'o1');
      expect(await search('limerick')).toEqual([]);
    });

    it('treats quotes, operators and stars as text: a hostile query never errors', async () => {
      for (const q of [
        '"',
        '"soft',
        'soft"',
        'NEAR(',
        'NEAR(a b)',
        '*',
        'a*',
        'AND',
        'OR haiku',
        '-haiku',
        '^x',
        "'; DROP",
      ]) {
        await expect(search(q), q).resolves.toBeInstanceOf(Array);
      }
      expect(await search('"soft launch"')).toEqual(['o2']);
      expect(await search('OR haiku')).toEqual([]); // "or" is a word to find, not an operator
      expect(await search('*')).toEqual(['o2', 'o1', 'g2', 'g1']); // nothing to search for: every run
    });

    it('combines with the status and task filters and pages with a cursor', async () => {
      expect(await search('24', { status: 'finished' })).toEqual(['g1']);
      expect(await search('make', { taskId: 'open-goal' })).toEqual([]);
      expect(await search('use', { status: [] })).toEqual([]);
      const p1 = await listRuns(t.prisma, { limit: 1, q: 'use' });
      expect(ids(p1.items)).toEqual(['g2']);
      const p2 = await listRuns(t.prisma, { limit: 1, q: 'use', cursor: p1.nextCursor });
      expect(ids(p2.items)).toEqual(['g1']);
      expect(p2.nextCursor).toBeNull();
      expect(await listRuns(t.prisma, { limit: 1, q: 'use', cursor: 'gone' })).toEqual({ items: [], nextCursor: null });
    });

    it('returns whole records, as the unfiltered list does', async () => {
      const all = (await listRuns(t.prisma, { limit: 50 })).items.find((r) => r.id === 'o2');
      expect((await listRuns(t.prisma, { limit: 50, q: 'lisbon' })).items).toEqual([all]);
    });
  });

  describe('listRuns sorted, filtered by origin, and summarizeRuns (issue 10, item 14: the list at scale)', () => {
    // 45 imported runs (one tag) and 5 of the user's own: more than two pages of 20
    const TAG = 'tot-log:game24.json:2026-11-30T12:00:00.000Z';
    beforeEach(async () => {
      for (let i = 0; i < 50; i++) {
        const id = `r-${String(i).padStart(2, '0')}`;
        await createRun(
          t.prisma,
          sampleRunInput(id, {
            createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
            importTag: i < 45 ? TAG : null,
            status: 'finished',
          }),
        );
        // scores and costs in an order unlike creation's; every 7th run has no score; ties on cost
        await updateRun(t.prisma, id, {
          bestScore: i % 7 === 3 ? null : ((i * 37) % 50) / 50,
          cost: (i % 10) * 0.001,
          totalNodes: (i * 13) % 17,
          verified: i < 45 ? i % 3 !== 0 : null,
          unpricedCalls: i === 2 || i === 4 ? 3 : 0,
        });
      }
    });

    async function all(options: Omit<Parameters<typeof listRuns>[1], 'limit' | 'cursor'>): Promise<RunRecord[]> {
      const seen: RunRecord[] = [];
      let cursor: string | null = null;
      do {
        const page = await listRuns(t.prisma, { ...options, cursor, limit: 20 });
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor !== null);
      return seen;
    }

    it('sorts by best score over the whole list, across pages, runs with no score last', async () => {
      const runs = await all({ sort: { by: 'best', dir: 'desc' } });
      expect(runs).toHaveLength(50);
      const scores = runs.map((r) => r.bestScore ?? -1);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(runs.slice(-7).every((r) => r.bestScore === null)).toBe(true);
      expect(new Set(ids(runs)).size).toBe(50);
    });

    it('sorts by cost ascending with ties in a stable order, and by nodes', async () => {
      const runs = await all({ sort: { by: 'cost', dir: 'asc' } });
      expect(runs.map((r) => r.cost)).toEqual(runs.map((r) => r.cost).sort((a, b) => a - b));
      expect(new Set(ids(runs)).size).toBe(50);
      const byNodes = await all({ sort: { by: 'nodes', dir: 'desc' } });
      expect(byNodes.map((r) => r.totalNodes)).toEqual(byNodes.map((r) => r.totalNodes).sort((a, b) => b - a));
    });

    it('filters the user own runs (no import tag) or one import tag, sorted and paged', async () => {
      expect(ids(await all({ mine: true }))).toEqual(['r-49', 'r-48', 'r-47', 'r-46', 'r-45']);
      const imported = await all({ tag: TAG, sort: { by: 'created', dir: 'asc' } });
      expect(ids(imported)).toEqual(Array.from({ length: 45 }, (_, i) => `r-${String(i).padStart(2, '0')}`));
      expect(await all({ tag: 'tot-log:other' })).toEqual([]);
      // with a search too
      expect((await all({ tag: TAG, q: 'make' })).length).toBe(45);
    });

    it('summarizes a filter over all its runs, not a page: solved of checked, and the total cost', async () => {
      const solved = Array.from({ length: 45 }, (_, i) => i).filter((i) => i % 3 !== 0).length;
      const cost = Array.from({ length: 45 }, (_, i) => (i % 10) * 0.001).reduce((a, b) => a + b, 0);
      const summary = await summarizeRuns(t.prisma, { tag: TAG });
      expect(summary).toMatchObject({ runs: 45, checked: 45, solved, unpricedRuns: 2 });
      expect(summary.cost).toBeCloseTo(cost, 10);
      expect(await summarizeRuns(t.prisma, { mine: true })).toMatchObject({ runs: 5, checked: 0, solved: 0 });
      expect((await summarizeRuns(t.prisma, {})).runs).toBe(50);
      expect((await summarizeRuns(t.prisma, { status: 'running' })).runs).toBe(0);
    });

    it('lists the import tags with their run counts', async () => {
      expect(await listImportTags(t.prisma)).toEqual([{ tag: TAG, runs: 45 }]);
    });
  });

  describe('listRuns by label, and the discussion counts on each row (issue 34)', () => {
    const author = { id: null, name: 'ann' };
    const label = (runId: string, nodeId: string, name: string) =>
      setLabel(t.prisma, { runId, nodeId, label: name, note: null, step: 0, author });
    const comment = (runId: string, replyTo: string | null = null) =>
      addComment(t.prisma, { runId, nodeId: 'n0', text: 'why this?', replyTo, step: 0, author });

    // r-0..r-7 a second apart, each with nodes n0 and n1; s-0 a staged import's run (never listed)
    beforeEach(async () => {
      for (let i = 0; i < 8; i++) {
        const id = `r-${i}`;
        await createRun(
          t.prisma,
          sampleRunInput(id, {
            createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
            status: i === 6 ? 'running' : 'finished',
          }),
        );
        await upsertNodes(t.prisma, id, [sampleNode('n0'), sampleNode('n1')]);
      }
      await createRun(t.prisma, sampleRunInput('s-0', { importJobId: 'job-1' }));
      await upsertNodes(t.prisma, 's-0', [sampleNode('n0')]);
      await updateRun(t.prisma, 'r-1', { verified: true, cost: 0.01 });
      await updateRun(t.prisma, 'r-3', { verified: false, cost: 0.02 });
      await updateRun(t.prisma, 'r-6', { cost: 0.04, unpricedCalls: 2 });
      await updateRun(t.prisma, 'r-4', { verified: true, cost: 0.5 });
      // "evaluator wrong" on two nodes of r-1, on r-3 (beside "good thought") and on r-6; "good thought" on r-4 too
      await label('r-1', 'n0', 'evaluator wrong');
      await label('r-1', 'n1', 'evaluator wrong');
      await label('r-3', 'n1', 'evaluator wrong');
      await label('r-3', 'n0', 'good thought');
      await label('r-4', 'n0', 'good thought');
      await label('r-6', 'n0', 'evaluator wrong');
      await label('s-0', 'n0', 'evaluator wrong');
    });

    async function all(options: Omit<Parameters<typeof listRuns>[1], 'limit' | 'cursor'>): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await listRuns(t.prisma, { ...options, cursor, limit: 2 });
        seen.push(...ids(page.items));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return seen;
    }

    it('lists exactly the runs with a node carrying the label, each once, paged, sorted and with other filters', async () => {
      expect(await all({ label: 'evaluator wrong' })).toEqual(['r-6', 'r-3', 'r-1']);
      expect(await all({ label: 'good thought' })).toEqual(['r-4', 'r-3']);
      expect(await all({ label: 'evaluator wrong', sort: { by: 'cost', dir: 'asc' } })).toEqual(['r-1', 'r-3', 'r-6']);
      expect(await all({ label: 'evaluator wrong', status: 'finished' })).toEqual(['r-3', 'r-1']);
      expect(await all({ label: 'evaluator wrong', q: 'make' })).toEqual(['r-6', 'r-3', 'r-1']);
      expect(await all({ label: 'hallucinated move' })).toEqual([]);
      // a label is matched exactly, not as a prefix or in another case
      expect(await all({ label: 'evaluator' })).toEqual([]);
      expect(await all({ label: 'Evaluator wrong' })).toEqual([]);
      expect(await all({})).toHaveLength(8);
    });

    it('sums the label filter over its runs: runs, solved of checked, cost and unpriced runs', async () => {
      const summary = await summarizeRuns(t.prisma, { label: 'evaluator wrong' });
      expect(summary).toMatchObject({ runs: 3, checked: 2, solved: 1, unpricedRuns: 1 });
      expect(summary.cost).toBeCloseTo(0.07, 10);
      expect(await summarizeRuns(t.prisma, { label: 'good thought' })).toMatchObject({
        runs: 2,
        checked: 2,
        solved: 1,
      });
      expect(await summarizeRuns(t.prisma, { label: 'evaluator wrong', status: 'running' })).toMatchObject({ runs: 1 });
      expect(await summarizeRuns(t.prisma, { label: 'hallucinated move' })).toMatchObject({ runs: 0, cost: 0 });
    });

    it('gives each listed run its comment and label counts, deleted comments left out, zeros for none', async () => {
      const first = await comment('r-2');
      await comment('r-2', first.id);
      // the first of a thread with a reply stays as a tombstone: not counted
      await deleteComment(t.prisma, first.id);
      const alone = await comment('r-3');
      await deleteComment(t.prisma, alone.id);
      await comment('r-5');
      await comment('r-5');
      const counts = Object.fromEntries(
        (await listRuns(t.prisma, { limit: 50 })).items.map((run) => [run.id, run.discussion]),
      );
      expect(counts).toEqual({
        'r-0': { comments: 0, labels: 0 },
        'r-1': { comments: 0, labels: 2 },
        'r-2': { comments: 1, labels: 0 },
        'r-3': { comments: 0, labels: 2 },
        'r-4': { comments: 0, labels: 1 },
        'r-5': { comments: 2, labels: 0 },
        'r-6': { comments: 0, labels: 1 },
        'r-7': { comments: 0, labels: 0 },
      });
      // the same counts on a filtered, paged list
      const page = await listRuns(t.prisma, { label: 'good thought', limit: 1 });
      expect(page.items.map((run) => [run.id, run.discussion])).toEqual([['r-4', { comments: 0, labels: 1 }]]);
    });
  });
});

describe('the runs list search agrees on both backends', () => {
  it('finds the same runs for the same words, across scripts, accents, digits and punctuation', async () => {
    const goals = [
      'Use 4 9 10 13 to make 24',
      'Use 1 1 4 6 to make 24',
      'Plan a café opening in Lisbon',
      'PLAN A CAFE OPENING IN LYON',
      'Write a haiku about autumn leaves',
      'Résumé tips for a naïve coöperative',
      'Zürich Straße Übung',
      '東京 の 天気 weather',
      'Ελληνικά και english',
      'Weigh 4.5 kg of flour-based dough',
      'mail ana@example.org re: v1.2.3',
      'path /usr/local/bin and C:\\temp',
      'emoji 🚀 launch ✗ failed → retry',
      'under_score snake_case camelCase',
      "don't stop believin'",
    ];
    const queries = [
      'use',
      '24',
      '4',
      'make 2',
      'cafe',
      'CAFÉ op',
      'plan lis',
      'resume naive',
      'cooperative',
      'zurich',
      'strasse',
      'ubung',
      '東京',
      'weather',
      'ελληνικα',
      'english',
      'flour dough',
      '5 kg',
      'example',
      'v1',
      'usr bin',
      'temp',
      'launch',
      'retry',
      'snake',
      'camel',
      'believ',
      'nothing here',
    ];
    const results: Record<string, string[][]> = {};
    for (const backend of BACKENDS) {
      const db = await createTestDb(backend);
      try {
        for (const [i, goal] of goals.entries()) {
          await createRun(
            db.prisma,
            sampleRunInput(`g${String(i).padStart(2, '0')}`, {
              goal,
              createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, i)),
            }),
          );
        }
        results[backend] = [];
        for (const q of queries) results[backend].push(ids((await listRuns(db.prisma, { limit: 50, q })).items));
      } finally {
        await db.cleanup();
      }
    }
    expect(results.postgresql).toEqual(results.sqlite);
    // and the search is not vacuous: most queries find something, some find nothing
    expect(results.sqlite!.filter((found) => found.length > 0).length).toBeGreaterThan(20);
  });
});

// The migrations of stored SQLite files (PostgreSQL's: lib/server/db/migrate-postgres.test.ts).
describe('the runs_search migration', () => {
  it('indexes the runs stored before it', async () => {
    const dir = tempDir('arborist-fts-');
    try {
      const migrations = path.join(dir, 'migrations');
      cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
      const later = readMigrations(migrations).filter((m) => m.name >= '20261130110000_runs_search');
      for (const m of later) rmSync(path.join(migrations, m.name), { recursive: true });
      const file = path.join(dir, 'old.db');
      migrate(file, { migrationsDir: migrations });
      const raw = new Database(file);
      raw
        .prepare(
          'INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status", ' +
            '"output") VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?)',
        )
        .run('old', 'open-goal', 'An older goal about glaciers', 'm', 'm', '{}', 'finished', 'Ice moves');
      raw.close();

      cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
      expect(migrate(file, { migrationsDir: migrations }).applied).toContain('20261130110000_runs_search');
      const prisma = createPrismaClient(file);
      try {
        const found = async (q: string) => ids((await listRuns(prisma, { limit: 5, q })).items);
        expect(await found('glaciers')).toEqual(['old']);
        expect(await found('ice')).toEqual(['old']);
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the runs_list migration', () => {
  it("rewrites a stored path total as the best node's own score, and counts the unpriced calls of stored stats", async () => {
    const dir = tempDir('arborist-runs-list-');
    try {
      const migrations = path.join(dir, 'migrations');
      cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
      for (const m of readMigrations(migrations).filter((m) => m.name >= '20261130140000_runs_list'))
        rmSync(path.join(migrations, m.name), { recursive: true });
      const file = path.join(dir, 'old.db');
      migrate(file, { migrationsDir: migrations });
      const raw = new Database(file);
      const insertRun = raw.prepare(
        'INSERT INTO "Run" ("id", "updatedAt", "taskId", "goal", "modelId", "modelLabel", "config", "status", ' +
          '"bestScore", "stats") VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      insertRun.run('old', 'game24', '4 9 10 13', 'm', 'm', '{}', 'finished', 1.35, '{"unpricedCalls":7,"cost":0}');
      insertRun.run('bare', 'game24', '1 2 3 4', 'm', 'm', '{}', 'failed', null, null);
      const insertNode = raw.prepare(
        'INSERT INTO "Node" ("runId", "nodeId", "parentId", "depth", "status", "composite", "cumulativeScore", ' +
          '"createdSeq") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      insertNode.run('old', 'n0', null, 0, 'completed', null, 0, 1);
      insertNode.run('old', 'n1', 'n0', 1, 'completed', 0.6, 0.6, 2);
      insertNode.run('old', 'n2', 'n1', 2, 'completed', 0.75, 1.35, 3); // the best path's end: its own score is 0.75
      insertNode.run('old', 'n3', 'n1', 2, 'failed', 0.9, 1.5, 4); // higher, but it failed
      raw.close();

      cpSync(path.join('prisma', 'migrations'), migrations, { recursive: true });
      expect(migrate(file, { migrationsDir: migrations }).applied).toContain('20261130140000_runs_list');
      const prisma = createPrismaClient(file);
      try {
        expect(await getRun(prisma, 'old')).toMatchObject({ bestScore: 0.75, unpricedCalls: 7 });
        expect(await getRun(prisma, 'bare')).toMatchObject({ bestScore: null, unpricedCalls: 0 });
      } finally {
        await prisma.$disconnect();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
