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

/**
 * The log of a search Arborist does not run (an ingest client): run.started with `external`, named scores,
 * metadata and MCTS statistics that change, the search's own prune, and two commands a person asked of it, one
 * applied (with its effect, the client's steer.prune) and one refused.
 */
export function externalSearchLog(runId = 'ext'): ExplorationEvent[] {
  const { events, add, child } = handBuiltLog();
  events.length = 0;
  add('run.started', {
    goal: 'g',
    taskId: 'my-mcts',
    agentName: 'sdk',
    modelId: 'llama',
    config: DEFAULT_TOT_CONFIG,
    external: { config: { iterations: 2, c: 1.4 }, commands: ['prune', 'pause'] },
  });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  child('a', 0.4);
  child('b', 0.6);
  child('c', 0.2);
  add('node.annotated', { nodeId: 'a', scores: { reward: 0.5 }, metadata: { state: 'x=1' }, mcts: { q: 0.5, n: 1 } });
  add('node.annotated', { nodeId: 'a', scores: { reward: null, value: 2 }, mcts: { n: 2, uct: 1.2 } });
  add('node.pruned', { nodeId: 'c', reason: 'an impossible clue' });
  add('steer.requested', { kind: 'prune', nodeId: 'b', actor: 'alice' });
  add('steer.prune', { nodeId: 'b', actor: 'alice' });
  add('steer.acked', { requestSeq: events.length - 1, outcome: 'applied', reason: null });
  add('steer.requested', { kind: 'pause', nodeId: null, actor: 'bob' });
  add('steer.acked', { requestSeq: events.length, outcome: 'refused', reason: 'busy' });
  return events.map((event) => ({ ...event, runId }));
}
