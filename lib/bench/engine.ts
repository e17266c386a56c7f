/**
 * `npm run bench:engine`: figures for the engine, printed, never asserted.
 * 1. Engine overhead: wall time per EXECUTED node (µs) with an instant model that answers canned JSON (so the time
 *    measured is the executor's, reduce's and the prompts'), JIT warmed, at 1k, 10k and 100k nodes for beam,
 *    best-first and dfs; beside it, in the same run, a plain hand-written beam loop (plainLoop) with the same model,
 *    and the ratio engine / plain per row. Reported to `npm run bench` as one figure per strategy and size (goal
 *    < 20 µs/node) and one "growth 1k -> 100k" per strategy (goal <= 1.5x: flat with size).
 *    Beside it, what judging breakpoints costs: the same searches with 5 enabled breakpoints that never hit
 *    (NEVER_HIT), median of 3 alternating runs each, at 10k nodes (or the largest size asked below it); a figure with
 *    no goal (issue 17: with no breakpoints the engine must cost what it did; with some, a person sees the price).
 * 2. The offline simulated model with the default config on Game of 24 puzzles 900-999 (the ToT paper's set):
 *    solve rate (answer verified), median nodes explored and model calls per puzzle, for each strategy.
 * `BENCH_ENGINE_SIZES` (default 1000,10000,100000) picks the sizes. Not a test: nothing here can fail a build.
 */
import type { Breakpoint } from '../contract/breakpoints';
import type { ExplorationStrategy } from '../contract/vocabulary';
import { DEFAULT_TOT_CONFIG } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry, puzzleGoal, puzzleRange } from '../tasks/index';
import { reportFigures, type BenchFigure } from './figures';
import { InstantModel } from './instant-model';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

const STRATEGIES = ['beam', 'best-first', 'dfs'] as const;

/**
 * Five breakpoints the instant model's searches never satisfy, of the kinds judged on the most events (every model
 * call, every candidate, every node created), the regex one read against every response.
 */
const NEVER_HIT: Breakpoint[] = [
  { id: 'cost', enabled: true, condition: { kind: 'cost-above', usd: 1e9 } },
  { id: 'tokens', enabled: true, condition: { kind: 'tokens-above', tokens: 1e12 } },
  { id: 'score', enabled: true, condition: { kind: 'score-below', value: -1 } },
  { id: 'depth', enabled: true, condition: { kind: 'depth', depth: 10_000 } },
  {
    id: 'text',
    enabled: true,
    condition: {
      kind: 'text-match',
      field: 'response',
      pattern: 'never (said|written)',
      regex: true,
      caseSensitive: false,
    },
  },
];

/** One search of `nodes` executed nodes: wall time from explore() to its result, every event counted. */
async function overhead(nodes: number, strategy: ExplorationStrategy, breakpoints?: Breakpoint[]) {
  let events = 0;
  const executor = new ThoughtTreeExecutor({
    explorationStrategy: strategy,
    maxTotalNodes: nodes,
    maxDepth: 50,
    confidenceThreshold: 0,
  });
  const started = performance.now();
  const result = await executor.explore({ name: 'bench', model: new InstantModel() }, 'benchmark goal', {
    onEvent: breakpoints
      ? (event) => {
          events++;
          // a stop would wait for ever and the figure would measure it: say so instead
          if (event.type === 'run.paused') throw new Error(`a breakpoint hit: ${JSON.stringify(event.payload)}`);
        }
      : () => events++,
    breakpoints: breakpoints && { breakpoints, actor: 'bench' },
  });
  const ms = performance.now() - started;
  return { explored: result.stats.exploredNodes, events, ms };
}

/**
 * The yardstick: a beam search written by hand with the same InstantModel and the engine's shape (each executed node
 * is expanded into 3 candidates, each scored by one call; the beamWidth best of each expansion run next, breadth
 * first), with none of the engine's events, tree, prompts or bookkeeping. What the engine costs is the difference.
 */
async function plainLoop(nodes: number) {
  const model = new InstantModel();
  const width = DEFAULT_TOT_CONFIG.beamWidth;
  let level: { thought: string; score: number }[] = [{ thought: 'benchmark goal', score: 0 }];
  let executed = 0;
  const started = performance.now();
  while (executed < nodes && level.length > 0) {
    const next: { thought: string; score: number }[] = [];
    for (const parent of level) {
      const generated = await model.complete({
        purpose: 'generate',
        messages: [{ role: 'user', content: `Goal: benchmark goal\nStep: ${parent.thought}\nPropose 3 next steps.` }],
      });
      const candidates: { thought: string; score: number }[] = [];
      for (const item of JSON.parse(generated.text) as { thought: string }[]) {
        const evaluated = await model.complete({
          purpose: 'evaluate',
          messages: [{ role: 'user', content: `Goal: benchmark goal\nCandidate: ${item.thought}` }],
        });
        const s = JSON.parse(evaluated.text) as { confidence: number; progress: number; novelty: number };
        candidates.push({ thought: item.thought, score: 0.5 * s.confidence + 0.3 * s.progress + 0.2 * s.novelty });
      }
      candidates.sort((a, b) => b.score - a.score);
      for (const child of candidates.slice(0, width)) {
        if (executed >= nodes) break;
        executed++; // "run" the child: its action is a direct response, taken as is
        next.push(child);
      }
    }
    level = next;
  }
  return { explored: executed, ms: performance.now() - started };
}

