import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '@/lib/contract/events';
import { fold } from '@/lib/engine/index';
import { computeIcicle } from './icicle';
import { displayStatus } from './node-status';
import { cellColours, legend, OVERVIEW_STATUSES, OVERVIEW_STEPS } from './overview-colours';

/** Root n0 with children n1..n3, scored 0.05, 0.55 and 0.99; n2 completed, n3 failed. */
function tree() {
  const created = (i: number, score: number | null): ExplorationEvent => ({
    runId: 'r',
    seq: i + 1,
    ts: 0,
    type: 'node.created',
    payload: {
      nodeId: `n${i}`,
      parentId: i === 0 ? null : 'n0',
      branch: i === 0 ? null : { thought: `t${i}`, proposedAction: { type: 'response', content: '' } },
      score:
        score === null
          ? null
          : { confidence: score, progress: score, novelty: score, composite: score, reasoning: '', fallback: false },
    },
  });
  const t = fold([created(0, null), created(1, 0.05), created(2, 0.55), created(3, 0.99)]);
  t.nodes.n2 = {
    ...t.nodes.n2!,
    status: 'completed',
    usage: { inputTokens: 300, outputTokens: 20, cost: 0, unpricedCalls: 1 },
  };
  t.nodes.n3 = {
    ...t.nodes.n3!,
    status: 'failed',
    usage: { inputTokens: 100, outputTokens: 0, cost: 0, unpricedCalls: 1 },
  };
  return t;
}

describe('cellColours', () => {
  const t = tree();
  const layout = computeIcicle(t);
  const bucketOf = (colours: ReturnType<typeof cellColours>, id: string) => colours.bucket[layout.indexOf.get(id)!];

  it('gives each cell the status its card shows', () => {
    const colours = cellColours(layout, 'status');
    for (const id of t.nodeOrder) expect(OVERVIEW_STATUSES[bucketOf(colours, id)!]).toBe(displayStatus(t.nodes[id]!));
  });

  it('orders scores low to high, and sets the unscored root apart', () => {
    const colours = cellColours(layout, 'score');
    expect(bucketOf(colours, 'n0')).toBe(OVERVIEW_STEPS);
    expect(bucketOf(colours, 'n1')).toBe(0);
    expect(bucketOf(colours, 'n2')).toBe(5);
    expect(bucketOf(colours, 'n3')).toBe(OVERVIEW_STEPS - 1);
  });

  it('falls back to tokens when no call had a price, the costliest node darkest, the idle ones apart', () => {
    const colours = cellColours(layout, 'cost');
    expect(colours.unit).toBe('tokens');
    expect(bucketOf(colours, 'n2')).toBe(OVERVIEW_STEPS - 1);
    expect(bucketOf(colours, 'n3')).toBeLessThan(OVERVIEW_STEPS - 1);
    expect(bucketOf(colours, 'n3')).toBeGreaterThan(0);
    expect(bucketOf(colours, 'n1')).toBe(OVERVIEW_STEPS);
    t.nodes.n3 = { ...t.nodes.n3!, usage: { ...t.nodes.n3!.usage, cost: 0.01 } };
    expect(cellColours(computeIcicle(t), 'cost').unit).toBe('dollars');
  });

  it('colours by MCTS Q from the tree’s lowest to its highest, and by visits from none to the most', () => {
    const mcts = tree();
    mcts.nodes.n0 = { ...mcts.nodes.n0!, mcts: { q: null, n: 9, uct: null } };
    mcts.nodes.n1 = { ...mcts.nodes.n1!, mcts: { q: -0.5, n: 0, uct: null } };
    mcts.nodes.n2 = { ...mcts.nodes.n2!, mcts: { q: 1.5, n: 9, uct: null } };
    const icicle = computeIcicle(mcts);
    const at = (colours: ReturnType<typeof cellColours>, id: string) => colours.bucket[icicle.indexOf.get(id)!];
    const q = cellColours(icicle, 'q');
    expect([at(q, 'n0'), at(q, 'n1'), at(q, 'n2'), at(q, 'n3')]).toEqual([
      OVERVIEW_STEPS,
      0,
      OVERVIEW_STEPS - 1,
      OVERVIEW_STEPS,
    ]);
    expect(legend('q', q.unit, q.range)).toEqual({ low: 'Q -0.50', high: '1.50' });
    const visits = cellColours(icicle, 'visits');
    expect([at(visits, 'n0'), at(visits, 'n1'), at(visits, 'n2'), at(visits, 'n3')]).toEqual([
      OVERVIEW_STEPS - 1,
      0,
      OVERVIEW_STEPS - 1,
      OVERVIEW_STEPS,
    ]);
    expect(legend('visits', visits.unit, visits.range)).toEqual({ low: 'N 0', high: '9' });
    // a tree without statistics: every cell "no value", and the legend says so
    const none = cellColours(layout, 'q');
    expect(t.nodeOrder.map((id) => bucketOf(none, id))).toEqual(t.nodeOrder.map(() => OVERVIEW_STEPS));
    expect(legend('q', none.unit, none.range)).toEqual({ low: 'no Q yet', high: '' });
  });
});
