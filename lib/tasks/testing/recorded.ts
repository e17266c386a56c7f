/**
 * Test support for the run page's pure modules (lib/event-log, lib/store): real event logs recorded from the
 * engine, so descriptions, filters and summaries are tested against what the engine actually emits. *.test.ts only.
 */
import type { ExplorationEvent } from '@/lib/contract/events';
import { fold, type ThoughtTree } from '@/lib/engine/index';
import { ExplorationControl, ThoughtTreeExecutor } from '@/lib/engine/server';
import { createSimulatedModel, getTaskEntry } from '../index';

/** A log recorded from the engine in this process and its folded tree (not stored anywhere: lib/harness' StoredRun is). */
export interface RecordedLog {
  events: ExplorationEvent[];
  tree: ThoughtTree;
}

/** The demo's Game of 24 search (seed 3): drops, failed verifications, backtracks and a verified answer. */
export async function recordGame24(seed = 3): Promise<RecordedLog> {
  const events: ExplorationEvent[] = [];
  let t = 1_000_000;
  await new ThoughtTreeExecutor().explore({ name: 'test', model: createSimulatedModel({ seed }) }, '4 9 10 13', {
    task: getTaskEntry('game24').task,
    onEvent: (e) => events.push(e),
    now: () => (t += 7),
  });
  return { events, tree: fold(events) };
}

/** An open-goal search a person steers: pauses, steps, resumes, prunes a node and asks for an expansion. */
export async function recordSteeredRun(): Promise<RecordedLog> {
  const events: ExplorationEvent[] = [];
  const control = new ExplorationControl();
  let steered = false;
  await new ThoughtTreeExecutor({ maxTotalNodes: 12, maxDepth: 3, terminationConfidence: 1 }).explore(
    { name: 'test', model: createSimulatedModel({ seed: 5 }) },
    'Plan a small garden',
    {
      task: getTaskEntry('open-goal').task,
      control,
      onEvent: (e) => {
        events.push(e);
        if (!steered && e.type === 'node.expanded' && e.payload.childIds.length >= 2) {
          steered = true;
          control.prune(e.payload.childIds[1] as string, 'alice');
          control.expand(e.payload.nodeId, 'bob');
        }
      },
    },
  );
  return { events, tree: fold(events) };
}

/**
 * A Monte Carlo tree search on the Game of 24 (seed 3, 12 iterations at most): selections with visited and unvisited
 * candidates, values from scores, failed verifications and, at its last iteration, a verified answer.
 */
export async function recordMcts(): Promise<RecordedLog> {
  const events: ExplorationEvent[] = [];
  let t = 1_000_000;
  await new ThoughtTreeExecutor({
    explorationStrategy: 'mcts',
    mctsIterations: 12,
    branchFactor: 3,
    beamWidth: 1,
  }).explore({ name: 'test', model: createSimulatedModel({ seed: 3 }) }, '4 9 10 13', {
    task: getTaskEntry('game24').task,
    onEvent: (e) => events.push(e),
    now: () => (t += 7),
  });
  return { events, tree: fold(events) };
}
