// What a program notices when one of its items cannot be stored: a value JSON cannot carry, or an item the server
// refuses. Each such item is named in one warning line (op, node, where it was, which field, why), the rest of the run
// goes on and finishes, and a flood of refusals is summarised rather than printed line by line. Also finish()'s
// default reason, which must follow what the program said about success.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArboristWarning } from './index';
import { quietClient, startFakeIngestServer, type FakeIngestServer } from './testing';

let server: FakeIngestServer;
let warnings: ArboristWarning[];

beforeEach(async () => {
  server = await startFakeIngestServer();
  warnings = [];
});
afterEach(() => server.close());

const client = (options: Parameters<typeof quietClient>[2] = {}) => quietClient(server, warnings, options);
const onlyRun = () => [...server.runs.values()][0]!;
const said = () => warnings.map((w) => w.message);

describe('values JSON cannot carry', () => {
  it('converts a BigInt, a Date, toJSON, a Map and a Set, so the item and the rest of the run are stored', async () => {
    const run = client().startRun({ goal: 'g', config: { seed: 42n } as never });
    run.node('root', null);
    run.node('a', 'root', {
      metadata: {
        tokens: 12n,
        huge: 2n ** 64n,
        at: new Date(0),
        custom: { toJSON: () => 'from toJSON' },
        counts: new Map([['x', 1]]),
        tags: new Set(['p', 'q']),
      } as never,
    });
    run.node('b', 'root');
    const summary = await run.finish();

    expect(summary).toMatchObject({ finished: true, stats: { dropped: 0 } });
    expect(onlyRun().create.config).toEqual({ seed: 42 });
    expect(onlyRun().items.map((i) => i.id ?? i.op)).toEqual(['root', 'a', 'b', 'finish']);
    expect(onlyRun().items[1]!.metadata).toEqual({
      tokens: 12,
      huge: '18446744073709551616',
      at: '1970-01-01T00:00:00.000Z',
      custom: 'from toJSON',
      counts: { x: 1 },
      tags: ['p', 'q'],
    });
    // a number that had to become a string is said, with where it was; the lossless conversions are not
    expect(said()).toEqual([expect.stringMatching(/node 'a' \(item 2\): metadata\.huge is a BigInt beyond 2\^53/)]);
  });

  it('refuses only the item holding a cycle, a function or a symbol, naming it and the field, and the run finishes', async () => {
    const run = client().startRun({ goal: 'g' });
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    run.node('root', null);
    run.node('a', 'root', { metadata: { deep: { loop } } as never });
    run.node('b', 'root', { metadata: { callback: () => 1 } as never });
    run.annotate('root', { metadata: { tag: Symbol('x') } as never });
    run.node('c', 'root');
    run.annotate('a', { scores: { value: 1 } }); // about the refused node: dropped with it
    const summary = await run.finish();

    expect(summary).toMatchObject({ finished: true, stats: { droppedBy: { invalid: 3, dependent: 1 } } });
    expect(onlyRun().items.map((i) => i.id ?? i.op)).toEqual(['root', 'c', 'finish']);
    expect(said()).toEqual([
      expect.stringMatching(/^refused node 'a' \(item 2\): metadata\.deep\.loop\.self is a cycle/),
      expect.stringMatching(/^refused node 'b' \(item 3\): metadata\.callback is a function/),
      expect.stringMatching(/^refused annotate 'root' \(item 4\): metadata\.tag is a symbol/),
    ]);
  });

  it('names a NaN or Infinity as such instead of letting JSON send null, and refuses that item only', async () => {
    const run = client().startRun({ goal: 'g' });
    run.node('root', null);
    run.node('a', 'root', { score: NaN });
    run.node('b', 'root', { metadata: { ratio: Infinity } });
    run.call('root', { latencyMs: NaN });
    run.node('c', 'root', { score: 0.5 });
    await run.finish();

    expect(onlyRun().items.map((i) => i.id ?? i.op)).toEqual(['root', 'c', 'finish']);
    expect(said()).toEqual([
      expect.stringMatching(/node 'a' \(item 2\): score is NaN/),
      expect.stringMatching(/node 'b' \(item 3\): metadata\.ratio is Infinity/),
      expect.stringMatching(/call 'root' \(item 4\): latencyMs is NaN/),
    ]);
  });

  it('sends what an item held when it was queued, even if the program changes the object afterwards', async () => {
    const run = client().startRun({ goal: 'g' });
    const metadata: Record<string, unknown> = { step: 1 };
    run.node('root', null, { metadata: metadata as never });
    metadata.step = 2;
    metadata.later = 10n; // would have broken the batch had it been serialised only when sent
    await run.finish();
    expect(onlyRun().items[0]!.metadata).toEqual({ step: 1 });
    expect(warnings).toEqual([]);
  });
});

