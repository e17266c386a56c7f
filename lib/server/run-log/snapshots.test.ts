/** Stored snapshots against real SQLite and PostgreSQL: the latest tree equals the fold of the log, stored when missing or behind. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { createEmptyTree, fold, TREE_FORMAT } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import { createSimulatedModel, getTaskEntry } from '../../tasks/index';
import { BACKENDS, sampleRunInput, sharedTestDb } from '../testing/db';
import { appendEvents } from './events';
import { createRun } from './run-rows';
import { SNAPSHOT_EVERY, latestTreeText, saveSnapshot } from './snapshots';

describe.each(BACKENDS)('stored snapshots (%s)', (backend) => {
  const t = sharedTestDb(backend);
  let events: ExplorationEvent[];
  beforeEach(async () => {
    await createRun(t.prisma, sampleRunInput('run-a'));
    events = [];
    await new ThoughtTreeExecutor({ maxTotalNodes: 400, terminationConfidence: 1 }).explore(
      { name: 't', model: createSimulatedModel({ seed: 2 }) },
      'Plan a migration of a monolith to services',
      { runId: 'run-a', task: getTaskEntry('open-goal').task, onEvent: (e) => events.push(e) },
    );
  });

  const stored = () => t.prisma.runSnapshot.findUnique({ where: { runId: 'run-a' }, select: { seq: true } });
  const foldTo = (seq: number) => JSON.parse(JSON.stringify(fold(events.slice(0, seq), createEmptyTree('run-a'))));

  describe('latestTreeText', () => {
    it('folds a log with no snapshot, and stores one when the log was long', async () => {
      await appendEvents(t.prisma, 'run-a', events);
      const latest = await latestTreeText(t.prisma, 'run-a', 100);
      expect(events.length).toBeGreaterThan(100);
      expect(latest?.seq).toBe(events.length);
      expect(JSON.parse(latest?.tree as string)).toEqual(foldTo(events.length));
      expect((await stored())?.seq).toBe(events.length);
    });

    it('continues a snapshot that is behind with the events after it', async () => {
      await appendEvents(t.prisma, 'run-a', events.slice(0, 100));
      await saveSnapshot(t.prisma, 'run-a', fold(events.slice(0, 100), createEmptyTree('run-a')));
      await appendEvents(t.prisma, 'run-a', events.slice(100, 150));
      const latest = await latestTreeText(t.prisma, 'run-a');
      expect(JSON.parse(latest?.tree as string)).toEqual(foldTo(150));
      expect(50).toBeLessThan(SNAPSHOT_EVERY);
      expect((await stored())?.seq).toBe(100); // a short tail is folded on each read, not stored
    });

    it('never replaces a newer snapshot with an older one, and says null for a missing run', async () => {
      await appendEvents(t.prisma, 'run-a', events.slice(0, 80));
      await saveSnapshot(t.prisma, 'run-a', fold(events.slice(0, 80), createEmptyTree('run-a')));
      await saveSnapshot(t.prisma, 'run-a', fold(events.slice(0, 40), createEmptyTree('run-a')));
      expect((await stored())?.seq).toBe(80);
      expect(JSON.parse((await latestTreeText(t.prisma, 'run-a'))?.tree as string)).toEqual(foldTo(80));
      expect(await latestTreeText(t.prisma, 'nope')).toBeNull();
    });

    it('folds again a snapshot stored by an older version of reduce (another TREE_FORMAT), and stores today’s', async () => {
      await appendEvents(t.prisma, 'run-a', events.slice(0, 60));
      // a row as an older version would have left it: the right seq, a tree that is no longer what reduce builds
      const stale = { ...fold(events.slice(0, 60), createEmptyTree('run-a')), goal: 'folded by an older version' };
      await t.prisma.runSnapshot.create({
        data: { runId: 'run-a', seq: 60, tree: JSON.stringify(stale), format: TREE_FORMAT - 1 },
      });
      expect(JSON.parse((await latestTreeText(t.prisma, 'run-a'))?.tree as string)).toEqual(foldTo(60));
      const row = await t.prisma.runSnapshot.findUnique({ where: { runId: 'run-a' }, select: { format: true } });
      expect(row?.format).toBe(TREE_FORMAT);
    });
  });
});
