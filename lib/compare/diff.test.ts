// The compare page's diff (issue 10, item 13): where two runs diverge, what only one of them has, their best paths.
import { describe, expect, it } from 'vitest';
import type { ThoughtTree } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { ScriptedTreeModel, type TreeSpec } from '../models/index';
import { diffRuns } from './diff';

async function tree(spec: TreeSpec): Promise<ThoughtTree> {
  const result = await new ThoughtTreeExecutor({ maxDepth: 2, branchFactor: 2, beamWidth: 2 }).explore(
    { name: 'tester', model: new ScriptedTreeModel(spec) },
    'Plan a migration',
  );
  return result.tree;
}

// A: best path A -> A2 ; B: best path A -> A1. Both have A and A -> A1.
const SPEC_A: TreeSpec = {
  children: { '': ['A', 'B'], A: ['A1', 'A2'] },
  scores: { A: 0.7, B: 0.5, A1: 0.6, A2: 0.8 },
};
const SPEC_B: TreeSpec = {
  children: { '': ['A', 'C'], A: ['A1', 'A3'] },
  scores: { A: 0.7, C: 0.5, A1: 0.9, A3: 0.4 },
};

describe('diffRuns', () => {
  it('finds the first node of each best path that the other run does not have', async () => {
    const diff = diffRuns(await tree(SPEC_A), await tree(SPEC_B));
    expect(diff.bestPathA.map((s) => s.thought)).toEqual(['Plan a migration', 'A', 'A2']);
    expect(diff.bestPathB.map((s) => s.thought)).toEqual(['Plan a migration', 'A', 'A1']);
    expect(diff.bestPathA.map((s) => s.shared)).toEqual([true, true, false]);
    expect(diff.divergence.a?.thought).toBe('A2');
    expect(diff.divergence.a?.depth).toBe(2);
    // B's best path is all in A too: nothing on it differs
    expect(diff.divergence.b).toBeNull();
    expect(diff.bestPathB.every((s) => s.shared)).toBe(true);
  });

  it('lists the nodes only in A and only in B, by their thoughts, in the order they appeared', async () => {
    const a = await tree(SPEC_A);
    const b = await tree(SPEC_B);
    const diff = diffRuns(a, b);
    const thoughts = (t: ThoughtTree, ids: string[]) => ids.map((id) => t.nodes[id]?.branch?.thought);
    expect(thoughts(a, diff.onlyA)).toEqual(expect.arrayContaining(['B', 'A2']));
    expect(thoughts(a, diff.onlyA)).not.toContain('A');
    expect(thoughts(a, diff.onlyA)).not.toContain('A1');
    expect(thoughts(b, diff.onlyB)).toEqual(expect.arrayContaining(['C', 'A3']));
    expect(thoughts(b, diff.onlyB)).not.toContain('A1');
    expect(diff.onlyA).toEqual(a.nodeOrder.filter((id) => diff.onlyA.includes(id)));
    expect(diff.sharedA + diff.onlyA.length).toBe(a.nodeOrder.length);
  });

  it('finds nothing different between a run and itself', async () => {
    const a = await tree(SPEC_A);
    const diff = diffRuns(a, a);
    expect(diff.onlyA).toEqual([]);
    expect(diff.onlyB).toEqual([]);
    expect(diff.divergence).toEqual({ a: null, b: null });
  });
});
