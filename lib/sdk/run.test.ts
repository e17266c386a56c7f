// The SDK against a real HTTP server on loopback (lib/sdk/testing.ts): what a program attached to Arborist would
// notice if delivery broke: items lost or stored twice, a host that crashes or hangs when the server is down, steering
// that never comes back acknowledged.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Arborist, BUILTIN_COMMANDS, retryDelay, type ArboristOptions, type ArboristWarning } from './index';
import { quietClient, startFakeIngestServer, until, type FakeIngestServer } from './testing';

let server: FakeIngestServer;
let warnings: ArboristWarning[];

beforeEach(async () => {
  server = await startFakeIngestServer();
  warnings = [];
});
afterEach(() => server.close());

function client(options: Partial<ArboristOptions> = {}) {
  return quietClient(server, warnings, options);
}

const appends = () => server.requests.filter((r) => r.path.endsWith('/events'));
const onlyRun = () => [...server.runs.values()][0]!;

/** A root and `n` children, as a search would create them. */
function grow(run: ReturnType<Arborist['startRun']>, n: number) {
  run.node('root', null, { thought: 'the goal' });
  for (let i = 0; i < n; i++) run.node(`n${i}`, 'root', { thought: `step ${i}`, score: 0.5 });
}

describe('delivery', () => {
  it('sends items in numbered batches of at most batchSize, in order, and finish flushes the rest', async () => {
    const run = client({ batchSize: 100 }).startRun({ goal: 'make 24', task: 'game24', config: { beam: 5 } });
    grow(run, 249);
    const summary = await run.finish({ output: '4 * 6 = 24', success: true });

    expect(summary).toMatchObject({ runId: 'run1', url: `${server.url}/runs/run1`, finished: true });
    const stored = onlyRun().items;
    expect(stored.map((i) => i.seq)).toEqual(Array.from({ length: 251 }, (_, i) => i + 1));
    expect(stored[0]).toMatchObject({ op: 'node', id: 'root', parent: null });
    expect(stored.at(-1)).toMatchObject({ op: 'finish', output: '4 * 6 = 24', success: true });
    expect(appends().every((r) => r.items <= 100)).toBe(true);
    expect(appends().length).toBeLessThan(10); // batched, not one request per item
    expect(summary.stats).toMatchObject({ sent: 251, dropped: 0, buffered: 0 });
    expect(onlyRun().create).toMatchObject({ goal: 'make 24', task: 'game24', config: { beam: 5 }, commands: [] });
  });

  it('sends a few items by time, without flush or finish', async () => {
    const run = client({ flushIntervalMs: 30 }).startRun({ goal: 'g' });
    grow(run, 2);
    await until(() => run.stats().sent === 3, 'three items delivered');
    expect(onlyRun().items).toHaveLength(3);
    expect(appends()).toHaveLength(1);
  });

  it('retries a batch whose answer was lost with the same numbers, so the server stores it once', async () => {
    const run = client().startRun({ goal: 'g' });
    await run.ready;
    server.loseNextAnswer = true;
    grow(run, 9);
    await run.flush();
    run.node('late', 'root');
    await run.finish();

    expect(onlyRun().items.map((i) => i.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(onlyRun().items.filter((i) => i.id === 'n3')).toHaveLength(1);
    expect(run.stats()).toMatchObject({ sent: 12, duplicates: 10, dropped: 0 });
    expect(run.stats().retried).toBeGreaterThanOrEqual(1);
    // the retry repeated the first request's numbers
    const [first, second] = appends();
    expect(second).toMatchObject({ firstSeq: first!.firstSeq, items: first!.items });
  });

  it('retries 5xx and 429 answers and then delivers', async () => {
    const run = client().startRun({ goal: 'g' });
    await run.ready;
    server.failNext = [503, 429, 500];
    grow(run, 4);
    const summary = await run.finish();
    expect(summary.finished).toBe(true);
    expect(onlyRun().items).toHaveLength(6);
    expect(summary.stats.retried).toBe(3);
    expect(warnings.map((w) => w.kind)).toEqual(['unreachable']); // said once, not per retry
  });

  it('buffers while the server is down, then drops the newest items, counted, and delivers the rest when it is back', async () => {
    const run = client({ maxBufferedItems: 30, batchSize: 10 }).startRun({ goal: 'g' });
    await run.ready;
    server.down = true;
    grow(run, 49); // 50 items: the first batch of 10 is in flight, 30 wait, 10 are dropped
    run.annotate('n45', { scores: { value: 1 } }); // about a dropped node: dropped with it
    await until(() => run.stats().retried >= 2, 'a few retries');
    expect(run.stats()).toMatchObject({ dropped: 11, droppedBy: { overflow: 10, dependent: 1 } });
    expect(warnings.some((w) => w.kind === 'overflow' && /dropping the newest/.test(w.message))).toBe(true);

    server.down = false;
    const summary = await run.finish();
    const ids = onlyRun().items.map((i) => i.id ?? i.op);
    expect(ids).toEqual(['root', ...Array.from({ length: 39 }, (_, i) => `n${i}`), 'finish']);
    expect(summary).toMatchObject({ finished: true, stats: { sent: 41, dropped: 11 } });
  });

  it('drops the items a 400 names, and later items about their nodes, and sends the rest renumbered', async () => {
    const run = client().startRun({ goal: 'g' });
    grow(run, 2);
    run.node('orphan', 'nowhere'); // the server refuses it: no such parent
    run.node('orphan-child', 'orphan');
    run.node('fine', 'root');
    await run.flush();
    run.annotate('orphan', { metadata: { k: 'v' } }); // later, about the refused node
    run.complete('fine', 'ok');
    await run.finish();

    const stored = onlyRun().items;
    expect(stored.map((i) => i.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(stored.map((i) => i.id ?? i.op)).toEqual(['root', 'n0', 'n1', 'fine', 'complete', 'finish']);
    expect(run.stats().droppedBy).toMatchObject({ invalid: 1, dependent: 2 });
    expect(warnings.filter((w) => w.kind === 'invalid').map((w) => w.message)).toEqual([
      "the server refused node 'orphan' (seq 4): parent: no node nowhere in this run; dropped it and later items about its node",
    ]);
  });

  it('resends from the expected seq after a 409 gap', async () => {
    const run = client({ batchSize: 5 }).startRun({ goal: 'g' });
    grow(run, 9);
    await run.flush();
    // the server lost the last three items it had stored (a restore): it now expects 8
    onlyRun().items.splice(7);
    run.node('after', 'root');
    await run.finish();
    expect(onlyRun().items.map((i) => i.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(
      onlyRun()
        .items.map((i) => i.id ?? i.op)
        .slice(-3),
    ).toEqual(['n8', 'after', 'finish']);
    expect(run.stats().dropped).toBe(0);
  });

  it('never throws or hangs when no server answers: finish ends at its deadline and counts what it dropped', async () => {
    const dead = await startFakeIngestServer();
    const url = dead.url;
    await dead.close();
    const run = new Arborist({
      server: url,
      retryBaseMs: 5,
      retryMaxMs: 20,
      flushOnExit: false,
      onWarning: (w) => warnings.push(w),
    }).startRun({ goal: 'g' });
    expect(() => {
      grow(run, 5);
      run.start('n1');
      run.call('n1', { response: 'x', inputTokens: 3 });
      run.verify('n1', true);
      run.event('node.failed', { nodeId: 'n2', reason: 'bad' });
    }).not.toThrow();
    const summary = await run.finish({ timeoutMs: 300 });
    expect(summary).toMatchObject({ runId: null, url: null, finished: false });
    expect(summary.stats.dropped).toBe(11);
    expect(warnings.map((w) => w.kind)).toEqual(['unreachable', 'unsent']);
    expect(await run.ready).toBeNull();
  });

  it('stops sending when the server refuses to create the run, without throwing', async () => {
    const refusing = client({ server: `${server.url}/nope` }).startRun({ goal: 'g' });
    refusing.node('root', null);
    const summary = await refusing.finish({ timeoutMs: 2_000 });
    expect(summary.finished).toBe(false);
    expect(warnings.some((w) => w.kind === 'refused')).toBe(true);
  });

  it('sends what is buffered when the host program ends without finish (beforeExit)', async () => {
    const script = `
      import { Arborist } from './lib/sdk/index.ts';
      const run = new Arborist({ server: process.argv.at(-1), flushIntervalMs: 60000 }).startRun({ goal: 'g' });
      run.node('root', null);
      for (let i = 0; i < 5; i++) run.node('n' + i, 'root');
    `;
    await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, server.url], {
      cwd: process.cwd(),
    });
    expect(onlyRun().items.map((i) => i.id)).toEqual(['root', 'n0', 'n1', 'n2', 'n3', 'n4']);
  });
});

describe('a host program that ends without finish', () => {
  it('exits at once when the server is down, saying what it could not send', async () => {
    const dead = await startFakeIngestServer();
    const url = dead.url;
    await dead.close();
    const script = `
      import { Arborist } from './lib/sdk/index.ts';
      const run = new Arborist({ server: process.argv.at(-1) }).startRun({ goal: 'g' });
      run.node('root', null);
    `;
    const out = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script, url],
      { cwd: process.cwd() },
    );
    expect(out.stderr).toContain('arborist: the program exited before the server created the run: 1 items unsent');
  });
});

describe('a host program paused from the page', () => {
  it('stays alive while paused (it waits on steering only the SDK can bring) and goes on when resumed', async () => {
    await server.close();
    server = await startFakeIngestServer({ heartbeatMs: 40 });
    const script = `
      import { Arborist, BUILTIN_COMMANDS } from './lib/sdk/index.ts';
      const run = new Arborist({ server: process.argv.at(-1), flushIntervalMs: 20 })
        .startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
      await run.ready;
      console.log('ready');
      let steps = 0;
      while (await run.checkpoint()) { steps++; await new Promise((r) => setTimeout(r, 5)); }
      await run.finish();
      console.log('done');
    `;
    const child = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, server.url], {
      cwd: process.cwd(),
    });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await until(() => out.includes('ready'), 'the program to start', 15_000);
    const acked = (n: number) => () => onlyRun().commands.filter((c) => c.ack).length === n;
    server.command('run1', 'pause');
    await until(acked(1), 'the pause acknowledged');
    // paused, with nothing else to do: it must neither exit nor go silent (its run would be marked interrupted)
    const beats = onlyRun().heartbeats;
    await until(() => onlyRun().heartbeats >= beats + 3, 'heartbeats while paused');
    server.command('run1', 'resume');
    await until(acked(2), 'the resume acknowledged');
    server.command('run1', 'abort');
    expect(await exited).toBe(0);
    expect(out).toContain('done');
    expect(onlyRun().items.at(-1)).toMatchObject({ op: 'finish', reason: 'aborted' });
  });
});

