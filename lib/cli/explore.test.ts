// The explore CLI as a person runs it: a real process through tsx, its output and exit codes.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { DEFAULT_MAX_CONCURRENT_CALLS } from '../contract/vocabulary';
import { MCTS_DEFAULTS, fold } from '../engine/index';
import { startFakeIngestServer, until } from '../sdk/testing';
import { parseCliArgs, UsageError } from './args';

const run = promisify(execFile);
const cli = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'lib/cli/explore.ts', ...args], { cwd: process.cwd() }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('parseCliArgs', () => {
  it('reads the documented example', () => {
    const s = parseCliArgs(['--task', 'game24', '--puzzle', '13 10 9 4', '--strategy', 'dfs', '--seed', '7']);
    expect(s).toMatchObject({ taskId: 'game24', goal: '4 9 10 13', seed: 7, config: { explorationStrategy: 'dfs' } });
  });

  it('puts --max-concurrent-calls in the config, the default when not given', () => {
    expect(parseCliArgs(['--max-concurrent-calls', '16'])?.config.maxConcurrentCalls).toBe(16);
    expect(parseCliArgs([])?.config.maxConcurrentCalls).toBe(DEFAULT_MAX_CONCURRENT_CALLS);
  });

  it('puts the --mcts-* flags in an mcts config as numbers and rules, MCTS_DEFAULTS for the rest', () => {
    const mcts = ['--strategy', 'mcts'];
    const given = [
      ...mcts,
      ...['--mcts-iterations', '20', '--mcts-c', '0.5', '--mcts-rollout-depth', '2'],
      ...['--mcts-backup', 'max', '--mcts-best-by', 'q'],
    ];
    expect(parseCliArgs(given)?.config).toMatchObject({
      explorationStrategy: 'mcts',
      mctsIterations: 20,
      mctsExploration: 0.5,
      mctsRolloutDepth: 2,
      mctsBackup: 'max',
      mctsBestBy: 'q',
    });
    expect(parseCliArgs(mcts)?.config).toMatchObject(MCTS_DEFAULTS);
    expect(parseCliArgs([...mcts, '--mcts-c', '0'])?.config.mctsExploration).toBe(0);
  });

  it('runs another strategy with no mcts field in its config', () => {
    for (const strategy of ['beam', 'best-first', 'dfs']) {
      const config = parseCliArgs(['--strategy', strategy])?.config ?? {};
      expect(
        Object.keys(config).filter((key) => key.startsWith('mcts')),
        strategy,
      ).toEqual([]);
    }
  });

  it.each([
    [['--nope'], /Unknown option '--nope'/],
    [['--task', 'chess'], /unknown task "chess"/],
    [['--puzzle', '1 2 3'], /four/i],
    [['--max-nodes', 'many'], /--max-nodes must be a whole number/],
    [['--strategy', 'random'], /explorationStrategy/],
    [['--task', 'open-goal'], /needs --goal/],
    [['--beam-width', '5'], /beamWidth cannot exceed branchFactor/],
    [['--max-concurrent-calls', '2.5'], /--max-concurrent-calls must be a whole number/],
    [['--max-concurrent-calls', '0'], /maxConcurrentCalls/],
    [['--max-concurrent-calls', '65'], /maxConcurrentCalls/],
    [['--strategy', 'mcts', '--mcts-c=-1'], /mctsExploration: the exploration constant cannot be negative/],
    [['--strategy', 'mcts', '--mcts-c', 'Infinity'], /--mcts-c must be a number, got "Infinity"/],
    [['--strategy', 'mcts', '--mcts-c', 'NaN'], /--mcts-c must be a number, got "NaN"/],
    [['--strategy', 'mcts', '--mcts-iterations', '0'], /mctsIterations: an iteration budget must be at least 1/],
    [['--strategy', 'mcts', '--mcts-iterations', '1.5'], /--mcts-iterations must be a whole number/],
    [
      ['--strategy', 'mcts', '--max-depth', '3', '--mcts-rollout-depth', '4'],
      /mctsRolloutDepth: a rollout cannot go deeper than maxDepth/,
    ],
    [['--strategy', 'mcts', '--mcts-backup', 'median'], /mctsBackup/],
    [['--strategy', 'mcts', '--mcts-best-by', 'score'], /mctsBestBy/],
    [['--mcts-c', '2'], /--mcts-c is for --strategy mcts/],
    [['--strategy', 'beam', '--mcts-iterations', '10'], /--mcts-iterations is for --strategy mcts/],
    [['--server', 'localhost:3000'], /--server must be the server's address/],
    [['--api-key', 'k'], /--api-key goes with --server/],
  ])('refuses %j with a clear message', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(UsageError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});

describe('npm run explore', () => {
  it('solves a puzzle, prints the verified answer and stats, and writes a foldable event log', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'arborist-cli-')), 'run.ndjson');
    const out = await cli([
      '--task',
      'game24',
      '--puzzle',
      '4 9 10 13',
      '--strategy',
      'beam',
      '--seed',
      '7',
      '--events',
      file,
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Best path:');
    expect(out.stdout).toMatch(/Answer: +Answer: .* = 24/);
    expect(out.stdout).toMatch(/Verified: (yes|no)/);
    expect(out.stdout).toMatch(/Nodes: +\d+ explored of \d+ created/);
    const events = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExplorationEvent);
    expect(events[0]?.type).toBe('run.started');
    expect(events.at(-1)?.type).toBe('run.finished');
    expect(fold(events).status).toBe('finished');
  }, 30_000);

  it('exits with code 2 and one clear line on a bad flag', async () => {
    const out = await cli(['--strategy', 'sideways']);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^explore: Invalid exploration config: explorationStrategy/);
    expect(out.stderr).toContain('--help');
  }, 30_000);

  it('prints help', async () => {
    const out = await cli(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Usage: npm run explore');
  }, 30_000);
});

