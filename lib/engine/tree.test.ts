// Rules 15 and 16: folding the emitted events gives the executor's tree (every strategy, many seeds), and a run
// resumed from any prefix of its log continues exactly as the uninterrupted run did.
import { describe, expect, it } from 'vitest';
import { createRng, ScriptedTreeModel, type TreeSpec } from '../models/index';
import type { ExplorationEvent } from '../contract/events';
import type { ExplorationStrategy, ToTConfig } from '../contract/vocabulary';
import { ThoughtTreeExecutor } from './executor';
import { externalSearchLog, followEvent, handBuiltLog } from './testing';
import { EventOrderError, createEmptyTree, fold, reduce } from './tree';
import { clockless } from './clockless';

/** A random tree: 0-4 children per thought, scores across the threshold, some terminating, some sub-goals. */
function randomSpec(seed: number): TreeSpec {
  const rng = createRng(seed);
  const spec: TreeSpec = { children: {}, scores: {}, confidence: {}, subGoals: [] };
  const grow = (thought: string, depth: number) => {
    if (depth >= 4) return;
    const count = rng.int(5);
    const kids = Array.from({ length: count }, (_, i) => `${thought || 'T'}.${i}`);
    spec.children[thought] = kids;
    for (const kid of kids) {
      spec.scores[kid] = Math.round((0.05 + rng.next() * 0.9) * 100) / 100;
      if (rng.next() < 0.08) (spec.confidence as Record<string, number>)[kid] = 0.85;
      if (rng.next() < 0.2) spec.subGoals?.push(kid);
      grow(kid, depth + 1);
    }
  };
  grow('', 0);
  const garbage = new Set(Object.keys(spec.children).filter(() => rng.next() < 0.1));
  spec.raw = {
    generate: (r) => {
      const text = r.messages.at(-1)?.content ?? '';
      return [...garbage].some((g) => g && text.includes(`. ${g}\n\n`)) ? 'no JSON today' : null;
    },
    execute: (r) =>
      r.messages.length > 2 && r.messages.length < 5 ? null : r.messages.length === 2 ? 'thinking CONTINUE' : null,
  };
  return spec;
}

async function record(seed: number, strategy: ExplorationStrategy, config: Partial<ToTConfig> = {}) {
  const events: ExplorationEvent[] = [];
  const groups: number[] = [];
  const result = await new ThoughtTreeExecutor({
    explorationStrategy: strategy,
    maxDepth: 4,
    maxTotalNodes: 30,
    ...config,
  }).explore({ name: 'contract', model: new ScriptedTreeModel(randomSpec(seed)) }, `goal ${seed}`, {
    runId: `run-${seed}`,
    onEvent: (e) => events.push(e),
    onCommit: (group) => groups.push((group.at(-1) as ExplorationEvent).seq),
    now: () => 1_000 + events.length,
  });
  return { result, events, groups };
}

const STRATEGIES: ExplorationStrategy[] = ['beam', 'best-first', 'dfs'];
const SEEDS = Array.from({ length: 25 }, (_, i) => i + 1);

describe('rule 15: fold(events) equals the executor tree', () => {
  it.each(STRATEGIES)('%s, 25 seeds', async (strategy) => {
    let backtracks = 0;
    for (const seed of SEEDS) {
      const { result, events } = await record(seed, strategy);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      // through JSON, as the events travel to the database and the browser
      const folded = fold(JSON.parse(JSON.stringify(events)) as ExplorationEvent[]);
      expect(folded).toEqual(JSON.parse(JSON.stringify(result.tree)));
      backtracks += result.stats.backtrackCount;
    }
    expect(backtracks).toBeGreaterThan(0); // the seeds do exercise dead ends
  });
});

/** The log without seq, clocks and the resume marker: what happened, in order. */
const story = (events: ExplorationEvent[]) =>
  events.filter((e) => e.type !== 'run.resumed').map((e) => ({ type: e.type, payload: clockless(e).payload }));