const perNode = (r: { ms: number; explored: number }) => (r.ms * 1000) / r.explored;
const sizeLabel = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

async function overheadTable(): Promise<BenchFigure[]> {
  const sizes = (process.env.BENCH_ENGINE_SIZES ?? '1000,10000,100000').split(',').map(Number);
  // warm the JIT on every path measured, so the first rows measure the engine, not the compiler
  for (const strategy of STRATEGIES) await overhead(1_000, strategy);
  await plainLoop(1_000);
  console.log(`Engine overhead (instant model, node ${process.version}): wall time per executed node`);
  console.log('strategy      nodes    events   events/s   µs/node   plain µs/node   engine/plain');
  const figures: BenchFigure[] = [];
  const bySize = new Map<ExplorationStrategy, Map<number, number>>();
  for (const size of sizes) {
    const plain = await plainLoop(size);
    for (const strategy of STRATEGIES) {
      const r = await overhead(size, strategy);
      const us = perNode(r);
      const ratio = us / perNode(plain);
      console.log(
        `${strategy.padEnd(10)} ${String(r.explored).padStart(8)} ${String(r.events).padStart(9)} ${Math.round(
          (r.events / r.ms) * 1000,
        )
          .toString()
          .padStart(
            10,
          )} ${us.toFixed(1).padStart(9)} ${perNode(plain).toFixed(1).padStart(15)} ${`${ratio.toFixed(1)}x`.padStart(14)}`,
      );
      const row = bySize.get(strategy) ?? new Map<number, number>();
      row.set(size, us);
      bySize.set(strategy, row);
      figures.push({
        name: `overhead, ${strategy}, ${sizeLabel(size)} nodes`,
        value: us,
        unit: 'µs/node',
        goal: { op: '<', value: 20 },
        note: `${ratio.toFixed(1)}x a plain loop`,
      });
    }
  }
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);
  if (largest > smallest) {
    console.log(
      `\ngrowth ${sizeLabel(smallest)} -> ${sizeLabel(largest)} (µs/node at ${sizeLabel(largest)} / at ${sizeLabel(smallest)})`,
    );
    for (const strategy of STRATEGIES) {
      const row = bySize.get(strategy) as Map<number, number>;
      const growth = (row.get(largest) as number) / (row.get(smallest) as number);
      console.log(`${strategy.padEnd(10)} ${growth.toFixed(2)}x`);
      figures.push({
        name: `growth ${sizeLabel(smallest)} -> ${sizeLabel(largest)}, ${strategy}`,
        value: growth,
        unit: 'x',
        goal: { op: '<=', value: 1.5 },
        note: 'µs/node, flat with size',
      });
    }
  }
  figures.push(...(await breakpointsLine(sizes)));
  return figures;
}

/** µs/node with NEVER_HIT beside without, alternating, median of 3 each; one figure per strategy, no goal. */
async function breakpointsLine(sizes: number[]): Promise<BenchFigure[]> {
  const below = sizes.filter((n) => n <= 10_000);
  const size = below.length > 0 ? Math.max(...below) : Math.min(...sizes);
  const figures: BenchFigure[] = [];
  const parts: string[] = [];
  for (const strategy of STRATEGIES) {
    const without: number[] = [];
    const withBreakpoints: number[] = [];
    for (let i = 0; i < 3; i++) {
      without.push(perNode(await overhead(size, strategy)));
      withBreakpoints.push(perNode(await overhead(size, strategy, NEVER_HIT)));
    }
    const a = median(without);
    const b = median(withBreakpoints);
    const extra = ((b - a) / a) * 100;
    parts.push(`${strategy} ${extra >= 0 ? '+' : ''}${extra.toFixed(1)}% (${b.toFixed(1)} vs ${a.toFixed(1)} µs/node)`);
    figures.push({
      name: `${NEVER_HIT.length} breakpoints judged, ${strategy}, ${sizeLabel(size)} nodes`,
      value: extra,
      unit: '%',
      note: `${b.toFixed(1)} vs ${a.toFixed(1)} µs/node without`,
    });
  }
  console.log(
    `\n${NEVER_HIT.length} enabled breakpoints that never hit, ${sizeLabel(size)} nodes (median of 3): ${parts.join(', ')}`,
  );
  return figures;
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
  const figures = await overheadTable();
  console.log('\nGame of 24, puzzles 900-999, simulated model (seed 1), DEFAULT_TOT_CONFIG');
  console.log('strategy    verified output   found by the search   median nodes   median model calls');
  for (const strategy of ['beam', 'best-first', 'dfs'] as const) {
    const r = await game24(strategy);
    console.log(
      `${strategy.padEnd(10)} ${`${r.solved}/${r.puzzles}`.padStart(15)} ${`${r.bySearch}/${r.puzzles}`.padStart(21)} ${String(r.medianNodes).padStart(14)} ${String(r.medianCalls).padStart(20)}`,
    );
  }
  reportFigures('engine', figures);
}

void main();
