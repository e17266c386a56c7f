/**
 * `npm run bench`: every headline bench in turn, each in its own process (so one bench's heap and caches never
 * colour the next one's figures), with its detailed output as it goes; then one table of the figures they reported
 * (lib/bench/figures.ts) with the goal beside each. `BENCH_ONLY=engine,server` runs a subset.
 * Not a test: a missed goal is printed, never an exit status; a bench that crashes is named and the rest still run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIGURES_FILE_ENV, formatFigureTable, meetsGoal, readFigures } from './figures';

/** The benches `npm run bench` runs, in order: the package.json script each one is. */
const BENCHES = [
  'engine',
  'server',
  'history',
  'ui',
  'sandbox',
  'code',
  'experiments',
  'experiment-page',
  'otel',
  'mcts',
] as const;

function main() {
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const benches = BENCHES.filter((name) => !only || only.includes(name));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arborist-figures-'));
  const file = path.join(dir, 'figures.ndjson');
  const failed: string[] = [];
  const started = performance.now();
  try {
    for (const bench of benches) {
      console.log(`\n=== npm run bench:${bench} ===\n`);
      const result = spawnSync('npm', ['run', '--silent', `bench:${bench}`], {
        stdio: 'inherit',
        env: { ...process.env, [FIGURES_FILE_ENV]: file },
      });
      if (result.status !== 0) failed.push(`bench:${bench} (exit ${result.status ?? result.signal})`);
    }
    const figures = readFigures(file);
    const minutes = (performance.now() - started) / 60_000;
    console.log(
      `\n=== summary: ${figures.length} figures from ${benches.length} bench${benches.length === 1 ? '' : 'es'} in ${minutes.toFixed(1)} min ===\n`,
    );
    console.log(formatFigureTable(figures));
    const missed = figures.filter((figure) => meetsGoal(figure) === false);
    const withGoal = figures.filter((figure) => meetsGoal(figure) !== null);
    console.log(
      `\n${withGoal.length - missed.length} of ${withGoal.length} goals met${missed.length ? `; missed: ${missed.map((f) => `${f.bench}: ${f.name}`).join('; ')}` : ''}`,
    );
    if (failed.length) console.log(`benches that did not finish: ${failed.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