describe('rule 16: resume from a folded log', () => {
  it.each(STRATEGIES)('%s: resuming from any cut gives the uninterrupted run', async (strategy) => {
    for (const seed of [3, 7, 11]) {
      const whole = await record(seed, strategy);
      // every group boundary: storage writes groups whole, so a log can end after any of them, including
      // right after a node.started (a crash in the middle of a step)
      expect(whole.groups.at(-1)).toBe(whole.events.length);
      expect(whole.groups.some((seq) => whole.events[seq - 1]?.type === 'node.started')).toBe(true);
      for (const cut of whole.groups.slice(0, -1)) {
        const prefix = whole.events.slice(0, cut);
        const rest: ExplorationEvent[] = [];
        const resumed = await new ThoughtTreeExecutor().resume(
          { name: 'contract', model: new ScriptedTreeModel(randomSpec(seed)) },
          prefix,
          { onEvent: (e) => rest.push(e) },
        );
        expect(rest[0]?.type).toBe('run.resumed');
        expect(rest[0]?.seq).toBe(cut + 1);
        // a step cut short is redone: the dangling node.started is superseded
        const kept = prefix.at(-1)?.type === 'node.started' ? prefix.slice(0, -1) : prefix;
        expect(story([...kept, ...rest])).toEqual(story(whole.events));
        expect(resumed.output).toBe(whole.result.output);
        expect(resumed.stats).toEqual(whole.result.stats);
        expect(resumed.tree.nodeOrder).toEqual(whole.result.tree.nodeOrder);
        expect(fold([...prefix, ...rest])).toEqual(resumed.tree);
      }
    }
  });

  it('returns a finished run as it is', async () => {
    const whole = await record(5, 'beam');
    const model = new ScriptedTreeModel(randomSpec(5));
    const again = await new ThoughtTreeExecutor().resume({ name: 'c', model }, whole.events);
    expect(model.calls).toHaveLength(0);
    expect(again.output).toBe(whole.result.output);
  });
});

describe('reduce', () => {
  it('ignores an event it has already applied and refuses a gap', async () => {
    const { events } = await record(2, 'beam');
    const tree = fold(events.slice(0, 10));
    const before = JSON.stringify(tree);
    reduce(tree, events[4] as ExplorationEvent);
    expect(JSON.stringify(tree)).toBe(before);
    expect(() => reduce(tree, events[12] as ExplorationEvent)).toThrow(EventOrderError);
  });

  it('replaces a changed node object and keeps unchanged ones (for React selectors)', async () => {
    const { events } = await record(4, 'beam');
    const tree = fold(
      events.slice(
        0,
        events.findIndex((e) => e.type === 'node.started' && e.payload.mode === 'execute'),
      ),
    );
    const started = events.find((e) => e.type === 'node.started' && e.payload.mode === 'execute') as ExplorationEvent;
    const id = (started.payload as { nodeId: string }).nodeId;
    const snapshot = { ...tree.nodes };
    reduce(tree, started);
    expect(tree.nodes[id]).not.toBe(snapshot[id]);
    expect(tree.nodes.n0).toBe(snapshot.n0);
  });

  it('starts from an empty tree', () => {
    expect(createEmptyTree('r').nodes).toEqual({});
  });
});

describe("a run's lifecycle in its log", () => {
  const queued = (runId: string): ExplorationEvent => ({
    runId,
    seq: 1,
    ts: 0,
    type: 'run.queued',
    payload: { reason: 'new' },
  });

  it('is queued before run.started, and the search continues its seqs', async () => {
    const events: ExplorationEvent[] = [];
    const log = [queued('q')];
    expect(fold(log).status).toBe('queued');
    await new ThoughtTreeExecutor().explore({ name: 'c', model: new ScriptedTreeModel(randomSpec(3)) }, 'goal', {
      log,
      onEvent: (e) => events.push(e),
    });
    expect(events[0]).toMatchObject({ runId: 'q', seq: 2, type: 'run.started' });
    const statuses = [...log, ...events].map((_, i, all) => fold(all.slice(0, i + 1)).status);
    expect(statuses[0]).toBe('queued');
    expect(statuses[1]).toBe('running');
    expect(statuses.at(-1)).toBe('finished');
  });

  it('turns interrupted, then queued, then back to what it was (running or paused) when resumed', () => {
    const { events, add } = handBuiltLog();
    add('node.queued', { nodeId: 'n0', mode: 'expand', urgent: false });
    add('node.started', { nodeId: 'n0', mode: 'expand' });
    const running = [...events];
    add('steer.pause', { actor: 'bob' });
    const paused = [...events];
    for (const [log, before] of [
      [running, 'running'],
      [paused, 'paused'],
    ] as const) {
      const life = [...log];
      life.push(followEvent(life, 'run.interrupted', { reason: 'the server stopped' }));
      expect(fold(life).status).toBe('interrupted');
      life.push(followEvent(life, 'run.queued', { reason: 'resume' }));
      expect(fold(life).status).toBe('queued');
      life.push(followEvent(life, 'run.resumed', { rolledBackNodeId: 'n0' }));
      const tree = fold(life);
      expect(tree.status).toBe(before);
      expect(tree.resumeStatus).toBeNull();
      // the step the restart cut short is rolled back: the root waits in the frontier again
      expect(tree.nodes.n0?.status).toBe('completed');
      expect(tree.frontier.n0).toBeDefined();
    }
  });

  it('fails with its reason and time, and rolls back the step under way', () => {
    const { events, add } = handBuiltLog();
    add('node.queued', { nodeId: 'n0', mode: 'expand', urgent: false });
    add('node.started', { nodeId: 'n0', mode: 'expand' });
    const failed = followEvent(events, 'run.failed', { error: 'database is locked' });
    const tree = fold([...events, failed]);
    expect(tree.status).toBe('failed');
    expect(tree.failure).toBe('database is locked');
    expect(tree.finishedAt).toBe(failed.ts);
    expect(tree.inFlight).toBeNull();
  });

  it('keeps the status of a log written before lifecycle events (run.resumed with nothing before it)', () => {
    const { events, add } = handBuiltLog();
    add('steer.pause', { actor: 'bob' });
    add('run.resumed', { rolledBackNodeId: null });
    expect(fold(events).status).toBe('paused');
  });

  it('a queued log is resumed with run.resumed even when no resume is to be announced (a fork)', async () => {
    const { events, add } = handBuiltLog();
    add('node.queued', { nodeId: 'n0', mode: 'expand', urgent: false });
    const log = [...events, followEvent(events, 'run.queued', { reason: 'fork' })];
    const rest: ExplorationEvent[] = [];
    await new ThoughtTreeExecutor().resume({ name: 'c', model: new ScriptedTreeModel(randomSpec(3)) }, log, {
      announceResume: false,
      onEvent: (e) => rest.push(e),
    });
    expect(rest[0]).toMatchObject({ seq: log.length + 1, type: 'run.resumed' });
    expect(fold([...log, ...rest]).status).toBe('finished');
  });
});

