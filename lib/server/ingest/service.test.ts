// External runs through the ingest service, on real SQLite through real Prisma (no HTTP: the routes are one call
// each, and e2e/ingest-api.spec.ts drives them): idempotent batches by the client's seq, precise 400s that write
// nothing, operations as the engine's events, steering flowing to the client and back, heartbeats.
import { describe, expect, it } from 'vitest';
import type { Breakpoint } from '../../contract/breakpoints';
import type { ExplorationEvent } from '../../contract/events';
import type { IngestItemInput } from '../../contract/ingest';
import { MAX_METADATA_KEYS, MAX_METADATA_VALUE_CHARS } from '../../contract/vocabulary';
import { fold, type ThoughtTree } from '../../engine/index';
import { countEvents, listEvents } from '../run-log/events';
import { listNodes } from '../run-log/nodes';
import { latestTreeText } from '../run-log/snapshots';
import { getRun } from '../repositories/runs';
import { BACKENDS } from '../testing/db';
import { servicesPerTest, type TestServices } from '../testing/services';
import { isIngestRefusal } from './refusal';

const services = servicesPerTest();

const creator = { ownerId: null, actor: 'tester' };

async function newRun(s: TestServices, commands: string[] = ['prune', 'pause', 'resume']) {
  return s.ingest.create(
    {
      goal: 'make 24 from 4 9 10 13',
      task: 'my-tot',
      model: 'llama-3',
      config: { beam: 3 },
      commands,
      agent: 'my-tot-loop',
    },
    creator,
  );
}

/** A root and two children, the first with named scores. */
const opening: IngestItemInput[] = [
  { seq: 1, op: 'node', id: 'root', parent: null },
  { seq: 2, op: 'node', id: 'a', parent: 'root', thought: '13 - 9 = 4', score: 0.7, scores: { value: 3 } },
  { seq: 3, op: 'node', id: 'b', parent: 'root', thought: '10 - 4 = 6', score: 0.4 },
];

