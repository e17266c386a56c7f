// The explore CLI as a person runs it: a real process through tsx, its output and exit codes.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { fold } from '../engine/index';
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

  it.each([
    [['--nope'], /Unknown option '--nope'/],
    [['--task', 'chess'], /unknown task "chess"/],
    [['--puzzle', '1 2 3'], /four/i],
    [['--max-nodes', 'many'], /--max-nodes must be a whole number/],
    [['--strategy', 'random'], /explorationStrategy/],
    [['--task', 'open-goal'], /needs --goal/],
    [['--beam-width', '5'], /beamWidth cannot exceed branchFactor/],
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
