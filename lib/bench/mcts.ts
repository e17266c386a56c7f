/**
 * `npm run bench:mcts`: Monte Carlo tree search beside beam on the shipped Game of 24 puzzles 900-999, as one
 * experiment (issue 19's, through the same router procedures the page and the CLI use) on the offline simulated
 * model: per configuration the puzzles solved (the task's verifier accepted the output), the mean cost, model calls,
 * tokens and nodes run. Beam b=5 at the paper's settings (k = 8 candidates, depth 4, 100 nodes at most); MCTS with the
 * same candidates, depth and node cap at two iteration budgets and two exploration constants.
 * Printed, never asserted; latency 0, so wall times are the engine's own and not printed as a figure.
 * Not responsible for the experiment machinery's speed (bench:experiments).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToTConfig } from '../contract/vocabulary';
import { openExperimentBench, runExperiment } from './experiment-bench';
import { type BenchFigure, reportFigures } from './figures';

const SHIPPED = 'game24:900-999';
const SHAPE = { branchFactor: 8, maxDepth: 4, maxTotalNodes: 100 } as const;
const CONFIGURATIONS: { label: string; config: Partial<ToTConfig> }[] = [
  { label: 'beam b=5', config: { ...SHAPE, explorationStrategy: 'beam', beamWidth: 5 } },
  { label: 'mcts 50 it', config: { ...SHAPE, beamWidth: 1, explorationStrategy: 'mcts', mctsIterations: 50 } },
  { label: 'mcts 100 it', config: { ...SHAPE, beamWidth: 1, explorationStrategy: 'mcts', mctsIterations: 100 } },
  {
    label: 'mcts 100 c=0.5',
    config: { ...SHAPE, beamWidth: 1, explorationStrategy: 'mcts', mctsIterations: 100, mctsExploration: 0.5 },
  },
  {
    label: 'mcts 100 roll 2',
    config: { ...SHAPE, beamWidth: 1, explorationStrategy: 'mcts', mctsIterations: 100, mctsRolloutDepth: 2 },
  },
];

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-bench-mcts-'));
  const bench = openExperimentBench(path.join(dir, 'bench.db'), 4);
  const figures: BenchFigure[] = [];
  try {
    const dataset = await bench.caller.dataset.create({ name: SHIPPED, taskId: 'game24', shipped: SHIPPED });
    const { view, ms } = await runExperiment(bench, {
      name: 'bench mcts',
      taskId: 'game24',
      datasetId: dataset.id,
      configurations: CONFIGURATIONS.map((c) => ({ ...c, model: { provider: 'simulated', seed: 1, latencyMs: 0 } })),
    });
    console.log(
      `mcts beside beam: ${dataset.itemCount} puzzles (${SHIPPED}), simulated model (seed 1), ` +
        `k = ${SHAPE.branchFactor}, depth ${SHAPE.maxDepth}, node cap ${SHAPE.maxTotalNodes}; ` +
        `${view.progress.total} cells in ${(ms / 1000).toFixed(1)} s\n`,
    );
    console.log('  configuration      solved   mean cost   mean calls   mean tokens   mean nodes run');
    for (const c of view.configurations) {
      const rate = c.done > 0 ? (c.solved / c.done) * 100 : 0;
      console.log(
        `  ${c.label.padEnd(17)} ${`${c.solved}/${c.done}`.padStart(7)}   ` +
          `${`$${(c.meanCostUsd ?? 0).toFixed(5)}`.padStart(9)}   ${(c.meanModelCalls ?? 0).toFixed(1).padStart(10)}   ` +
          `${(c.meanTokens ?? 0).toFixed(0).padStart(11)}   ${(c.meanExploredNodes ?? 0).toFixed(1).padStart(14)}` +
          (c.error > 0 ? `   (${c.error} errors)` : ''),
      );
      figures.push(
        { name: `${c.label}: puzzles solved of ${c.done}`, value: rate, unit: '%' },
        { name: `${c.label}: mean cost a puzzle`, value: (c.meanCostUsd ?? 0) * 1000, unit: 'm$' },
      );
    }
    reportFigures('mcts', figures);
  } finally {
    await bench.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