describe('npm run explore -- --server', () => {
  it('streams the search as it runs, applies a prune from the page and acknowledges it, refuses a bad one, and finishes the run', async () => {
    const server = await startFakeIngestServer();
    try {
      const child = spawn(
        process.execPath,
        [
          ...['--import', 'tsx', 'lib/cli/explore.ts', '--server', server.url, '--puzzle', '4 9 10 13'],
          ...[
            '--strategy',
            'beam',
            '--beam-width',
            '2',
            '--branch-factor',
            '3',
            '--max-depth',
            '3',
            '--latency',
            '250',
          ],
          ...['--threshold', '0', '--terminate-at', '1', '--max-nodes', '12'],
        ],
        { cwd: process.cwd() },
      );
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

      // while the search runs: a person prunes a node the server already shows, and asks to prune the root
      const items = () => server.runs.get('run1')?.items ?? [];
      const child0 = () =>
        items().find((i) => i.type === 'node.created' && (i.payload as { parentId: unknown }).parentId);
      await until(() => child0() !== undefined, 'a child node on the server', 20_000);
      expect(stdout).toContain(`Run:      ${server.url}/runs/run1`);
      const target = (child0()!.payload as { nodeId: string }).nodeId;
      const prune = server.command('run1', 'prune', target, 'ada');
      const root = server.command('run1', 'prune', 'n0', 'ada');
      expect(await exited).toBe(0);

      const run = server.runs.get('run1')!;
      expect(run.create).toMatchObject({ goal: '4 9 10 13', task: 'game24', agent: 'arborist-cli' });
      expect(run.create.commands).toEqual(['prune', 'expand', 'pause', 'resume', 'step', 'abort']);
      const kinds = run.items.map((i) => (i.type as string | undefined) ?? `op:${String(i.op)}`);
      expect(kinds).not.toContain('run.started'); // the server writes the run's life itself
      expect(kinds[0]).toBe('node.created');
      expect(kinds.at(-1)).toBe('op:finish');
      const pruneAt = run.items.findIndex((i) => i.type === 'steer.prune');
      expect(run.items[pruneAt]!.payload).toEqual({ nodeId: target, actor: 'ada' });
      const ackAt = run.items.findIndex((i) => i.op === 'ack' && i.command === prune.seq);
      expect(ackAt).toBeGreaterThan(pruneAt); // applied means the engine wrote its effect first
      expect(run.commands.map((c) => [c.seq, c.ack])).toEqual([
        [prune.seq, { outcome: 'applied', reason: null }],
        [root.seq, { outcome: 'refused', reason: 'the root cannot be pruned; abort the run instead' }],
      ]);
      expect(run.items.at(-1)).toMatchObject({ op: 'finish', success: expect.any(Boolean) });
      expect(stdout).toMatch(
        new RegExp(`Server: +${run.items.length} items to ${server.url}/runs/run1 · 0 retried · 2 commands`),
      );
    } finally {
      await server.close();
    }
  }, 60_000);
});
