/**
 * `npm run bench:experiments`: experiments end to end in one process, printed, never asserted. The server's services
 * on a fresh temporary SQLite file (maxConcurrentRuns 4, the default cells in flight: twice that), called through the
 * same router procedures the page and the CLI use (createCaller, the local person); the shipped Game of 24 puzzles
 * 900-999 x 3 configurations (beam 1, 3 and 5) on the offline simulated model:
 *   a. latency 0: the 300 cells from experiment.create to the experiment finished, in cells per second, beside the
 *      same 300 runs started directly with run.create (all at once, the manager's queue and limit): what the
 *      experiment's feeding costs;
 *   b. 200 ms a model call: the wall time beside the ideal (cells x one run's mean wall time / the concurrency limit),
 *      on as many of the puzzles as fit in about BENCH_EXPERIMENTS_B_SECONDS (default 240), as a pilot of 4 puzzles
 *      at 200 ms sizes it (every puzzle when they fit); the items used are printed;
 *   c. experiment.byId on (a)'s 300-cell experiment (what the page loads): the median of 10 calls, server side.
 * The page in a browser: `npm run bench:experiment-page`.
 * Not a test; not responsible for the engine's own figures (bench:engine) nor the write path's (bench:write).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExperimentView } from '../contract/experiments';
import { openExperimentBench, runExperiment } from './experiment-bench';
import { type BenchFigure, reportFigures } from './figures';
import { median } from './percentile';

const CONCURRENCY = 4;
const SHIPPED = 'game24:900-999';
const CONFIGURATIONS = [
  { label: 'b1', config: { beamWidth: 1, branchFactor: 1 } },
  { label: 'b3', config: { beamWidth: 3, branchFactor: 3 } },
  { label: 'b5', config: { beamWidth: 5, branchFactor: 5 } },
];
const LATENCY_MS = 200;
const B_BUDGET_S = Number(process.env.BENCH_EXPERIMENTS_B_SECONDS ?? 240);
const PILOT_ITEMS = 4;
const BYID_SAMPLES = 10;

/** One run's mean wall time over every ended cell of a view (each configuration's mean, weighted by its cells). */
function meanRunWallMs(view: ExperimentView): number {
  const done = view.configurations.reduce((n, c) => n + c.done, 0);
  return view.configurations.reduce((sum, c) => sum + (c.meanWallMs ?? 0) * c.done, 0) / done;
}