describe('heartbeat', () => {
  it('beats while the program is quiet', async () => {
    await server.close();
    server = await startFakeIngestServer({ heartbeatMs: 30 });
    const run = client().startRun({ goal: 'g' });
    await run.ready;
    await until(() => onlyRun().heartbeats >= 3, 'three heartbeats');
    await run.finish();
  });
});

describe('steering', () => {
  it('declares the commands it takes; with none, steering is unavailable', async () => {
    const a = client().startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
    const b = client().startRun({ goal: 'g', onCommand: () => undefined });
    const c = client().startRun({ goal: 'g' });
    await Promise.all([a.ready, b.ready, c.ready]);
    expect(server.runs.get('run1')!.create.commands).toEqual(['prune', 'pause', 'resume', 'step', 'abort']);
    expect(server.runs.get('run2')!.create.commands).toEqual(['prune', 'expand', 'pause', 'resume', 'step', 'abort']);
    expect(server.runs.get('run3')!.create.commands).toEqual([]);
    await Promise.all([a.finish(), b.finish(), c.finish()]);
  });

  it('applies a prune with the built-in handling: steer.prune with the actor, then the ack; isPruned sees the subtree', async () => {
    const run = client().startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
    grow(run, 2);
    run.node('n0a', 'n0');
    await run.flush();
    const command = server.command('run1', 'prune', 'n0', 'ada');
    await until(() => onlyRun().commands[0]!.ack !== null, 'the ack');

    expect(onlyRun().commands[0]!.ack).toEqual({ outcome: 'applied', reason: null });
    const tail = onlyRun().items.slice(-2);
    expect(tail[0]).toMatchObject({ type: 'steer.prune', payload: { nodeId: 'n0', actor: 'ada' } });
    expect(tail[1]).toMatchObject({ op: 'ack', command: command.seq, outcome: 'applied' });
    expect(run.isPruned('n0a')).toBe(true);
    expect(run.isPruned('n1')).toBe(false);
    await run.finish();
  });

  it('refuses what it cannot apply, with the reason', async () => {
    const run = client().startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
    grow(run, 1);
    await run.flush();
    server.command('run1', 'prune', 'ghost');
    server.command('run1', 'prune', 'root');
    server.command('run1', 'resume');
    server.command('run1', 'expand', 'n0');
    await until(() => onlyRun().commands.every((c) => c.ack !== null), 'four acks');
    expect(onlyRun().commands.map((c) => c.ack)).toEqual([
      { outcome: 'refused', reason: 'no node ghost in this run' },
      { outcome: 'refused', reason: 'the root cannot be pruned; abort the run instead' },
      { outcome: 'refused', reason: 'the run is not paused' },
      { outcome: 'refused', reason: 'this program does not take expand' },
    ]);
    await run.finish();
  });

  it('pause blocks checkpoint until resume; step lets one step through; abort makes it return false', async () => {
    const run = client().startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
    await run.ready;
    const acks = () => onlyRun().commands.filter((c) => c.ack !== null).length;
    server.command('run1', 'pause');
    await until(() => acks() === 1, 'the pause acked');
    let passed = 0;
    const loop = (async () => {
      // a step of the search: a macrotask, as real work (and the SDK's requests) would be
      while (await run.checkpoint()) await new Promise((resolve) => setTimeout(resolve, 1)).then(() => passed++);
    })();

    server.command('run1', 'step');
    // paused until the step: exactly one step, then paused again
    await until(() => passed === 1 && run.paused, 'one step, then paused');
    server.command('run1', 'resume');
    await until(() => passed > 10, 'running again');
    server.command('run1', 'abort', null, 'grace');
    await loop; // checkpoint returned false
    await run.finish();
    const types = onlyRun().items.map((i) => (i.type as string) ?? i.op);
    expect(types.filter((t) => t !== 'ack')).toEqual([
      'steer.pause',
      'steer.step',
      'run.paused',
      'steer.resume',
      'steer.abort',
      'finish',
    ]);
    expect(onlyRun().items.at(-1)).toMatchObject({ reason: 'aborted', detail: 'aborted by grace' });
  });

  it('hands every command to onCommand; a throw or { refused } refuses it with the reason', async () => {
    const seen: string[] = [];
    const run = client().startRun({
      goal: 'g',
      onCommand: (command) => {
        seen.push(command.kind);
        if (command.kind === 'expand') return { refused: 'the frontier is full' };
        if (command.kind === 'abort') throw new Error('cannot stop now');
      },
    });
    await run.ready;
    server.command('run1', 'prune', 'x');
    server.command('run1', 'expand', 'x');
    server.command('run1', 'abort');
    await until(() => onlyRun().commands.every((c) => c.ack !== null), 'three acks');
    expect(seen).toEqual(['prune', 'expand', 'abort']);
    expect(onlyRun().commands.map((c) => c.ack)).toEqual([
      { outcome: 'applied', reason: null },
      { outcome: 'refused', reason: 'the frontier is full' },
      { outcome: 'refused', reason: 'cannot stop now' },
    ]);
    await run.finish();
  });
});

