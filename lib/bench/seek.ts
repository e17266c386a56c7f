/**
 * `npm run bench:seek`: the browser store's figures without a browser, printed, never asserted.
 * For logs of about 1k, 10k and 100k events (recorded by the engine with the instant model, best-first so the
 * tree keeps growing): the time to read the whole log into a run store in pages of 5,000 (as the page's history
 * arrives), the time to take the last 2,000 events one flush per 5 events (a live run), the heap the store holds
 * after a full GC, and seek() to 200 random steps: median, p95 and max.
 * Uses only the store's public face (createRunStore, receiveMany, flush, seek), so the same file measures an older
 * store too. Run with --expose-gc for the heap figure (the npm script does). Not a test.
 */
import type { ExplorationEvent } from '../contract/events';
import { ExplorationControl, ThoughtTreeExecutor } from '../engine/server';
import { createRunStore } from '../store/index';
import { InstantModel } from './instant-model';
import { percentile } from './percentile';

/** BENCH_SEEK_SIZES=1000,10000 measures fewer sizes. */
const SIZES = (process.env.BENCH_SEEK_SIZES ?? '1000,10000,100000').split(',').map(Number);
const PAGE = 5_000;
const LIVE_TAIL = 2_000; // at most a fifth of the log
const SEEKS = 200;

async function recordLog(events: number): Promise<ExplorationEvent[]> {
  const log: ExplorationEvent[] = [];
  const control = new ExplorationControl();
  await new ThoughtTreeExecutor({
    explorationStrategy: 'best-first',
    maxTotalNodes: 100_000,
    maxDepth: 50,
    confidenceThreshold: 0,
    terminationConfidence: 1,
  }).explore({ name: 'bench', model: new InstantModel() }, 'benchmark goal', {
    control,
    onEvent: (e) => {
      log.push(e);
      if (log.length === events) control.abort('bench');
    },
  });
  return log.slice(0, events);
}

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = () => {
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/** A deterministic pseudo-random sequence (the same steps for the old and the new store). */
function* steps(max: number, count: number) {
  let x = 12_345;
  for (let i = 0; i < count; i++) {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    yield 1 + (x % max);
  }
}

async function main() {
  console.log(`Run store (node ${process.version}${gc ? '' : ', no --expose-gc: heap figures are noisy'})`);
  console.log('events    nodes   read log (ms)   live tail (ms)   heap (MB)   seek median / p95 / max (ms)');
  for (const size of SIZES) {
    const log = await recordLog(size);
    const nodes = log.filter((e) => e.type === 'node.created').length;
    const before = heapMb();
    const store = createRunStore(log[0]?.runId ?? 'bench', () => {});
    const history = log.slice(0, log.length - Math.min(LIVE_TAIL, Math.floor(log.length / 5)));
    let started = performance.now();
    for (let i = 0; i < history.length; i += PAGE) {
      store.getState().receiveMany(history.slice(i, i + PAGE));
      store.getState().flush();
    }
    const readMs = performance.now() - started;
    started = performance.now();
    for (let i = history.length; i < log.length; i += 5) {
      store.getState().receiveMany(log.slice(i, i + 5));
      store.getState().flush();
    }
    const liveMs = performance.now() - started;
    const heap = heapMb() - before;
    const times: number[] = [];
    for (const step of steps(log.length - 1, SEEKS)) {
      const t = performance.now();
      store.getState().seek(step);
      times.push(performance.now() - t);
      if (store.getState().tree.lastSeq !== step)
        throw new Error(`seek(${step}) shows ${store.getState().tree.lastSeq}`);
    }
    store.getState().seek(null);
    times.sort((a, b) => a - b);
    console.log(
      `${String(log.length).padStart(6)} ${String(nodes).padStart(8)} ${readMs.toFixed(0).padStart(15)} ${liveMs
        .toFixed(0)
        .padStart(
          16,
        )} ${heap.toFixed(0).padStart(11)}   ${[50, 95, 100].map((p) => percentile(times, p).toFixed(1)).join(' / ')}`,
    );
  }
}

void main();