function configurationLines(view: ExperimentView): string[] {
  return view.configurations.map(
    (c) =>
      `    ${c.label.padEnd(4)} solved ${String(c.solved).padStart(3)}/${c.done} · errors ${c.error} · ` +
      `mean ${(c.meanModelCalls ?? 0).toFixed(1)} calls · mean wall ${(c.meanWallMs ?? 0).toFixed(0)} ms`,
  );
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-bench-experiments-'));
  const bench = openExperimentBench(path.join(dir, 'bench.db'), CONCURRENCY);
  const figures: BenchFigure[] = [];
  try {
    const dataset = await bench.caller.dataset.create({ name: SHIPPED, taskId: 'game24', shipped: SHIPPED });
    console.log(
      `experiments: ${dataset.itemCount} puzzles (${SHIPPED}) x ${CONFIGURATIONS.length} configurations ` +
        `(${CONFIGURATIONS.map((c) => c.label).join(', ')}), simulated model, maxConcurrentRuns ${CONCURRENCY}, SQLite\n`,
    );

    // a. latency 0
    const a = await runExperiment(bench, {
      name: 'bench a: latency 0',
      taskId: 'game24',
      datasetId: dataset.id,
      configurations: CONFIGURATIONS.map((c) => ({ ...c, model: { provider: 'simulated', seed: 1, latencyMs: 0 } })),
    });
    const cellsA = a.view.progress.total;
    const perSecond = cellsA / (a.ms / 1000);
    console.log(`a. latency 0: ${cellsA} cells in ${(a.ms / 1000).toFixed(2)} s = ${perSecond.toFixed(1)} cells/s`);
    for (const line of configurationLines(a.view)) console.log(line);
    figures.push({ name: `cells/s, ${cellsA} cells, latency 0`, value: perSecond, unit: 'cells/s' });

    // the same runs without the experiment: run.create for each, all at once, then every one waited for
    const direct = performance.now();
    const runIds: string[] = [];
    for (const cell of a.view.cells) {
      const configuration = CONFIGURATIONS[cell.configuration]!;
      const { id } = await bench.caller.run.create({
        taskId: 'game24',
        goal: a.view.items[cell.item]!.goal,
        config: configuration.config,
        model: { provider: 'simulated', seed: 1, latencyMs: 0 },
      });
      runIds.push(id);
    }
    for (const id of runIds) await bench.services.manager.settled(id);
    const directPerSecond = runIds.length / ((performance.now() - direct) / 1000);
    console.log(
      `   the same ${runIds.length} runs started directly (run.create, all at once): ${directPerSecond.toFixed(1)} runs/s` +
        ` · the experiment at ${((perSecond / directPerSecond) * 100).toFixed(0)}% of it`,
    );
    figures.push({
      name: `runs/s, the same ${runIds.length} runs by run.create`,
      value: directPerSecond,
      unit: 'runs/s',
    });

    // b. 200 ms a call: a pilot's wall times size the set to fit the time budget (a run's calls overlap, so the
    // calls counted in (a) overstate its wall time)
    const model200 = { provider: 'simulated' as const, seed: 1, latencyMs: LATENCY_MS };
    const configurations200 = CONFIGURATIONS.map((c) => ({ ...c, model: model200 }));
    const pilot = await runExperiment(bench, {
      name: 'bench b: pilot',
      taskId: 'game24',
      items: a.view.items.slice(0, PILOT_ITEMS).map((i) => i.goal),
      configurations: configurations200,
    });
    const secondsPerItem =
      pilot.view.configurations.reduce((sum, c) => sum + (c.meanWallMs ?? 0), 0) / 1000 / CONCURRENCY;
    const items = Math.max(1, Math.min(dataset.itemCount, Math.floor(B_BUDGET_S / Math.max(secondsPerItem, 1e-9))));
    const goals = a.view.items.slice(0, items).map((i) => i.goal);
    console.log(
      `\nb. ${LATENCY_MS} ms a call: ${items} of ${dataset.itemCount} puzzles (900-${900 + items - 1}) x ` +
        `${CONFIGURATIONS.length} = ${items * CONFIGURATIONS.length} cells (a pilot of ${PILOT_ITEMS} puzzles: ` +
        `~${secondsPerItem.toFixed(2)} s a puzzle at ${CONCURRENCY} at once; budget ~${B_BUDGET_S} s)`,
    );
    const b = await runExperiment(bench, {
      name: `bench b: ${LATENCY_MS} ms`,
      taskId: 'game24',
      items: goals,
      configurations: configurations200,
    });
    const cellsB = b.view.progress.total;
    const runWall = meanRunWallMs(b.view);
    const ideal = (cellsB * runWall) / CONCURRENCY;
    console.log(
      `   wall ${(b.ms / 1000).toFixed(1)} s · ideal ${(ideal / 1000).toFixed(1)} s (${cellsB} cells x ` +
        `${runWall.toFixed(0)} ms a run / ${CONCURRENCY}) · ${(b.ms / ideal).toFixed(2)}x the ideal`,
    );
    for (const line of configurationLines(b.view)) console.log(line);
    figures.push(
      { name: `wall time, ${cellsB} cells at ${LATENCY_MS} ms a call`, value: b.ms / 1000, unit: 's' },
      {
        name: `wall time / ideal, ${cellsB} cells at ${LATENCY_MS} ms a call`,
        value: b.ms / ideal,
        unit: 'x',
        note: `ideal ${(ideal / 1000).toFixed(1)} s`,
      },
    );

    // c. the page's query on the 300-cell experiment
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < BYID_SAMPLES; i++) {
      const t = performance.now();
      const view = await bench.caller.experiment.byId({ id: a.view.id });
      samples.push(performance.now() - t);
      bytes = JSON.stringify(view).length;
    }
    const byIdMs = median(samples);
    console.log(
      `\nc. experiment.byId, ${cellsA} cells: median ${byIdMs.toFixed(1)} ms of ${BYID_SAMPLES} ` +
        `(min ${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)}) · ${(bytes / 1024).toFixed(0)} KB as JSON`,
    );
    console.log('   the experiment page in Chromium: npm run bench:experiment-page');
    figures.push({ name: `experiment.byId, ${cellsA} cells (median of ${BYID_SAMPLES})`, value: byIdMs, unit: 'ms' });
    reportFigures('experiments', figures);
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