describe('breakpoints', () => {
  const hit = {
    breakpointId: 'vf',
    condition: { kind: 'verification-failed' as const },
    seq: 41,
    eventType: 'node.verified',
    nodeId: 'n0',
    detail: 'n0 failed verification: 16, not 24',
  };

  it('starts the run with its breakpoints, and hands a handler the pause a breakpoint asks for with its hit', async () => {
    const seen: unknown[] = [];
    const breakpoints = [{ id: 'vf', enabled: true, condition: { kind: 'verification-failed' as const } }];
    const run = client().startRun({
      goal: 'g',
      breakpoints,
      onCommand: (command) => void seen.push(command),
    });
    await run.ready;
    expect(onlyRun().create.breakpoints).toEqual(breakpoints);
    server.command('run1', 'pause', null, 'breakpoint', hit);
    server.command('run1', 'resume', null, 'ada');
    await until(() => seen.length === 2, 'both commands handled');
    expect(seen).toEqual([
      expect.objectContaining({ kind: 'pause', actor: 'breakpoint', hit }),
      expect.objectContaining({ kind: 'resume', actor: 'ada', hit: null }),
    ]);
    await run.finish();
  });

  it("pauses the built-in steering as a person's pause, saying where it stopped until it goes on", async () => {
    const run = client().startRun({ goal: 'g', commands: BUILTIN_COMMANDS });
    await run.ready;
    server.command('run1', 'pause', null, 'breakpoint', hit);
    await until(() => run.paused, 'paused by the breakpoint');
    expect(run.breakpointHit).toEqual(hit);
    server.command('run1', 'resume', null, 'ada');
    await until(() => !run.paused, 'resumed');
    expect(run.breakpointHit).toBeNull();
    await run.finish();
    expect(
      onlyRun()
        .items.filter((i) => i.type)
        .map((i) => [i.type, (i.payload as { actor: string }).actor]),
    ).toEqual([
      ['steer.pause', 'breakpoint'],
      ['steer.resume', 'ada'],
    ]);
  });
});

describe('retryDelay', () => {
  it('doubles from the base up to the cap, keeping a random half, and honours a longer Retry-After', () => {
    const options = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, options, null, () => 1))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, options, null, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect(retryDelay(1, options, 3_000, () => 0)).toBe(3_000);
  });
});
