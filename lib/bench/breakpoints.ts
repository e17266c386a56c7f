/**
 * `npx tsx lib/bench/breakpoints.ts` (`npm run bench:breakpoints`): what the run page's breakpoints cost on big
 * runs, printed, never asserted. Builds runs of about 1k, 5k and 15k nodes (the last near 90k events) with the engine
 * and an instant model, then times, as the page does it: a finished run's query (lib/store queryHits, i.e. the
 * engine's findHits folding the whole log) for one breakpoint and for three (a score, a depth, a regular
 * expression), and a live run's stops index following the log a frame's worth of events at a time.
 */
import type { Breakpoint } from '../contract/breakpoints';
import { queryHits, StopIndex } from '../store/index';
import { InstantModel } from './instant-model';
import { recordBenchRun } from './bench-run';
import { medianMs } from './percentile';

const run = (executed: number) => recordBenchRun(executed, new InstantModel());

const time = (work: () => unknown, repeat = 5) => medianMs(work, repeat);

const ONE: Breakpoint[] = [{ id: 'a', enabled: true, condition: { kind: 'score-below', value: 0.4 } }];
const THREE: Breakpoint[] = [
  ...ONE,
  { id: 'b', enabled: true, condition: { kind: 'depth', depth: 6 } },
  {
    id: 'c',
    enabled: true,
    condition: { kind: 'text-match', field: 'thought', pattern: 'idea \\d+\\.2$', regex: true, caseSensitive: false },
  },
];

async function main() {
  console.log('breakpoints (ms; medians of 5)');
  console.log('nodes\tevents\tquery 1 bp\thits\tquery 3 bps\thits\tstops index, whole log by 200-event frames');
  for (const executed of [350, 1_750, 5_600]) {
    const events = await run(executed);
    const nodes = new Set(events.flatMap((e) => (e.type === 'node.created' ? [e.payload.nodeId] : []))).size;
    const one = time(() => queryHits(events, events.length, ONE));
    const three = time(() => queryHits(events, events.length, THREE));
    const stops = time(() => {
      const index = new StopIndex();
      for (let n = 200; n < events.length + 200; n += 200) index.read(events, Math.min(n, events.length));
    });
    console.log(
      [
        nodes,
        events.length,
        one.toFixed(1),
        queryHits(events, events.length, ONE).marks.length,
        three.toFixed(1),
        queryHits(events, events.length, THREE).marks.length,
        stops.toFixed(2),
      ].join('\t'),
    );
  }
}

void main();
