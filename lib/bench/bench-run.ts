/**
 * The search the page benches record: best-first, depth up to 40, every candidate kept, until `executed` nodes ran, on
 * whatever model the bench gives (an instant one, a wordy one). Its events, in order. Not a bench by itself.
 */
import type { ExplorationEvent } from '../contract/events';
import type { LanguageModel } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';

export async function recordBenchRun(executed: number, model: LanguageModel): Promise<ExplorationEvent[]> {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor({
    explorationStrategy: 'best-first',
    maxTotalNodes: executed,
    maxDepth: 40,
    confidenceThreshold: 0,
  }).explore({ name: 'bench', model }, 'benchmark goal', { onEvent: (e) => events.push(e) });
  return events;
}
