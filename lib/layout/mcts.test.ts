// MCTS figures as the card and inspector write them, whether a tree has any to colour by, and an MCTS run's
// settings in words.
import { describe, expect, it } from 'vitest';
import { createEmptyTree, fold, resolveConfig } from '../engine/index';
import { externalSearchLog } from '../engine/testing';
import { recordGame24, recordMcts } from '../tasks/testing/recorded';
import { formatQ, hasMctsStats, mctsFigure, mctsSettingFacts, mctsSummary } from './mcts';

describe('MCTS figures', () => {
  it('write Q to a precision that fits its size, and N as a count', () => {
    expect(formatQ(0.6234)).toBe('0.62');
    expect(formatQ(-1.5)).toBe('-1.50');
    expect(formatQ(12.345)).toBe('12.3');
    expect(formatQ(104.6)).toBe('105');
    expect(mctsFigure({ q: 0.6234, n: 7, uct: 1.2 })).toBe('Q 0.62 · N 7');
  });

  it('leave out what the search has not said, and say nothing for a node without statistics', () => {
    expect(mctsFigure({ q: null, n: 10, uct: null })).toBe('N 10');
    expect(mctsFigure({ q: 0.5, n: null, uct: null })).toBe('Q 0.50');
    expect(mctsFigure({ q: null, n: null, uct: 2 })).toBeNull();
    expect(mctsFigure(null)).toBeNull();
  });

  it('tell a tree with statistics from one without', () => {
    expect(hasMctsStats(fold(externalSearchLog()))).toBe(true);
    expect(hasMctsStats(createEmptyTree('x'))).toBe(false);
  });

  it('count an engine MCTS run in from its run.started, before any node has figures', async () => {
    const { events } = await recordMcts();
    const started = events.findIndex((e) => e.type === 'run.started');
    expect(hasMctsStats(fold(events.slice(0, started + 1)))).toBe(true);
    expect(hasMctsStats(fold((await recordGame24()).events))).toBe(false);
  });
});

describe('MCTS settings in words', () => {
  it('say iterations begun of the budget, c, rollout depth, backup and best by, as of the tree shown', async () => {
    const { events, tree } = await recordMcts();
    const facts = mctsSettingFacts(tree);
    expect(facts?.map((f) => [f.label, f.value])).toEqual([
      ['iterations', `${tree.mcts?.iterations} / 12`],
      ['exploration c', '1.41 (√2)'],
      ['rollout depth', '0'],
      ['backup', 'mean'],
      ['best by', 'visits'],
    ]);
    expect(mctsSummary(tree)).toBe(`${tree.mcts?.iterations}/12 it. · c 1.41 · rollout 0 · mean · best by visits`);
    expect(mctsSummary(tree, 'long')).toContain('exploration c 1.41 (√2) · rollout depth 0');
    const early = fold(events.slice(0, events.findIndex((e) => e.type === 'run.started') + 1));
    expect(mctsSettingFacts(early)?.[0]?.value).toBe('0 / 12');
  });

  it('fill what a stored config leaves out with the defaults, and say nothing for another strategy', () => {
    const tree = createEmptyTree('x');
    tree.config = { ...resolveConfig({ explorationStrategy: 'mcts' }), mctsExploration: 0.5, mctsBackup: 'max' };
    delete tree.config.mctsIterations;
    tree.config.mctsBestBy = 'q';
    expect(mctsSummary(tree)).toBe('0/50 it. · c 0.50 · rollout 0 · max · best by Q');
    expect(mctsSettingFacts(createEmptyTree('y'))).toBeNull();
    expect(mctsSummary(createEmptyTree('y'))).toBeNull();
  });
});