describe('a search Arborist does not run', () => {
  it('keeps its config, named scores, metadata, MCTS statistics, its own prunes and the commands asked of it', () => {
    const tree = fold(externalSearchLog());
    expect(tree.external).toEqual({ config: { iterations: 2, c: 1.4 }, commands: ['prune', 'pause'] });
    const a = tree.nodes.a;
    expect(a?.scores).toEqual({ value: 2 });
    expect(a?.metadata).toEqual({ state: 'x=1' });
    expect(a?.mcts).toEqual({ q: 0.5, n: 2, uct: 1.2 });
    expect(tree.nodes.c).toMatchObject({ status: 'pruned', prunedBy: null, pruneReason: 'an impossible clue' });
    expect(tree.nodes.b).toMatchObject({ status: 'pruned', prunedBy: 'alice' });
    expect(tree.stats).toMatchObject({ searchPrunes: 1, steeredPrunes: 1 });
    expect(tree.commands.map((c) => [c.kind, c.nodeId, c.actor, c.outcome, c.reason])).toEqual([
      ['prune', 'b', 'alice', 'applied', null],
      ['pause', null, 'bob', 'refused', 'busy'],
    ]);
  });

  it('gives a node its start when the search first works on it, expanding it or running it', () => {
    // an external search (or an imported log) may only ever expand a node: that is when it started
    const log = externalSearchLog();
    log.push(followEvent(log, 'node.started', { nodeId: 'a', mode: 'expand' }));
    const grown = log.at(-1)!.seq;
    log.push(followEvent(log, 'node.expanded', { nodeId: 'a', childIds: [] }));
    log.push(followEvent(log, 'node.started', { nodeId: 'a', mode: 'execute' }));
    const ran = log.at(-1)!.seq;
    expect(fold(log.slice(0, -1)).nodes.a?.startedSeq).toBe(grown);
    // running it later is when it ran (the engine's "started": its execution), as before
    expect(fold(log).nodes.a?.startedSeq).toBe(ran);
    // a node run first keeps its run's start when it is expanded afterwards
    log.push(
      followEvent(log, 'node.completed', { nodeId: 'a', result: { response: 'r', iterations: 0, isAnswer: false } }),
    );
    log.push(followEvent(log, 'node.started', { nodeId: 'a', mode: 'expand' }));
    expect(fold(log).nodes.a?.startedSeq).toBe(ran);
  });

  it('shows a command as requested until the client answers', () => {
    const log = externalSearchLog();
    const beforeAck = fold(
      log.slice(
        0,
        log.findIndex((e) => e.type === 'steer.acked'),
      ),
    );
    expect(beforeAck.commands.map((c) => c.outcome)).toEqual(['requested']);
    // a command never answered says since when it waits; an answered one says when
    const request = log.find((e) => e.type === 'steer.requested');
    expect(beforeAck.commands[0]).toMatchObject({ requestedAt: request?.ts, answeredAt: null });
    const ack = log.find((e) => e.type === 'steer.acked');
    expect(fold(log).commands[0]).toMatchObject({ requestedAt: request?.ts, answeredAt: ack?.ts });
  });

  it('ends a command still unanswered when the run ends, saying how it ended; a late answer still counts', () => {
    const asked = () => {
      const log = externalSearchLog();
      log.push(followEvent(log, 'steer.requested', { kind: 'prune', nodeId: 'a', actor: 'carol' }));
      return log;
    };
    const ends = {
      finished: {
        type: 'run.finished',
        payload: {
          reason: 'terminated',
          detail: null,
          bestNodeId: null,
          output: '',
          answerSource: 'none',
          success: false,
          verified: null,
        },
      },
      aborted: {
        type: 'run.finished',
        payload: {
          reason: 'aborted',
          detail: null,
          bestNodeId: null,
          output: '',
          answerSource: 'none',
          success: false,
          verified: null,
        },
      },
      failed: { type: 'run.failed', payload: { error: 'boom' } },
      interrupted: { type: 'run.interrupted', payload: { reason: 'client silent' } },
    } as const;
    const words = {
      finished: 'the run finished before the client answered',
      aborted: 'the run was aborted before the client answered',
      failed: 'the run failed before the client answered',
      interrupted: 'the run was interrupted before the client answered',
    };
    for (const [how, end] of Object.entries(ends) as [keyof typeof ends, (typeof ends)[keyof typeof ends]][]) {
      const log = asked();
      log.push(followEvent(log, end.type, end.payload as never));
      const tree = fold(log);
      // the answered ones keep their answers; the one nobody answered is ended, with the way the run ended
      expect(tree.commands.map((c) => [c.kind, c.outcome, c.reason])).toEqual([
        ['prune', 'applied', null],
        ['pause', 'refused', 'busy'],
        ['prune', 'ended', words[how]],
      ]);
      expect(tree.commands.at(-1)).toMatchObject({ answeredAt: null, ackSeq: null });
    }
    // a client back after an interruption may still answer what it had taken: its answer is the command's outcome
    const log = asked();
    const request = log.at(-1)!.seq;
    log.push(followEvent(log, 'run.interrupted', { reason: 'client silent' }));
    log.push(followEvent(log, 'run.resumed', { rolledBackNodeId: null }));
    log.push(followEvent(log, 'steer.acked', { requestSeq: request, outcome: 'applied', reason: null }));
    expect(fold(log).commands.at(-1)).toMatchObject({ outcome: 'applied', ackSeq: log.at(-1)!.seq });
  });

  describe('a pause the server asks for at a breakpoint', () => {
    const runTo = { id: 'to-a', enabled: true, condition: { kind: 'node-runs' as const, nodeId: 'a' } };
    const failed = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' as const } };
    /** The external log with breakpoints set, then a pause asked for at `hit` (its seq: the event before it). */
    function asked(breakpoint: typeof runTo | typeof failed) {
      const log = externalSearchLog();
      log.push(followEvent(log, 'breakpoints.set', { breakpoints: [runTo, failed], actor: 'ada' }));
      log.push(followEvent(log, 'node.started', { nodeId: 'a', mode: 'execute' }));
      const hit = {
        breakpointId: breakpoint.id,
        condition: breakpoint.condition,
        seq: log.at(-1)!.seq,
        eventType: 'node.started',
        nodeId: 'a',
        detail: 'a is about to run (execute)',
      };
      log.push(followEvent(log, 'steer.requested', { kind: 'pause', nodeId: null, actor: 'breakpoint', hit }));
      return { log, hit, requestSeq: log.at(-1)!.seq };
    }

    it('says why the run stops, and turns a "run to here" off once it is reached, as a run.paused hit does', () => {
      const { log, hit } = asked(runTo);
      const tree = fold(log);
      expect(tree.breakpointHit).toEqual(hit);
      expect(tree.commands.at(-1)).toMatchObject({ kind: 'pause', actor: 'breakpoint', outcome: 'requested', hit });
      expect(tree.breakpoints.map((b) => [b.id, b.enabled])).toEqual([
        ['to-a', false],
        ['vf', true],
      ]);
      log.push(followEvent(log, 'steer.pause', { actor: 'breakpoint' }));
      log.push(followEvent(log, 'steer.resume', { actor: 'ada' }));
      expect(fold(log.slice(0, -1))).toMatchObject({ status: 'paused', breakpointHit: hit });
      expect(fold(log)).toMatchObject({ status: 'running', breakpointHit: null });
    });

    it('says nothing of a stop once the client refuses the pause: its search goes on', () => {
      const { log, requestSeq } = asked(failed);
      log.push(followEvent(log, 'steer.acked', { requestSeq, outcome: 'refused', reason: 'mid-rollout' }));
      expect(fold(log)).toMatchObject({ status: 'running', breakpointHit: null });
      // a person's refused command leaves a breakpoint's stop alone
      const other = asked(failed);
      other.log.push(followEvent(other.log, 'steer.requested', { kind: 'step', nodeId: null, actor: 'bob' }));
      const bobs = other.log.at(-1)!.seq;
      other.log.push(followEvent(other.log, 'steer.acked', { requestSeq: bobs, outcome: 'refused', reason: 'busy' }));
      expect(fold(other.log).breakpointHit).toEqual(other.hit);
    });
  });
});
