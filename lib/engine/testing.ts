/**
 * The engine's test support (vitest only: it imports vitest's expect): a log built by hand, event by event, the next
 * event of a log (the lifecycle the run manager writes around a search), and the check every deadline test makes.
 * The models tests script (ScriptedTreeModel, TimedModel) are real models in lib/models, since bench:deadline runs
 * them too. Not used by production code or benches (the linter holds this).
 */
import { expect } from 'vitest';
import { DEFAULT_TOT_CONFIG } from './config';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import type { BranchScore } from '../contract/vocabulary';
import type { ToTResult } from './types';
import { fold } from './tree';

/** What a model's own log says it answered (TimedModel in lib/models/timed.ts keeps one). */
interface AnsweringModel {
  answered(): { calls: number; inputTokens: number; outputTokens: number };
}

function handScore(composite: number): BranchScore {
  return { confidence: 0.5, progress: 0.5, novelty: 0.5, composite, reasoning: '', fallback: false };
}

/** A log built by hand: the root, and children whose fate each test chooses (seq and ts count up from 1 and 0). */
export function handBuiltLog() {
  const events: ExplorationEvent[] = [];
  const add = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]) =>
    events.push({ runId: 'r', seq: events.length + 1, ts: events.length, type, payload } as ExplorationEvent);
  add('run.started', {
    goal: 'g',
    taskId: 'open-goal',
    agentName: 'a',
    modelId: 'm',
    config: DEFAULT_TOT_CONFIG,
  });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  const child = (id: string, composite: number) =>
    add('node.created', {
      nodeId: id,
      parentId: 'n0',
      branch: { thought: id, proposedAction: { type: 'response', content: id } },
      score: handScore(composite),
    });
  const complete = (id: string, verified?: boolean) => {
    add('node.started', { nodeId: id, mode: 'execute' });
    add('node.completed', { nodeId: id, result: { response: id, iterations: 0, isAnswer: true } });
    if (verified !== undefined) add('node.verified', { nodeId: id, passed: verified, trace: 'checked' });
  };
  const fail = (id: string) => {
    complete(id, false);
    add('node.failed', { nodeId: id, reason: 'verification failed' });
  };
  return { events, add, child, complete, fail };
}

/**
 * What every run must show (issue 10, item 2): the log, the result and the model's own log (the outside truth) tell
 * the same calls and tokens, cut short or not.
 */
export function expectEveryAnsweredCallCounted({
  model,
  events,
  result,
}: {
  model: AnsweringModel;
  events: readonly ExplorationEvent[];
  result: ToTResult;
}): void {
  const answered = model.answered();
  expect(fold(events).stats).toEqual(result.stats);
  expect(result.stats.modelCalls).toBe(answered.calls);
  expect(result.stats.tokenUsage).toEqual({
    inputTokens: answered.inputTokens,
    outputTokens: answered.outputTokens,
    totalTokens: answered.inputTokens + answered.outputTokens,
  });
  expect(result.usage.inputTokens).toBe(answered.inputTokens);
  expect(events.filter((e) => e.type === 'model.called')).toHaveLength(answered.calls);
}

/** The event that follows a log (next seq, a millisecond later), e.g. run.failed as the server writes it. */
export function followEvent<K extends ExplorationEventType>(
  log: readonly ExplorationEvent[],
  type: K,
  payload: EventPayloads[K],
): ExplorationEvent {
  const last = log.at(-1);
  if (!last) throw new Error('followEvent: the log is empty');
  return { runId: last.runId, seq: last.seq + 1, ts: last.ts + 1, type, payload } as ExplorationEvent;
}
