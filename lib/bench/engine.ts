/**
 * `npm run bench:engine`: figures for the engine, printed, never asserted.
 * 1. Engine overhead: events per second and microseconds per executed node with an instant model that answers
 *    canned JSON (so the time measured is the executor's, reduce's and the prompts'), at 1k and 10k nodes.
 * 2. The offline simulated model with the default config on Game of 24 puzzles 900-999 (the ToT paper's set):
 *    solve rate (answer verified), median nodes explored and model calls per puzzle, for each strategy.
 * Not a test: nothing here can fail a build.
 */
import type { ExplorationStrategy } from '../contract/vocabulary';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry, puzzleGoal, puzzleRange } from '../tasks/index';
import { InstantModel } from './instant-model';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

async function overhead(nodes: number, strategy: ExplorationStrategy) {
  let events = 0;
  const executor = new ThoughtTreeExecutor({
    explorationStrategy: strategy,
    maxTotalNodes: nodes,
    maxDepth: 50,
    confidenceThreshold: 0,
  });
  const started = performance.now();
  const result = await executor.explore({ name: 'bench', model: new InstantModel() }, 'benchmark goal', {
    onEvent: () => events++,
  });
  const ms = performance.now() - started;
  return { explored: result.stats.exploredNodes, events, ms };
}

async function game24(strategy: ExplorationStrategy) {
  const entry = getTaskEntry('game24');
  const puzzles = puzzleRange(900, 1000);
  let solved = 0;
  let bySearch = 0;
  const nodes: number[] = [];
  const calls: number[] = [];
  for (const puzzle of puzzles) {
    const result = await new ThoughtTreeExecutor({ explorationStrategy: strategy }).explore(
      { name: 'bench', model: createSimulatedModel({ seed: 1 }) },
      puzzleGoal(puzzle),
      { task: entry.task },
    );
    if (result.verified) solved++;
    if (result.verified && result.answerSource === 'node') bySearch++;
    nodes.push(result.stats.exploredNodes);
    calls.push(result.stats.modelCalls);
  }
  return { puzzles: puzzles.length, solved, bySearch, medianNodes: median(nodes), medianCalls: median(calls) };
}

async function main() {
  await overhead(1_000, 'beam'); // warm the JIT so the first row measures the engine, not the compiler
  console.log(`Engine overhead (instant model, node ${process.version})`);
  console.log('strategy    nodes   events   events/s   µs/node');
  for (const size of [1_000, 10_000]) {
    for (const strategy of ['beam', 'best-first', 'dfs'] as const) {
      const r = await overhead(size, strategy);
      console.log(
        `${strategy.padEnd(10)} ${String(r.explored).padStart(6)} ${String(r.events).padStart(8)} ${Math.round(
          (r.events / r.ms) * 1000,
        )
          .toString()
          .padStart(10)} ${((r.ms * 1000) / r.explored).toFixed(1).padStart(9)}`,
      );
    }
  }
  console.log('\nGame of 24, puzzles 900-999, simulated model (seed 1), DEFAULT_TOT_CONFIG');
  console.log('strategy    verified output   found by the search   median nodes   median model calls');
  for (const strategy of ['beam', 'best-first', 'dfs'] as const) {
    const r = await game24(strategy);
    console.log(
      `${strategy.padEnd(10)} ${`${r.solved}/${r.puzzles}`.padStart(15)} ${`${r.bySearch}/${r.puzzles}`.padStart(21)} ${String(r.medianNodes).padStart(14)} ${String(r.medianCalls).padStart(20)}`,
    );
  }
}

void main();
