import { describe, expect, it } from 'vitest';
import { fold, type ThoughtTree } from '../engine/index';
import { externalSearchLog } from '../engine/testing';
import { searchedGame24 } from '../tasks/testing/trees';
import { isVerifiedAnswer, rollupsFor, subtreeRollups, sumRollups } from './rollup';

async function searchedTree(): Promise<ThoughtTree> {
  const { events } = await searchedGame24();
  // latencies made up per call (the simulator's are 0): each call's time must reach its own node's subtree
  return fold(
    events.map((e) =>
      e.type === 'model.called' ? { ...e, payload: { ...e.payload, latencyMs: (e.seq % 7) + 1 } } : e,
    ),
  );
}

/** The subtree of `id`, walked the slow way: the reference the one-pass rollup must agree with. */
function descendants(tree: ThoughtTree, id: string): string[] {
  const node = tree.nodes[id];
  return node ? [id, ...node.childIds.flatMap((c) => descendants(tree, c))] : [];
}

describe('subtreeRollups', () => {
  it('gives every node the totals of its whole subtree, as a slow walk does', async () => {
    const tree = await searchedTree();
    const rollups = subtreeRollups(tree);
    expect(tree.nodeOrder.length).toBeGreaterThan(10);
    for (const id of tree.nodeOrder) {
      const ids = descendants(tree, id);
      const nodes = ids.map((d) => tree.nodes[d]!);
      const rollup = rollups.get(id)!;
      expect(rollup.nodes).toBe(ids.length);
      expect(rollup.cost).toBeCloseTo(
        nodes.reduce((s, n) => s + n.usage.cost, 0),
        10,
      );
      expect(rollup.inputTokens).toBe(nodes.reduce((s, n) => s + n.usage.inputTokens, 0));
      expect(rollup.modelCalls).toBe(nodes.reduce((s, n) => s + n.modelCallSeqs.length, 0));
      expect(rollup.verifiedAnswers).toBe(nodes.filter(isVerifiedAnswer).length);
      const seqs = nodes.flatMap((n) => n.modelCallSeqs);
      expect(rollup.elapsedMs).toBe(seqs.reduce((s, seq) => s + (seq % 7) + 1, 0));
      const scores = nodes.flatMap((n) => (n.score ? [n.score.composite] : []));
      expect(rollup.bestComposite).toBe(scores.length ? Math.max(...scores) : null);
    }
    // the root's subtree is the whole tree: its tokens are every node-attributed call's tokens
    const root = rollups.get(tree.rootId!)!;
    expect(root.nodes).toBe(tree.nodeOrder.length);
    expect(root.inputTokens).toBeLessThanOrEqual(tree.usage.inputTokens);
    expect(root.inputTokens).toBeGreaterThan(0);
  });

  it('computes once per tree version and again after an event', async () => {
    const tree = await searchedTree();
    const first = rollupsFor(tree);
    expect(rollupsFor(tree)).toBe(first);
    tree.lastSeq += 1; // what reduce does with every event it applies in place
    expect(rollupsFor(tree)).not.toBe(first);
    expect(rollupsFor(tree).get(tree.rootId!)).toEqual(first.get(tree.rootId!));
  });

  it('sums several subtrees for a card standing for siblings', async () => {
    const tree = await searchedTree();
    const rollups = subtreeRollups(tree);
    const kids = tree.nodes[tree.rootId!]!.childIds;
    const sum = sumRollups(kids.map((k) => rollups.get(k)));
    expect(sum.nodes).toBe(tree.nodeOrder.length - 1);
    expect(sum.elapsedMs).toBe(rollups.get(tree.rootId!)!.elapsedMs - tree.nodes[tree.rootId!]!.modelMs);
    expect(sumRollups([]).bestComposite).toBeNull();
  });
});

describe('dead ends in a subtree', () => {
  it('counts failed nodes and those a person pruned, not those the search pruned by its own rule', () => {
    const tree = fold(externalSearchLog());
    // n0's children: a (pending), b (pruned by alice), c (pruned by the search)
    expect(subtreeRollups(tree).get('n0')?.deadEnds).toBe(1);
  });
});
