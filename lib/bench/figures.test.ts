import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIGURES_FILE_ENV, formatFigureTable, meetsGoal, readFigures, reportFigures } from './figures';

describe('bench figures', () => {
  const dirs: string[] = [];
  afterEach(() => {
    delete process.env[FIGURES_FILE_ENV];
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('says whether a figure meets its goal, on the right side of it', () => {
    expect(meetsGoal({ name: 'a', value: 19.9, unit: 'µs/node', goal: { op: '<', value: 20 } })).toBe(true);
    expect(meetsGoal({ name: 'a', value: 20, unit: 'µs/node', goal: { op: '<', value: 20 } })).toBe(false);
    expect(meetsGoal({ name: 'b', value: 50, unit: '%', goal: { op: '>=', value: 50 } })).toBe(true);
    expect(meetsGoal({ name: 'b', value: 49.9, unit: '%', goal: { op: '>=', value: 50 } })).toBe(false);
    expect(meetsGoal({ name: 'c', value: 1, unit: 'MB' })).toBeNull();
  });

  it('collects what several benches report into one table with the goal beside each figure', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'figures-test-'));
    dirs.push(dir);
    const file = path.join(dir, 'figures.ndjson');
    reportFigures('engine', [{ name: 'nothing written', value: 1, unit: 'ms' }]); // no file set: a bench run alone
    process.env[FIGURES_FILE_ENV] = file;
    reportFigures('engine', [
      {
        name: 'overhead, beam, 1k nodes',
        value: 12.34,
        unit: 'µs/node',
        goal: { op: '<', value: 20 },
        note: '1.9x a plain loop',
      },
    ]);
    reportFigures('server', [
      { name: 'write path / raw', value: 41, unit: '%', goal: { op: '>=', value: 50 } },
      { name: 'RSS at peak', value: 1234.5, unit: 'MB' },
    ]);
    const figures = readFigures(file);
    expect(figures.map((f) => `${f.bench}: ${f.name}`)).toEqual([
      'engine: overhead, beam, 1k nodes',
      'server: write path / raw',
      'server: RSS at peak',
    ]);
    const lines = formatFigureTable(figures).split('\n');
    expect(lines[2]).toMatch(
      /engine\s+overhead, beam, 1k nodes\s+12\.3 µs\/node\s+< 20\.0 µs\/node\s+met\s+1\.9x a plain loop/,
    );
    expect(lines[3]).toMatch(/server\s+write path \/ raw\s+41\.0 %\s+>= 50\.0 %\s+MISSED/);
    expect(lines[4]).toMatch(/server\s+RSS at peak\s+1,235 MB$/);
  });
});
