/**
 * `npm run bench:code`: the code task's figures on the bundled benchmark, printed, never asserted, next to the
 * claims of the scratchpad document (shared/seeds/000_*: 150 refactoring tasks).
 * Over every benchmark project x BENCH_CODE_SEEDS seeds (default 5), with the offline simulated model and real
 * sandboxed verification, two searches of the same project and seed:
 *   - the tree search with the task's defaults (DEFAULT_TOT_CONFIG: depth 5, width 3, beam 2);
 *   - a single pass: one proposal per step (branchFactor 1, beamWidth 1), every proposal run (no threshold), so no
 *     alternative is left to backtrack to.
 * Prints: success rate (the run ended verified); error recovery rate (runs with at least one failed verification
 * that still ended verified); generation prompt tokens per run with the compacted scratchpad vs the full history
 * (the same runs: at every generation prompt the prompt is also built with every explored node in full, its delta
 * and whole trace, and both are counted with the engine's countTokens); the time per verification (p50, p95).
 * BENCH_CODE_CONCURRENCY (default 2) runs go at once, each verification a worker and a child process.
 * Not a test: nothing here can fail a build.
 */
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import {
  countTokens,
  createEmptyTree,
  reduce,
  renderFullHistory,
  renderScratchpad,
  type CompletionRequest,
  type CompletionResponse,
  type LanguageModel,
  type ThoughtTask,
  type ThoughtTree,
} from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { benchProjects, createSimulatedModel, getTaskEntry } from '../tasks/index';
import { percentile } from './percentile';
import { reportFigures } from './figures';

const SEEDS = Number(process.env.BENCH_CODE_SEEDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CODE_CONCURRENCY ?? 2);

interface RunFigures {
  verified: boolean;
  failedVerifications: number;
  compactTokens: number;
  fullTokens: number;
  verifyMs: number[];
}

/**
 * The model as the search sees it, counting each generation prompt twice: as sent (the compacted scratchpad) and
 * with the full history in the scratchpad's place. The tree is folded from the run's own events.
 */
class TwoCountModel implements LanguageModel {
  readonly id: string;
  compact = 0;
  full = 0;
  readonly tree: ThoughtTree = createEmptyTree('bench');
  private focus: string | null = null;

  constructor(private readonly inner: LanguageModel) {
    this.id = inner.id;
  }

  onEvent(event: ExplorationEvent): void {
    reduce(this.tree, event);
    if (event.type === 'node.started' && event.payload.mode === 'expand') this.focus = event.payload.nodeId;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    if (request.purpose === 'generate' && this.focus) {
      const compacted = renderScratchpad(this.tree, this.focus);
      const full = renderFullHistory(this.tree);
      for (const message of request.messages) {
        if (message.role === 'user' && !message.content.includes(compacted)) {
          throw new Error('bench:code: the generation prompt does not hold the scratchpad the bench rebuilt');
        }
        this.compact += countTokens(message.content);
        this.full += countTokens(message.content.replace(compacted, () => full));
      }
    }
    return this.inner.complete(request);
  }
}

async function runOnce(
  task: ThoughtTask,
  projectId: string,
  seed: number,
  config: Partial<ToTConfig>,
): Promise<RunFigures> {
  const model = new TwoCountModel(createSimulatedModel({ seed }));
  const verifyMs: number[] = [];
  const timed: ThoughtTask = {
    ...task,
    runAction: async (ctx) => {
      const started = performance.now();
      const outcome = (await task.runAction?.(ctx)) ?? null;
      verifyMs.push(performance.now() - started);
      return outcome;
    },
  };
  const result = await new ThoughtTreeExecutor(config).explore(
    { name: 'bench', model },
    `project: bench/${projectId}`,
    { task: timed, onEvent: (e) => model.onEvent(e) },
  );
  const failedVerifications = Object.values(result.tree.nodes).filter((n) => n.verification?.passed === false).length;
  return {
    verified: result.verified === true,
    failedVerifications,
    compactTokens: model.compact,
    fullTokens: model.full,
    verifyMs,
  };
}