/** What a refused call answered (status and body), or a failure when it was not refused. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isIngestRefusal(error)) return { status: error.status, ...error.body };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('creating an external run', () => {
  it('stores a running run owned by its creator, whose log opens with run.queued and run.started (external)', async () => {
    const s = services.create();
    const created = await newRun(s);
    expect(created).toMatchObject({ nextSeq: 1, url: `/runs/${created.runId}`, heartbeatMs: 5_000 });
    const run = await getRun(s.prisma, created.runId);
    expect(run).toMatchObject({ status: 'running', taskId: 'my-tot', modelLabel: 'llama-3' });
    expect(run?.config).toMatchObject({ confidenceThreshold: 0, terminationConfidence: 1 });
    const log = await listEvents(s.prisma, created.runId);
    expect(log.map((e) => e.type)).toEqual(['run.queued', 'run.started']);
    expect(log[0]!.payload).toEqual({ reason: 'new', actor: 'tester' });
    expect(log[1]!.payload).toMatchObject({
      external: { config: { beam: 3 }, commands: ['prune', 'pause', 'resume'] },
    });
  });

  it('refuses an empty goal, naming the field', async () => {
    const s = services.create();
    expect(await refusal(s.ingest.create({ goal: ' ' }, creator))).toMatchObject({
      status: 400,
      error: 'invalid',
      issues: [{ path: 'goal', message: 'the goal is empty' }],
    });
  });
});

describe('appending batches', () => {
  it('turns operations into the engine events: a node with scores is node.created then node.annotated', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const answer = await s.ingest.append(runId, [
      ...opening,
      { seq: 4, op: 'start', node: 'a' },
      { seq: 5, op: 'call', node: 'a', response: '4 * 6 = 24', inputTokens: 10, outputTokens: 5, cost: 0.001 },
      { seq: 6, op: 'complete', node: 'a', response: '24', answer: true },
      { seq: 7, op: 'verify', node: 'a', passed: true, trace: 'ok' },
      { seq: 8, op: 'prune', node: 'b', reason: 'an impossible state' },
      { seq: 9, op: 'annotate', node: 'a', mcts: { q: 0.5, n: 2 } },
      { seq: 10, op: 'finish', output: '24', best: 'a', success: true },
    ]);
    expect(answer).toEqual({ accepted: 10, duplicates: 0, nextSeq: 11, status: 'finished' });
    const log = await listEvents(s.prisma, runId);
    expect(log.slice(2).map((e) => e.type)).toEqual([
      'node.created',
      'node.created',
      'node.annotated',
      'node.created',
      'node.started',
      'model.called',
      'node.completed',
      'node.verified',
      'node.pruned',
      'node.annotated',
      'run.finished',
    ]);
    const tree = fold(log);
    expect(tree.nodes.a).toMatchObject({ status: 'completed', scores: { value: 3 }, mcts: { q: 0.5, n: 2 } });
    expect(tree.nodes.a?.score?.composite).toBe(0.7);
    expect(tree.nodes.b).toMatchObject({ status: 'pruned', pruneReason: 'an impossible state' });
    expect(tree.modelId).toBe('llama-3');
    const run = await getRun(s.prisma, runId);
    expect(run).toMatchObject({ status: 'finished', output: '24', success: true, totalNodes: 2, cost: 0.001 });
    const nodes = await listNodes(s.prisma, runId);
    expect(nodes.find((n) => n.nodeId === 'b')?.status).toBe('pruned');
  });

  it('stores a retried batch once and counts its items as duplicates', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    const stored = await countEvents(s.prisma, runId);
    expect(await s.ingest.append(runId, opening)).toMatchObject({ accepted: 0, duplicates: 3, nextSeq: 4 });
    expect(await countEvents(s.prisma, runId)).toBe(stored);
    // a batch that overlaps the stored end: the old half is recognised, the new half stored
    const more: IngestItemInput[] = [opening[2]!, { seq: 4, op: 'node', id: 'c', parent: 'a', thought: 'c' }];
    expect(await s.ingest.append(runId, more)).toMatchObject({ accepted: 1, duplicates: 1, nextSeq: 5 });
    expect(Object.keys(fold(await listEvents(s.prisma, runId)).nodes).sort()).toEqual(['a', 'b', 'c', 'root']);
  });

  it('refuses a gap with 409 and the seq it expects, writing nothing', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    const before = await countEvents(s.prisma, runId);
    expect(await refusal(s.ingest.append(runId, [{ seq: 6, op: 'fail', node: 'a', reason: 'x' }]))).toMatchObject({
      status: 409,
      error: 'gap',
      expectedSeq: 4,
    });
    expect(await countEvents(s.prisma, runId)).toBe(before);
  });

  it('refuses a different item under a stored seq with 409 conflict', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    const changed = { ...opening[1]!, thought: 'something else' } as IngestItemInput;
    const answer = await refusal(s.ingest.append(runId, [changed]));
    expect(answer).toMatchObject({ status: 409, error: 'conflict', expectedSeq: 4 });
    expect(answer.message).toContain('seq 2');
  });

  it('refuses a malformed batch with 400 naming the field, and writes none of it', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const before = await countEvents(s.prisma, runId);
    const bad = [
      opening[0],
      opening[1],
      { seq: 3, type: 'node.failed', payload: { nodeId: '', reason: 'x' } },
      { seq: 4, op: 'explode', node: 'a' },
    ];
    const answer = await refusal(s.ingest.append(runId, bad));
    expect(answer).toMatchObject({ status: 400, error: 'invalid' });
    expect(answer.issues?.map((i) => i.path)).toEqual(['items[2].payload.nodeId', 'items[3].op']);
    expect(answer.message).toMatch(/^items\[2\]\.payload\.nodeId: /);
    expect(await countEvents(s.prisma, runId)).toBe(before);
  });

  it('refuses a batch whose events do not fit the tree (a node under no parent), naming the item, writing nothing', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const before = await countEvents(s.prisma, runId);
    const answer = await refusal(
      s.ingest.append(runId, [opening[0]!, { seq: 2, op: 'node', id: 'x', parent: 'nowhere' }]),
    );
    expect(answer).toMatchObject({ status: 400, error: 'invalid', issues: [{ path: 'items[1]' }] });
    expect(answer.message).toContain('nowhere');
    expect(await countEvents(s.prisma, runId)).toBe(before);
    // and the run still takes the good half afterwards
    expect(await s.ingest.append(runId, [opening[0]!])).toMatchObject({ accepted: 1, nextSeq: 2 });
  });

  it("holds a node's thought to the imports' cap, naming the item", async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const long = 'x'.repeat(100_001);
    const answer = await refusal(
      s.ingest.append(runId, [opening[0]!, { seq: 2, op: 'node', id: 'a', parent: 'root', thought: long }]),
    );
    expect(answer).toMatchObject({ status: 400, issues: [{ path: 'items[1]' }] });
    expect(answer.message).toContain('payload.branch.thought: 100,001 characters, over the 100,000-character cap');
  });

  it.each(BACKENDS)(
    "holds a node's metadata to the contract's caps (a value's JSON, the number of keys), naming the item, the key and the cap, writing nothing (%s)",
    async (backend) => {
      const s = await services.open(backend);
      const { runId } = await newRun(s);
      await s.ingest.append(runId, opening);
      const written = async () => [await countEvents(s.prisma, runId), (await listNodes(s.prisma, runId)).length];
      const before = await written();
      const big = 'x'.repeat(MAX_METADATA_VALUE_CHARS); // its JSON has two quotes more than the cap
      const tooMany = Object.fromEntries(Array.from({ length: MAX_METADATA_KEYS + 1 }, (_, i) => [`k${i}`, i]));
      const cases: [IngestItemInput, string][] = [
        [
          { seq: 4, op: 'node', id: 'c', parent: 'root', metadata: { state: big } },
          'items[0].metadata.state: 131,074 characters of JSON, over the 131,072-character cap on a metadata value',
        ],
        [
          { seq: 4, op: 'annotate', node: 'a', metadata: tooMany },
          "items[0].metadata: 65 keys, over the 64-key cap on a node's metadata",
        ],
        [
          { seq: 4, type: 'node.annotated', payload: { nodeId: 'a', metadata: { nested: { deep: [big] } } } },
          'items[0].payload.metadata.nested: 131,085 characters of JSON, over the 131,072-character cap on a metadata value',
        ],
      ];
      for (const [item, message] of cases) {
        const answer = await refusal(s.ingest.append(runId, [item]));
        expect(answer).toMatchObject({ status: 400, error: 'invalid' });
        expect(answer.message).toBe(message);
        expect(await written()).toEqual(before);
      }
      // at the caps exactly, it is stored
      const fits = 'x'.repeat(MAX_METADATA_VALUE_CHARS - 2);
      const most = Object.fromEntries(Object.entries(tooMany).slice(1));
      expect(
        await s.ingest.append(runId, [
          { seq: 4, op: 'annotate', node: 'a', metadata: { state: fits } },
          { seq: 5, op: 'annotate', node: 'b', metadata: most },
        ]),
      ).toMatchObject({ accepted: 2 });
    },
  );

  it("holds the keys a node's metadata gathers over many items to the same cap, naming the item, writing nothing", async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    const keys = (from: number, count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${from + i}`, i]));
    await s.ingest.append(runId, [{ seq: 4, op: 'annotate', node: 'a', metadata: keys(0, MAX_METADATA_KEYS) }]);
    const before = await countEvents(s.prisma, runId);
    const answer = await refusal(
      s.ingest.append(runId, [{ seq: 5, op: 'annotate', node: 'a', metadata: keys(64, 1) }]),
    );
    expect(answer).toMatchObject({ status: 400, issues: [{ path: 'items[0]' }] });
    expect(answer.message).toContain(`node "a"'s metadata: 65 keys, over the 64-key cap on a node's metadata`);
    expect(await countEvents(s.prisma, runId)).toBe(before);
    // a key replaced or removed (null) gathers nothing
    expect(
      await s.ingest.append(runId, [{ seq: 5, op: 'annotate', node: 'a', metadata: { k0: 'again', k1: null } }]),
    ).toMatchObject({ accepted: 1 });
  });

  it('refuses items after the finish with 409 closed', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, [...opening, { seq: 4, op: 'finish' }]);
    expect(await refusal(s.ingest.append(runId, [{ seq: 5, op: 'fail', node: 'a', reason: 'late' }]))).toMatchObject({
      status: 409,
      error: 'closed',
      expectedSeq: 5,
    });
  });
});

describe('finishing', () => {
  const reasonOf = async (s: TestServices, runId: string) => {
    const log = await listEvents(s.prisma, runId);
    return (log.at(-1)!.payload as { reason: string }).reason;
  };

  it("gives a successful finish without a reason 'terminated', even with nodes still pending", async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, [...opening, { seq: 4, op: 'finish', output: '24', best: 'a', success: true }]);
    expect(await reasonOf(s, runId)).toBe('terminated');
    expect((await getRun(s.prisma, runId))?.finishReason).toBe('terminated');
  });

  it("gives a finish without success or reason 'frontier-empty', and keeps a reason that is given", async () => {
    const s = services.create();
    const failed = await newRun(s);
    await s.ingest.append(failed.runId, [...opening, { seq: 4, op: 'finish' }]);
    expect(await reasonOf(s, failed.runId)).toBe('frontier-empty');
    const limited = await newRun(s);
    await s.ingest.append(limited.runId, [...opening, { seq: 4, op: 'finish', success: true, reason: 'node-limit' }]);
    expect(await reasonOf(s, limited.runId)).toBe('node-limit');
  });

  it("the finish route follows success too: 'terminated' for a solved run, 'frontier-empty' otherwise", async () => {
    const s = services.create();
    const solved = await newRun(s);
    await s.ingest.append(solved.runId, opening);
    expect(await s.ingest.finish(solved.runId, { output: '24', success: true })).toMatchObject({ status: 'finished' });
    expect(await reasonOf(s, solved.runId)).toBe('terminated');
    const unsolved = await newRun(s);
    await s.ingest.finish(unsolved.runId, undefined);
    expect(await reasonOf(s, unsolved.runId)).toBe('frontier-empty');
  });

  it('a retried successful finish without a reason is a duplicate, not a conflict (its stored hash has the filled-in reason)', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const batch: IngestItemInput[] = [...opening, { seq: 4, op: 'finish', success: true }];
    await s.ingest.append(runId, batch);
    expect(await s.ingest.append(runId, batch)).toMatchObject({ accepted: 0, duplicates: 4 });
  });
});

describe("the root's text", () => {
  it('keeps a thought given for the root (its first state, beside the goal), where it was dropped', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, [{ seq: 1, op: 'node', id: 'root', parent: null, thought: '4 9 10 13' }]);
    const tree = fold(await listEvents(s.prisma, runId));
    expect(tree.nodes.root?.branch?.thought).toBe('4 9 10 13');
    expect(tree.goal).toBe('make 24 from 4 9 10 13');
  });

  it('makes a root without a thought as the engine makes its own: no branch, the goal is its text', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, [opening[0]!]);
    expect(fold(await listEvents(s.prisma, runId)).nodes.root?.branch).toBeNull();
  });
});

describe('steering an external run', () => {
  it('records a command for the client, which polls it, applies it and acknowledges it', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    // the client is already waiting when the person prunes: its poll answers at once (the test's timeout is shorter
    // than the poll's wait)
    const poll = s.ingest.commands(runId, 0, 25_000);
    await s.ingest.request(runId, { type: 'prune', nodeId: 'b', actor: 'alice' });
    const { commands, status } = await poll;
    expect(status).toBe('running');
    expect(commands).toEqual([
      { seq: expect.any(Number), kind: 'prune', nodeId: 'b', actor: 'alice', ts: expect.any(Number), hit: null },
    ]);
    const command = commands[0]!;
    await s.ingest.append(runId, [
      { seq: 4, op: 'prune', node: 'b', actor: 'alice' },
      { seq: 5, op: 'ack', command: command.seq, outcome: 'applied' },
    ]);
    const tree = fold(await listEvents(s.prisma, runId));
    expect(tree.nodes.b).toMatchObject({ status: 'pruned', prunedBy: 'alice' });
    expect(tree.commands).toEqual([expect.objectContaining({ seq: command.seq, kind: 'prune', outcome: 'applied' })]);
    // answered: the next poll has nothing
    expect((await s.ingest.commands(runId, 0, 0)).commands).toEqual([]);
  });

  it('refuses a kind the client does not take, and everything when it takes none', async () => {
    const s = services.create();
    const { runId } = await newRun(s, ['prune']);
    await s.ingest.append(runId, opening);
    await expect(s.ingest.request(runId, { type: 'pause', actor: 'alice' })).rejects.toThrow(
      'this search does not take pause commands',
    );
    const deaf = await newRun(s, []);
    await expect(s.ingest.request(deaf.runId, { type: 'abort', actor: 'alice' })).rejects.toThrow(
      'steering is unavailable: my-tot-loop does not listen for commands',
    );
    await expect(s.ingest.request(runId, { type: 'prune', nodeId: 'root', actor: 'alice' })).rejects.toThrow(
      'the root cannot be pruned',
    );
    expect(fold(await listEvents(s.prisma, runId)).commands).toEqual([]);
  });

  it.each(BACKENDS)(
    'ends a command no client answered when the run ends: stored so, and no poll hands it out (%s)',
    async (backend) => {
      const s = await services.open(backend);
      const { runId } = await newRun(s);
      await s.ingest.append(runId, opening);
      await s.ingest.request(runId, { type: 'prune', nodeId: 'b', actor: 'alice' });
      expect((await s.ingest.commands(runId, 0, 0)).commands).toHaveLength(1);
      // the client finishes without ever answering it
      await s.ingest.append(runId, [{ seq: 4, op: 'finish', output: '24', best: 'a', success: true }]);
      const ended = {
        kind: 'prune',
        nodeId: 'b',
        outcome: 'ended',
        reason: 'the run finished before the client answered',
      };
      expect(fold(await listEvents(s.prisma, runId)).commands).toEqual([expect.objectContaining(ended)]);
      // the tree the run page draws first (its snapshot, stored as the run ended) says so too
      const stored = JSON.parse((await latestTreeText(s.prisma, runId))?.tree ?? 'null') as ThoughtTree;
      expect(stored.commands).toEqual([expect.objectContaining(ended)]);
      expect(await s.ingest.commands(runId, 0, 0)).toEqual({ commands: [], status: 'finished' });
    },
  );

  it('is never forked nor resumed by the engine', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    await expect(s.manager.fork({ runId, nodeId: 'a' })).rejects.toThrow('cannot be forked');
  });
});

describe('breakpoints on an external run', () => {
  const failedVerification: Breakpoint = { id: 'vf', enabled: true, condition: { kind: 'verification-failed' } };
  const backtracks: Breakpoint = { id: 'bt', enabled: true, condition: { kind: 'backtrack' } };
  const setBreakpoints = (s: TestServices, runId: string, breakpoints: Breakpoint[]) =>
    s.ingest.request(runId, { type: 'breakpoints', breakpoints, actor: 'alice' });
  const pauses = (log: ExplorationEvent[]) =>
    log.filter((e) => e.type === 'steer.requested' && e.payload.kind === 'pause');

  it('asks the client to pause, in the write of the batch that hit, naming the event: its poll gets the hit', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    await setBreakpoints(s, runId, [failedVerification]);
    // the client is polling when the failing verification arrives: the pause wakes it
    const poll = s.ingest.commands(runId, 0, 25_000);
    await s.ingest.append(runId, [
      { seq: 4, op: 'start', node: 'a' },
      { seq: 5, op: 'verify', node: 'a', passed: false, trace: '4 * 4 = 16, not 24' },
      { seq: 6, op: 'start', node: 'b' },
    ]);
    const log = await listEvents(s.prisma, runId);
    const verified = log.find((e) => e.type === 'node.verified')!;
    // after the whole batch, in the same write: nothing of the client's is judged or written twice
    expect(log.slice(-4).map((e) => e.type)).toEqual([
      'node.started',
      'node.verified',
      'node.started',
      'steer.requested',
    ]);
    const hit = {
      breakpointId: 'vf',
      condition: { kind: 'verification-failed' },
      seq: verified.seq,
      eventType: 'node.verified',
      nodeId: 'a',
      detail: 'a failed verification: 4 * 4 = 16, not 24',
    };
    expect(log.at(-1)!.payload).toEqual({ kind: 'pause', nodeId: null, actor: 'breakpoint', hit });
    const { commands } = await poll;
    expect(commands).toEqual([
      { seq: log.at(-1)!.seq, kind: 'pause', nodeId: null, actor: 'breakpoint', ts: expect.any(Number), hit },
    ]);
    // the page says why, from the log alone
    expect(fold(log).breakpointHit).toEqual(hit);
  });

  it('asks once while its pause is unanswered, and again once the client has paused and been resumed', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    await setBreakpoints(s, runId, [failedVerification, backtracks]);
    await s.ingest.append(runId, [{ seq: 4, op: 'verify', node: 'a', passed: false }]);
    // a second hit while the pause waits for the client: no second request
    await s.ingest.append(runId, [
      { seq: 5, op: 'backtrack', from: 'a', to: 'b' },
      { seq: 6, op: 'verify', node: 'b', passed: false },
    ]);
    expect(pauses(await listEvents(s.prisma, runId))).toHaveLength(1);
    const [asked] = (await s.ingest.commands(runId, 0, 0)).commands;
    // the client pauses (built-in steering: steer.pause by the requester) and acknowledges; hits while paused ask nothing
    await s.ingest.append(runId, [
      { seq: 7, type: 'steer.pause', payload: { actor: 'breakpoint' } },
      { seq: 8, op: 'ack', command: asked!.seq, outcome: 'applied' },
      { seq: 9, op: 'backtrack', from: 'b', to: 'root' },
    ]);
    expect(pauses(await listEvents(s.prisma, runId))).toHaveLength(1);
    expect((await getRun(s.prisma, runId))?.status).toBe('paused');
    await s.ingest.request(runId, { type: 'resume', actor: 'alice' });
    const [resume] = (await s.ingest.commands(runId, asked!.seq, 0)).commands;
    await s.ingest.append(runId, [
      { seq: 10, type: 'steer.resume', payload: { actor: 'alice' } },
      { seq: 11, op: 'ack', command: resume!.seq, outcome: 'applied' },
      { seq: 12, op: 'backtrack', from: 'root', to: null, reason: 'nothing left' },
    ]);
    const log = await listEvents(s.prisma, runId);
    expect(pauses(log).map((e) => (e.payload as { hit?: { breakpointId: string } }).hit?.breakpointId)).toEqual([
      'vf',
      'bt',
    ]);
    expect(pauses(log)[1]!.payload).toMatchObject({ hit: { seq: log.at(-2)!.seq, eventType: 'backtrack' } });
  });

  it('judges "run to here" on the node.started the client sends, once', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    await setBreakpoints(s, runId, [{ id: 'to-b', enabled: true, condition: { kind: 'node-runs', nodeId: 'b' } }]);
    await s.ingest.append(runId, [
      { seq: 4, op: 'start', node: 'a' },
      { seq: 5, op: 'start', node: 'b' },
    ]);
    const log = await listEvents(s.prisma, runId);
    const started = log.at(-2)!;
    expect(started).toMatchObject({ type: 'node.started', payload: { nodeId: 'b' } });
    expect(log.at(-1)!.payload).toMatchObject({
      hit: { breakpointId: 'to-b', seq: started.seq, eventType: 'node.started', nodeId: 'b' },
    });
    // used once: reached, it turns off
    expect(fold(log).breakpoints).toEqual([expect.objectContaining({ id: 'to-b', enabled: false })]);
  });

  it('never asks for a disabled breakpoint, nor for a hit in the batch that finishes the run', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    await setBreakpoints(s, runId, [{ ...failedVerification, enabled: false }]);
    await s.ingest.append(runId, [{ seq: 4, op: 'verify', node: 'a', passed: false }]);
    expect(pauses(await listEvents(s.prisma, runId))).toEqual([]);
    await setBreakpoints(s, runId, [failedVerification]);
    await s.ingest.append(runId, [
      { seq: 5, op: 'verify', node: 'b', passed: false },
      { seq: 6, op: 'finish' },
    ]);
    expect(pauses(await listEvents(s.prisma, runId))).toEqual([]);
    expect((await getRun(s.prisma, runId))?.status).toBe('finished');
  });

  it('refuses breakpoints for a client that does not take pause, saying why, live and at creation', async () => {
    const s = services.create();
    const { runId } = await newRun(s, ['prune']);
    await expect(setBreakpoints(s, runId, [failedVerification])).rejects.toThrow(
      'breakpoints stop this search by asking its client to pause, but this search does not take pause commands',
    );
    expect(fold(await listEvents(s.prisma, runId)).breakpoints).toEqual([]);
    const created = s.ingest.create({ goal: 'g', commands: ['prune'], breakpoints: [failedVerification] }, creator);
    expect(await refusal(created)).toMatchObject({
      status: 400,
      issues: [
        {
          path: 'breakpoints',
          message:
            'breakpoints stop this search by asking its client to pause, but this search does not take pause commands',
        },
      ],
    });
  });

  it('starts a run with the breakpoints its create names, right after run.started', async () => {
    const s = services.create();
    const { runId } = await s.ingest.create(
      { goal: 'g', commands: ['pause', 'resume'], breakpoints: [failedVerification] },
      creator,
    );
    const log = await listEvents(s.prisma, runId);
    expect(log.map((e) => e.type)).toEqual(['run.queued', 'run.started', 'breakpoints.set']);
    expect(log[2]!.payload).toEqual({ breakpoints: [failedVerification], actor: 'tester' });
    await s.ingest.append(runId, [...opening, { seq: 4, op: 'verify', node: 'a', passed: false }]);
    expect(pauses(await listEvents(s.prisma, runId))).toHaveLength(1);
  });
});

describe('heartbeats', () => {
  it("marks a silent client's run interrupted, and its next request continues it (run.resumed, then its items)", async () => {
    const s = services.create({ ingestTimeoutMs: 1_000 });
    const { runId } = await newRun(s);
    await s.ingest.append(runId, opening);
    expect(await s.ingest.sweep(Date.now())).toEqual([]); // heard just now
    expect(await s.ingest.sweep(Date.now() + 5_000)).toEqual([runId]);
    const run = await getRun(s.prisma, runId);
    expect(run?.status).toBe('interrupted');
    const log = await listEvents(s.prisma, runId);
    expect(log.at(-1)).toMatchObject({ type: 'run.interrupted' });
    expect((log.at(-1)!.payload as { reason: string }).reason).toMatch(
      /^the client stopped sending heartbeats \(last seen \d{4}-\d\d-\d\dT/,
    );
    await expect(s.ingest.request(runId, { type: 'pause', actor: 'alice' })).rejects.toThrow('stopped sending');

    await s.ingest.append(runId, [{ seq: 4, op: 'fail', node: 'b', reason: 'dead end' }]);
    const after = await listEvents(s.prisma, runId);
    expect(after.slice(log.length).map((e) => e.type)).toEqual(['run.resumed', 'node.failed']);
    expect((await getRun(s.prisma, runId))?.status).toBe('running');
  });

  it('a heartbeat alone continues an interrupted run', async () => {
    const s = services.create({ ingestTimeoutMs: 1_000 });
    const { runId } = await newRun(s);
    await s.ingest.sweep(Date.now() + 5_000);
    expect(await s.ingest.heartbeat(runId)).toEqual({ status: 'running', nextSeq: 1 });
  });

  it('a restarted server leaves external runs running (not resumed by the engine) for the sweeper', async () => {
    const s = services.create();
    const { runId } = await newRun(s);
    const again = services.track(s.restart());
    const recovered = await again.manager.recover();
    expect(recovered.interrupted).not.toContain(runId);
    expect((await getRun(again.prisma, runId))?.status).toBe('running');
    // the new server counts the silence from its own start
    expect(await again.ingest.sweep(Date.now())).toEqual([]);
  });
});
