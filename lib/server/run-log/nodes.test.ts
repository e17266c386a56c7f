/** The node projection against real SQLite and PostgreSQL through real Prisma: insert, update in place, filters, order. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ThoughtNode } from '../../engine/index';
import { BACKENDS, sampleNode, sampleRunInput, sharedTestDb } from '../testing/db';
import { NODE_CHUNK_ROWS, listNodes, upsertNodes } from './nodes';
import { createRun } from './run-rows';

describe.each(BACKENDS)('the node projection (%s)', (backend) => {
  const t = sharedTestDb(backend);
  beforeEach(async () => {
    await createRun(t.prisma, sampleRunInput('run-a'));
  });

  function child(id: string, createdSeq: number, overrides: Partial<ThoughtNode> = {}): ThoughtNode {
    return sampleNode(id, {
      parentId: 'n0',
      depth: 1,
      createdSeq,
      branch: { thought: `try ${id}`, proposedAction: { type: 'response', content: id } },
      score: { confidence: 0.7, progress: 0.5, novelty: 0.2, composite: 0.54, reasoning: 'ok', fallback: false },
      cumulativeScore: 0.54,
      ...overrides,
    });
  }

  describe('upsertNodes and listNodes', () => {
    it('projects the queried fields of each node', async () => {
      await upsertNodes(t.prisma, 'run-a', [sampleNode('n0', { status: 'completed' }), child('n1', 3)]);
      expect(await listNodes(t.prisma, 'run-a')).toEqual([
        {
          runId: 'run-a',
          nodeId: 'n0',
          parentId: null,
          depth: 0,
          status: 'completed',
          thought: null,
          composite: null,
          cumulativeScore: 0,
          verified: null,
          createdSeq: 1,
        },
        {
          runId: 'run-a',
          nodeId: 'n1',
          parentId: 'n0',
          depth: 1,
          status: 'pending',
          thought: 'try n1',
          composite: 0.54,
          cumulativeScore: 0.54,
          verified: null,
          createdSeq: 3,
        },
      ]);
    });

    it('updates nodes in place, leaving the others', async () => {
      await upsertNodes(t.prisma, 'run-a', [sampleNode('n0'), child('n1', 3), child('n2', 4)]);
      await upsertNodes(t.prisma, 'run-a', [
        child('n1', 3, { status: 'failed', verification: { passed: false, trace: 'no' }, cumulativeScore: 0.9 }),
      ]);
      const nodes = await listNodes(t.prisma, 'run-a');
      expect(nodes.map((n) => n.nodeId)).toEqual(['n0', 'n1', 'n2']);
      expect(nodes[1]).toMatchObject({ nodeId: 'n1', status: 'failed', verified: false, cumulativeScore: 0.9 });
      expect(nodes[2]).toMatchObject({ nodeId: 'n2', status: 'pending', verified: null });
      expect(await t.prisma.node.count()).toBe(3);
    });

    it('keeps awkward text, floats and verdicts exactly', async () => {
      const thought = 'it\'s "(10 - 4)"\n\\ × 24 ✓ \u2028 🌳';
      await upsertNodes(t.prisma, 'run-a', [
        sampleNode('n0'),
        child('n1', 2, {
          branch: { thought, proposedAction: { type: 'response', content: '' } },
          score: { confidence: 1, progress: 1, novelty: 1, composite: 0.1 + 0.2, reasoning: '', fallback: false },
          cumulativeScore: 1 / 3,
          verification: { passed: true, trace: 'ok' },
        }),
      ]);
      expect((await listNodes(t.prisma, 'run-a'))[1]).toMatchObject({
        thought,
        composite: 0.1 + 0.2,
        cumulativeScore: 1 / 3,
        verified: true,
      });
    });

    it('handles more nodes than one statement holds, in creation order', async () => {
      const many = Array.from({ length: NODE_CHUNK_ROWS * 2 + 3 }, (_, i) => child(`n${i + 1}`, i + 2));
      await upsertNodes(t.prisma, 'run-a', [sampleNode('n0'), ...many]);
      const nodes = await listNodes(t.prisma, 'run-a');
      expect(nodes.map((n) => n.nodeId)).toEqual(['n0', ...many.map((n) => n.id)]);
    });

    it('filters by one status or several, and by run', async () => {
      await createRun(t.prisma, sampleRunInput('run-b'));
      await upsertNodes(t.prisma, 'run-a', [
        sampleNode('n0', { status: 'completed' }),
        child('n1', 2, { status: 'pruned' }),
        child('n2', 3, { status: 'failed' }),
        child('n3', 4),
      ]);
      await upsertNodes(t.prisma, 'run-b', [sampleNode('n0', { status: 'failed' })]);
      const names = (nodes: { nodeId: string }[]) => nodes.map((n) => n.nodeId);
      expect(names(await listNodes(t.prisma, 'run-a', { status: 'failed' }))).toEqual(['n2']);
      expect(names(await listNodes(t.prisma, 'run-a', { status: ['pending', 'pruned'] }))).toEqual(['n1', 'n3']);
      expect(names(await listNodes(t.prisma, 'run-b'))).toEqual(['n0']);
    });

    it('refuses nodes of a missing run (foreign key) and accepts an empty list', async () => {
      await expect(upsertNodes(t.prisma, 'missing', [sampleNode('n0')])).rejects.toThrow();
      await upsertNodes(t.prisma, 'run-a', []);
      expect(await listNodes(t.prisma, 'run-a')).toEqual([]);
    });
  });
});