describe('items the server refuses', () => {
  it("says each refusal on its own line with the server's reason, the item's op, node and seq", async () => {
    server.refuse = (item, i) =>
      typeof item.thought === 'string' && item.thought.length > 1000
        ? { path: `items[${i}].thought`, message: 'Too big: expected string to have <=100000 characters' }
        : item.score === 5
          ? { path: `items[${i}].score`, message: 'Too big: expected number to be <=1' }
          : null;
    const run = client().startRun({ goal: 'g' });
    run.node('root', null);
    run.node('orphan', 'nowhere');
    run.node('long', 'root', { thought: 'x'.repeat(1_000_000) });
    run.node('high', 'root', { score: 5 });
    run.node('fine', 'root');
    const summary = await run.finish();

    expect(summary).toMatchObject({ finished: true, stats: { droppedBy: { invalid: 3 } } });
    expect(onlyRun().items.map((i) => i.id ?? i.op)).toEqual(['root', 'fine', 'finish']);
    expect(said()).toEqual([
      "the server refused node 'orphan' (seq 2): parent: no node nowhere in this run; dropped it and later items about its node",
      "the server refused node 'long' (seq 3): thought: Too big: expected string to have <=100000 characters; dropped it and later items about its node",
      "the server refused node 'high' (seq 4): score: Too big: expected number to be <=1; dropped it and later items about its node",
    ]);
  });

  it('says at most ten refusals in a row, then how many more it held back', async () => {
    const run = client().startRun({ goal: 'g' });
    run.node('root', null);
    for (let i = 0; i < 30; i++) run.node(`orphan${i}`, `missing${i}`);
    run.node('fine', 'root');
    const summary = await run.finish();

    expect(summary.stats.droppedBy.invalid).toBe(30);
    expect(onlyRun().items.map((i) => i.id ?? i.op)).toEqual(['root', 'fine', 'finish']);
    expect(said()).toHaveLength(11);
    expect(said()[9]).toMatch(/refused node 'orphan9'/);
    expect(said()[10]).toMatch(/^\.\.\. and 20 more refusals \(not each said; see stats\(\)\.droppedBy\)/);
  });
});

describe("finish's reason", () => {
  it("records a successful finish without a reason as 'terminated' (the answer was found), else 'frontier-empty'", async () => {
    const solved = client().startRun({ goal: 'g' });
    solved.node('root', null);
    solved.node('pending', 'root'); // a node still waiting: the run did not end for lack of nodes
    await solved.finish({ output: '24', best: 'root', success: true });
    const exhausted = client().startRun({ goal: 'g' });
    await exhausted.finish();
    const timedOut = client().startRun({ goal: 'g' });
    await timedOut.finish({ success: true, reason: 'timeout' });

    expect(server.runs.get('run1')!.items.at(-1)).toMatchObject({ op: 'finish', success: true, reason: 'terminated' });
    expect(server.runs.get('run2')!.items.at(-1)).toMatchObject({ success: false, reason: 'frontier-empty' });
    expect(server.runs.get('run3')!.items.at(-1)).toMatchObject({ reason: 'timeout' });
  });
});
