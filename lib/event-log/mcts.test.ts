// The inspector's MCTS figures (mcts.ts) against a Monte Carlo tree search the engine really ran: the last
// selection that listed a node, as of any step, and its value history, whose Q and N after each backup are checked
// against the tree reduce folds at that step and against the mean (or max) of the values, computed here.
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, ExplorationEvent } from '@/lib/contract/events';
import { fold } from '@/lib/engine/index';
import { recordMcts, type RecordedLog } from '../tasks/testing/recorded';
import { lastSelectionOf, valueHistoryOf } from './mcts';

let run: RecordedLog;
beforeAll(async () => {
  run = await recordMcts();
});

const backups = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is EventOf<'mcts.backpropagated'> => e.type === 'mcts.backpropagated');
const selections = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is EventOf<'mcts.selected'> => e.type === 'mcts.selected');

describe('the recorded MCTS run', () => {
  it('has several iterations, failed verifications and a verified answer', () => {
    const sources = new Set(backups(run.events).map((e) => e.payload.source));
    expect(backups(run.events).length).toBeGreaterThanOrEqual(5);
    expect(sources).toContain('verified');
    expect(sources).toContain('verification-failed');
  });
});

describe('valueHistoryOf', () => {
  it('ends, at every step, on the Q and N the tree folded at that step holds', () => {
    for (let seq = 1; seq <= run.events.length; seq++) {
      const tree = fold(run.events.slice(0, seq));
      for (const node of Object.values(tree.nodes)) {
        const last = valueHistoryOf(run.events, node.id, seq, 'mean').at(-1);
        expect(last?.n ?? null, `${node.id} at ${seq}`).toBe(node.mcts?.n ?? null);
        if (last) expect(last.q).toBeCloseTo(node.mcts?.q as number, 12);
      }
    }
  });

  it('lists every backup through the node, oldest first, with the running mean and count after each', () => {
    for (const id of run.tree.nodeOrder) {
      const through = backups(run.events).filter((e) => e.payload.path.includes(id));
      const rows = valueHistoryOf(run.events, id, run.events.length, 'mean');
      expect(rows.map((r) => r.seq)).toEqual(through.map((e) => e.seq));
      const values: number[] = [];
      rows.forEach((row, k) => {
        const event = through[k] as EventOf<'mcts.backpropagated'>;
        values.push(event.payload.value as number);
        expect(row).toMatchObject({
          iteration: event.payload.iteration,
          value: event.payload.value,
          source: event.payload.source,
          fromId: event.payload.nodeId,
          n: k + 1,
        });
        expect(row.q).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 12);
      });
    }
  });

  it('keeps the best value so far under the max rule', () => {
    const rows = valueHistoryOf(run.events, 'n0', run.events.length, 'max');
    let best = -Infinity;
    for (const row of rows) {
      best = Math.max(best, row.value as number);
      expect(row.q).toBe(best);
    }
    expect(rows.at(-1)?.q).toBe(1); // the verified answer's 1 reached the root
  });

  it('stops at the step asked for: nothing after it, and nothing before the first backup', () => {
    const first = backups(run.events)[0] as EventOf<'mcts.backpropagated'>;
    expect(valueHistoryOf(run.events, 'n0', first.seq - 1, 'mean')).toEqual([]);
    expect(valueHistoryOf(run.events, 'n0', first.seq, 'mean')).toHaveLength(1);
    expect(valueHistoryOf(run.events, 'n0', 0, 'mean')).toEqual([]);
    // a step beyond what the history holds reads what it holds
    expect(valueHistoryOf(run.events, 'n0', 1e9, 'mean')).toHaveLength(backups(run.events).length);
  });

  it('shows an abandoned iteration on its own node only, with Q and N unchanged', () => {
    const cut = backups(run.events)[2] as EventOf<'mcts.backpropagated'>;
    const prefix = run.events.slice(0, cut.seq);
    const leaf = cut.payload.nodeId;
    const abandoned: ExplorationEvent = {
      runId: cut.runId,
      seq: cut.seq + 1,
      ts: cut.ts + 1,
      type: 'mcts.backpropagated',
      payload: { iteration: cut.payload.iteration + 1, nodeId: leaf, value: null, source: 'abandoned', path: [] },
    };
    const log = [...prefix, abandoned];
    const before = valueHistoryOf(prefix, leaf, cut.seq, 'mean').at(-1);
    const rows = valueHistoryOf(log, leaf, log.length, 'mean');
    expect(rows.at(-1)).toEqual({
      seq: abandoned.seq,
      iteration: cut.payload.iteration + 1,
      value: null,
      source: 'abandoned',
      fromId: leaf,
      q: before?.q,
      n: before?.n,
    });
    expect(valueHistoryOf(log, 'n0', log.length, 'mean')).toHaveLength(3);
  });
});

describe('lastSelectionOf', () => {
  it('gives, at each selection, every candidate its own terms, whether it was chosen and its siblings', () => {
    for (const event of selections(run.events)) {
      for (const hop of event.payload.hops) {
        for (const candidate of hop.candidates) {
          const view = lastSelectionOf(run.events, candidate.nodeId, event.seq);
          expect(view).toEqual({
            seq: event.seq,
            iteration: event.payload.iteration,
            parentId: hop.parentId,
            parentVisits: hop.parentVisits,
            candidate,
            chosen: hop.chosenId === candidate.nodeId,
            chosenId: hop.chosenId,
            siblings: hop.candidates.filter((c) => c !== candidate),
          });
          if (candidate.uct !== null) expect(candidate.uct).toBeCloseTo((candidate.q ?? 0) + (candidate.explore ?? 0));
        }
      }
    }
  });

  it('is the last one at or before the step: time travel shows an older selection', () => {
    const listing = selections(run.events).filter((e) =>
      e.payload.hops.some((h) => h.candidates.some((c) => c.nodeId === 'n1')),
    );
    expect(listing.length).toBeGreaterThanOrEqual(2);
    const [older, newer] = listing as [EventOf<'mcts.selected'>, EventOf<'mcts.selected'>];
    expect(lastSelectionOf(run.events, 'n1', newer.seq - 1)?.seq).toBe(older.seq);
    expect(lastSelectionOf(run.events, 'n1', newer.seq)?.seq).toBe(newer.seq);
    expect(lastSelectionOf(run.events, 'n1', older.seq - 1)).toBeNull();
  });

  it('is null for the root, which is never a candidate, and for a log without MCTS events', () => {
    expect(lastSelectionOf(run.events, 'n0', run.events.length)).toBeNull();
    const beamLike = run.events.filter((e) => !e.type.startsWith('mcts.'));
    expect(lastSelectionOf(beamLike, 'n1', beamLike.length)).toBeNull();
    expect(valueHistoryOf(beamLike, 'n1', beamLike.length, 'mean')).toEqual([]);
  });
});