/** Runs the jobs CONCURRENCY at a time, keeping their order. */
async function pool<T>(jobs: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await (jobs[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, CONCURRENCY) }, worker));
  return out;
}

const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`);

function summarize(runs: RunFigures[]) {
  const verified = runs.filter((r) => r.verified).length;
  const withFailure = runs.filter((r) => r.failedVerifications > 0);
  const recovered = withFailure.filter((r) => r.verified).length;
  const compact = runs.reduce((s, r) => s + r.compactTokens, 0) / runs.length;
  const full = runs.reduce((s, r) => s + r.fullTokens, 0) / runs.length;
  return { verified, withFailure: withFailure.length, recovered, compact, full };
}

async function main() {
  const task = getTaskEntry('code').task;
  const projects = benchProjects();
  if (projects.length === 0) throw new Error('bench:code: no benchmark project is bundled');
  const single: Partial<ToTConfig> = { branchFactor: 1, beamWidth: 1, confidenceThreshold: 0 };
  const cases = projects.flatMap((p) => Array.from({ length: SEEDS }, (_, seed) => ({ id: p.id, seed })));
  console.log(
    `bench:code: ${projects.length} projects x ${SEEDS} seeds = ${cases.length} runs per mode, ${CONCURRENCY} at once (simulated model, real sandbox)`,
  );
  const started = performance.now();
  const tree = await pool(cases.map((c) => () => runOnce(task, c.id, c.seed, {})));
  const pass = await pool(cases.map((c) => () => runOnce(task, c.id, c.seed, single)));
  const seconds = (performance.now() - started) / 1000;

  const t = summarize(tree);
  const s = summarize(pass);
  const rows: [string, string, string, string][] = [
    ['figure', 'tree (W=3, D=5)', 'single pass', 'document (tree vs single pass)'],
    ['success rate (ended verified)', pct(t.verified, tree.length), pct(s.verified, pass.length), '90.8% vs 48.2%'],
    [
      'error recovery (>=1 failed check, still verified)',
      `${pct(t.recovered, t.withFailure)} (${t.recovered}/${t.withFailure})`,
      `${pct(s.recovered, s.withFailure)} (${s.recovered}/${s.withFailure})`,
      '84.6% vs 12.0%',
    ],
    ['generation prompt tokens per run, compacted', t.compact.toFixed(0), s.compact.toFixed(0), '12,600'],
    ['... with the full history instead', t.full.toFixed(0), s.full.toFixed(0), '34,200 (unstructured CoT)'],
    ['fewer tokens with compaction', pct(t.full - t.compact, t.full), pct(s.full - s.compact, s.full), '63.1%'],
  ];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i] as number)).join('  '));

  reportFigures('code', [
    {
      name: 'code task success rate, tree search',
      value: (t.verified / tree.length) * 100,
      unit: '%',
      note: `single pass ${((s.verified / pass.length) * 100).toFixed(1)} %; the document: 90.8 vs 48.2`,
    },
    {
      name: 'prompt tokens saved by the compacted scratchpad',
      value: ((t.full - t.compact) / t.full) * 100,
      unit: '%',
      note: 'the document: 63.1',
    },
  ]);
  const ms = [...tree, ...pass].flatMap((r) => r.verifyMs).sort((a, b) => a - b);
  console.log(
    `verifications: ${ms.length}, time each (apply + type-check + tests, ${CONCURRENCY} runs at once): p50 ${percentile(ms, 50).toFixed(0)} ms, p95 ${percentile(ms, 95).toFixed(0)} ms`,
  );
  console.log(`wall time: ${seconds.toFixed(1)} s`);
  console.log('per project (tree verified / single verified of the seeds):');
  for (const p of projects) {
    const at = (runs: RunFigures[]) => runs.filter((_, i) => cases[i]?.id === p.id);
    const tv = at(tree).filter((r) => r.verified).length;
    const sv = at(pass).filter((r) => r.verified).length;
    console.log(
      `  ${p.id.padEnd(28)} ${tv}/${SEEDS}  ${sv}/${SEEDS}  (${p.steps} step${p.steps === 1 ? '' : 's'}, ${p.kind})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
