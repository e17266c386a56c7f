// The heap the executor uses must pick exactly what selectNext (the strategies' definition) picks.
import { describe, expect, it } from 'vitest';
import { createRng } from '../models/index';
import { comesBefore, FrontierQueue, nextInLine, selectNext } from './frontier';
import { createEmptyTree } from './tree';
import type { ExplorationStrategy } from '../contract/vocabulary';
import type { FrontierEntry, ThoughtNode, ThoughtTree } from './types';

function randomTree(seed: number, strategy: ExplorationStrategy): ThoughtTree {
  const rng = createRng(seed);
  const tree = createEmptyTree('r');
  tree.config.explorationStrategy = strategy;
  for (let i = 0; i < 200; i++) {
    const composite = Math.round(rng.next() * 10) / 10; // many ties on purpose
    tree.nodes[`n${i}`] = {
      id: `n${i}`,
      depth: rng.int(4),
      cumulativeScore: Math.round(rng.next() * 20) / 10,
      score: { composite, confidence: 0, progress: 0, novelty: 0, reasoning: '', fallback: false },
    } as ThoughtNode;
  }
  return tree;
}

describe('FrontierQueue', () => {
  it.each(['beam', 'best-first', 'dfs'] as const)(
    'pops in selectNext order under %s, with removals and re-queues',
    (strategy) => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const rng = createRng(seed * 7);
        const tree = randomTree(seed, strategy);
        const queue = new FrontierQueue(tree);
        const enqueue = (id: string) => {
          const entry: FrontierEntry = {
            nodeId: id,
            mode: rng.next() < 0.5 ? 'execute' : 'expand',
            urgent: rng.next() < 0.1,
            order: tree.nextFrontierOrder++,
          };
          tree.frontier[id] = entry;
          queue.push(entry);
        };
        for (let i = 0; i < 120; i++) enqueue(`n${i}`);
        for (let step = 0; step < 300; step++) {
          const expected = selectNext(tree);
          expect(queue.peek()).toEqual(expected);
          if (!expected) break;
          delete tree.frontier[expected.nodeId];
          if (rng.next() < 0.3) enqueue(`n${rng.int(200)}`); // a new or replaced entry
          if (rng.next() < 0.1) delete tree.frontier[`n${rng.int(200)}`]; // pruned
        }
      }
    },
  );
});

describe('nextInLine', () => {
  it.each(['beam', 'best-first', 'dfs'] as const)(
    'is the head of the frontier in comesBefore order under %s',
    (strategy) => {
      for (const seed of [1, 2, 3]) {
        const rng = createRng(seed * 11);
        const tree = randomTree(seed, strategy);
        for (let i = 0; i < 150; i++) {
          tree.frontier[`n${i}`] = {
            nodeId: `n${i}`,
            mode: rng.next() < 0.5 ? 'execute' : 'expand',
            urgent: rng.next() < 0.1,
            order: tree.nextFrontierOrder++,
          };
        }
        const sorted = Object.values(tree.frontier).sort((a, b) => (comesBefore(tree, a, b) ? -1 : 1));
        expect(nextInLine(tree, 24)).toEqual(sorted.slice(0, 24));
        expect(nextInLine(tree, 1)).toEqual([selectNext(tree)]);
        expect(nextInLine(tree, 500)).toEqual(sorted);
      }
    },
  );
});
