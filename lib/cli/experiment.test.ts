// The experiment command: its flags, and one whole run of its local mode as a person runs it (a real process through
// tsx on a temporary SQLite file), its table read against experiment.byId read back from that file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../server/index';
import { UsageError } from './args';
import { parseConfiguration, parseExperimentArgs } from './experiment-args';
import { localExperimentApi } from './experiment-local';
import { labelLines, TABLE_COLUMNS, tableRow } from './experiment-table';

const exec = promisify(execFile);
const cli = (args: string[], env: Record<string, string>) =>
  exec(process.execPath, ['--import', 'tsx', 'lib/cli/experiment.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('parseExperimentArgs', () => {
  it('reads two configurations over typed goals, with the model flags on each', () => {
    const s = parseExperimentArgs([
      '--items',
      '4 9 10 13',
      '--items',
      '1 1 4 6',
      '--config',
      'b1:beamWidth=1',
      '--config',
      'b5:beamWidth=5,branchFactor=5,strategy=best-first',
      '--model',
      'simulated',
      '--seed',
      '7',
      '--latency',
      '0',
      '--repetitions',
      '2',
      '--cap',
      '0.5',
      '--name',
      'beam widths',
    ]);
    expect(s).toEqual({
      taskId: 'game24',
      source: { kind: 'items', items: ['4 9 10 13', '1 1 4 6'] },
      configurations: [
        { label: 'b1', config: { beamWidth: 1 }, model: { provider: 'simulated', seed: 7, latencyMs: 0 } },
        {
          label: 'b5',
          config: { beamWidth: 5, branchFactor: 5, explorationStrategy: 'best-first' },
          model: { provider: 'simulated', seed: 7, latencyMs: 0 },
        },
      ],
      repetitions: 2,
      costCapUsd: 0.5,
      name: 'beam widths',
      server: null,
      apiKey: null,
      json: false,
    });
  });

  it('leaves the model to the server when no model flag is given, and reads a dataset, a file and a server', () => {
    const s = parseExperimentArgs(
      ['--dataset', 'game24:900-909', '--config', 'base', '--server', 'http://127.0.0.1:3000/', '--json'],
      { ARBORIST_API_KEY: 'from-env' },
    );
    expect(s).toMatchObject({
      source: { kind: 'dataset', id: 'game24:900-909' },
      configurations: [{ label: 'base', config: {} }],
      server: 'http://127.0.0.1:3000',
      apiKey: 'from-env',
      json: true,
    });
    expect(s?.configurations[0]).not.toHaveProperty('model');
    expect(parseExperimentArgs(['--file', 'goals.csv', '--config', 'a:maxDepth=3'])?.source).toEqual({
      kind: 'file',
      path: 'goals.csv',
      format: 'csv',
    });
    expect(parseExperimentArgs(['--resume', 'e1'])?.source).toEqual({ kind: 'resume', id: 'e1' });
    expect(parseExperimentArgs(['--help'])).toBeNull();
  });

  it('reads a configuration whose values are numbers, strategies and no-limit', () => {
    expect(parseConfiguration('dfs:strategy=dfs,timeout=none,confidenceThreshold=0.4')).toEqual({
      label: 'dfs',
      config: { explorationStrategy: 'dfs', timeout: null, confidenceThreshold: 0.4 },
    });
  });

  it('reads an MCTS configuration with its own settings, numbers as numbers and rules as given', () => {
    expect(parseConfiguration('uct:strategy=mcts,mctsIterations=80,mctsExploration=0.5,mctsBackup=max')).toEqual({
      label: 'uct',
      config: { explorationStrategy: 'mcts', mctsIterations: 80, mctsExploration: 0.5, mctsBackup: 'max' },
    });
    expect(parseConfiguration('uct:strategy=mcts,mctsRolloutDepth=3,mctsBestBy=q').config).toEqual({
      explorationStrategy: 'mcts',
      mctsRolloutDepth: 3,
      mctsBestBy: 'q',
    });
  });

  it.each([
    [['--nope'], /Unknown option '--nope'/],
    [['--config', 'a:beamWidth=1'], /give the goals: --items/],
    [['--items', '4 9 10 13'], /give at least one configuration/],
    [['--items', '4 9 10 13', '--dataset', 'game24:900-909', '--config', 'a'], /not --items and --dataset/],
    [['--task', 'chess', '--items', 'x', '--config', 'a'], /unknown task "chess"/],
    [['--items', 'x', '--config', ':beamWidth=1'], /needs a label before the colon/],
    [['--items', 'x', '--config', 'a:beamWidth'], /"beamWidth" is not key=value/],
    [['--items', 'x', '--config', 'a:width=3'], /unknown key "width"; the keys are maxDepth/],
    [['--items', 'x', '--config', 'a:beamWidth=wide'], /beamWidth/],
    [['--items', 'x', '--config', 'a:strategy=random'], /explorationStrategy/],
    [['--items', 'x', '--config', 'a:beamWidth=1,beamWidth=2'], /beamWidth is given twice/],
    [
      ['--items', 'x', '--config', 'm:strategy=mcts,mctsExploration=-1'],
      /mctsExploration: the exploration constant cannot be negative/,
    ],
    [['--items', 'x', '--config', 'm:strategy=mcts,mctsExploration=Infinity'], /mctsExploration: .*expected number/],
    [['--items', 'x', '--config', 'm:strategy=mcts,mctsExploration=NaN'], /mctsExploration: .*expected number/],
    [['--items', 'x', '--config', 'm:strategy=mcts,mctsIterations=0'], /mctsIterations: an iteration budget must be/],
    [
      ['--items', 'x', '--config', 'm:strategy=mcts,maxDepth=3,mctsRolloutDepth=4'],
      /"m:strategy=mcts,maxDepth=3,mctsRolloutDepth=4": mctsRolloutDepth: a rollout cannot go deeper than maxDepth/,
    ],
    [['--items', 'x', '--config', 'm:strategy=mcts,mctsBackup=median'], /mctsBackup/],
    [['--items', 'x', '--config', 'm:mctsIterations=10'], /"m:mctsIterations=10": mctsIterations is for strategy=mcts/],
    [['--items', 'x', '--config', 'a:beamWidth=5'], /beamWidth: beamWidth cannot exceed branchFactor/],
    [['--items', 'x', '--config', 'a', '--config', 'a:beamWidth=2'], /two configurations are labelled "a"/],
    [['--items', 'x', '--config', 'a', '--repetitions', '0'], /--repetitions must be at least 1/],
    [['--items', 'x', '--config', 'a', '--repetitions', '1.5'], /--repetitions must be a whole number/],
    [['--items', 'x', '--config', 'a', '--cap=-1'], /--cap must be more than 0/],
    [['--items', 'x', '--config', 'a', '--latency=-5'], /--latency cannot be negative/],
    [['--items', 'x', '--config', 'a', '--model', 'gpt-4o'], /the CLI starts the simulated model only/],
    [['--file', 'goals.txt', '--config', 'a'], /name a .jsonl or a .csv file/],
    [['--resume', 'e1', '--config', 'a'], /--resume follows an experiment as it was made: drop --config/],
    [['--items', 'x', '--config', 'a', '--server', 'localhost:3000'], /--server must be the server's address/],
    [['--items', 'x', '--config', 'a', '--api-key', 'k'], /--api-key goes with --server/],
  ])('refuses %j with a clear message', (args, message) => {
    expect(() => parseExperimentArgs(args, {})).toThrow(UsageError);
    expect(() => parseExperimentArgs(args, {})).toThrow(message);
  });
});

describe('labelLines', () => {
  it('prints each configuration’s labels under the table, nothing when none is labelled or the server has no labels', () => {
    expect(
      labelLines([
        {
          label: 'beam 1',
          labels: [
            { label: 'evaluator wrong', count: 2 },
            { label: 'good thought', count: 1 },
          ],
        },
        { label: 'b5', labels: [] },
      ]),
    ).toEqual(['Labels:     beam 1  evaluator wrong 2 · good thought 1', '            b5      —']);
    expect(labelLines([{ label: 'b1', labels: [] }])).toEqual([]);
    expect(labelLines([{ label: 'b1' }])).toEqual([]);
  });
});

describe('npm run experiment (local mode)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'arborist-experiment-cli-'));
  const env = { DATABASE_URL: `file:${join(dir, 'cli.db')}`, ARBORIST_MAX_CONCURRENT_RUNS: '2' };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs 3 puzzles x 2 configurations into the file and prints experiment.byId’s figures', async () => {
    const out = await cli(
      [
        ...['--items', '4 9 10 13', '--items', '1 1 4 6', '--items', '2 3 5 12'],
        ...['--config', 'b1:beamWidth=1', '--config', 'b3:beamWidth=3,branchFactor=3'],
        ...['--model', 'simulated', '--seed', '3', '--latency', '0', '--name', 'cli test'],
      ],
      env,
    );
    expect(out.stderr).toMatch(/^6 cells \(3 items x 2 configurations x 1 repetition\)/m);
    expect(out.code).toBe(0);
    const id = /Experiment: (\S+) · (\S+)/.exec(out.stderr)?.[1];
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(out.stdout).toContain(`/experiments/${id}`);

    // read back from the file by a fresh set of services, as the app would
    const api = await localExperimentApi({ env, warn: () => {} });
    try {
      const view = await api.byId(id!);
      expect(view.status).toBe('finished');
      expect(view.name).toBe('cli test');
      expect(view.progress).toMatchObject({ done: 6, total: 6 });
      const lines = out.stdout.split('\n');
      const header = lines.findIndex((l) => l.startsWith(TABLE_COLUMNS[0]));
      expect(header).toBeGreaterThanOrEqual(0);
      for (const [i, configuration] of view.configurations.entries()) {
        const printed = lines[header + 2 + i]!.split(/ {2,}/);
        expect(printed).toEqual(tableRow(configuration));
        // the figures themselves, not only their rounding: solved/done exactly, the rate to its printed digit
        expect(printed[2]).toBe(`${configuration.solved}/${configuration.done}`);
        expect(configuration.done).toBe(3);
        expect(Number.parseFloat(printed[1]!)).toBeCloseTo((configuration.successRate ?? 0) * 100, 1);
      }
      // every cell is a stored run of this file, with its own goal
      const runIds = view.cells.map((c) => c.runId);
      expect(runIds.every((r) => r !== null)).toBe(true);
      expect(new Set(runIds).size).toBe(6);
      for (const cell of view.cells) expect(cell.outcome).toMatch(/^(solved|failed|error)$/);
      const prisma = createPrismaClient(join(dir, 'cli.db'));
      const runs = await prisma.run.findMany({
        where: { id: { in: runIds as string[] } },
        select: { goal: true, status: true },
      });
      await prisma.$disconnect();
      expect(runs).toHaveLength(6);
      expect(new Set(runs.map((r) => r.goal))).toEqual(new Set(['4 9 10 13', '1 1 4 6', '2 3 5 12']));
      expect(runs.every((r) => r.status === 'finished' || r.status === 'failed')).toBe(true);
    } finally {
      await api.close();
    }
  }, 120_000);

  it('refuses an experiment the server would refuse, with the field, and exits 2', async () => {
    const out = await cli(['--items', '1 2 3', '--config', 'a', '--latency', '0'], env);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^experiment: items/m);
  }, 60_000);
});
