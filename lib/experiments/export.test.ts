import { describe, expect, it } from 'vitest';
import { parseCsvRecords } from './datasets';
import {
  csvField,
  EXPORT_COLUMNS,
  experimentCsv,
  experimentFileName,
  experimentJson,
  neutraliseFormula,
  type ExperimentExportView,
} from './export';
import { cell } from './testing';

const view: ExperimentExportView = {
  name: 'Beam widths, 24',
  taskId: 'game24',
  items: [
    { goal: '4 9 10 13', expected: null, tags: ['rank:900-999', 'hard'] },
    { goal: '=HYPERLINK("http://x","click")', expected: '-1+2', tags: [] },
  ],
  configurations: [{ label: 'beam 1' }, { label: 'beam, "wide"' }],
  cells: [
    cell({ item: 1, configuration: 0, outcome: 'failed', output: 'line one\r\nline two', bestScore: null }),
    cell({ item: 0, configuration: 1, repetition: 1, outcome: 'queued', runId: null, wallMs: null, costUsd: 0 }),
    cell({ item: 0, configuration: 1, repetition: 0, outcome: 'solved', costUsd: 0.0125, output: '@SUM(A1)' }),
  ],
};

describe('experimentCsv', () => {
  it('writes a header and one CRLF-ended record per cell, by item, configuration and repetition', () => {
    const csv = experimentCsv(view);
    expect(csv.endsWith('\r\n')).toBe(true);
    const read = parseCsvRecords(csv);
    if (!read.ok) throw new Error(read.message);
    const [header, ...rows] = read.records.map((r) => r.fields).filter((f) => f.some(Boolean));
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(rows.map((r) => [r[0], r[4], r[5], r[6]])).toEqual([
      ['0', 'beam, "wide"', '0', 'solved'],
      ['0', 'beam, "wide"', '1', 'queued'],
      ['1', 'beam 1', '0', 'failed'],
    ]);
    expect(rows[0]).toEqual([
      '0',
      '4 9 10 13',
      '',
      'rank:900-999;hard',
      'beam, "wide"',
      '0',
      'solved',
      'run-0-1-0',
      '0.0125',
      '100',
      '2',
      '1000',
      '5',
      '1',
      '0.9',
      "'@SUM(A1)",
    ]);
    // nulls are empty fields
    expect(rows[1]![7]).toBe('');
    expect(rows[1]![11]).toBe('');
  });

  it('neutralises formulas in untrusted text and keeps line breaks inside a quoted field', () => {
    const read = parseCsvRecords(experimentCsv(view));
    if (!read.ok) throw new Error(read.message);
    const failed = read.records.find((r) => r.fields[6] === 'failed')!.fields;
    expect(failed[1]).toBe(`'=HYPERLINK("http://x","click")`);
    expect(failed[2]).toBe("'-1+2");
    expect(failed[15]).toBe('line one\r\nline two');
    expect(failed[14]).toBe('');
  });
});

describe('csvField and neutraliseFormula', () => {
  it('quotes a field with a comma, a quote, CR or LF, doubling its quotes, and leaves others alone', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('a\rb')).toBe('"a\rb"');
  });

  it('prefixes an apostrophe to text starting with = + - @, a tab or a CR, and to nothing else', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutraliseFormula(`${start}1`)).toBe(`'${start}1`);
    expect(neutraliseFormula('1+1')).toBe('1+1');
    expect(neutraliseFormula('')).toBe('');
  });
});

describe('experimentJson', () => {
  it('writes the name, task, labels and rows with their own types, untouched by formula neutralising', () => {
    const json = JSON.parse(experimentJson(view));
    expect(json).toMatchObject({
      name: 'Beam widths, 24',
      taskId: 'game24',
      configurations: ['beam 1', 'beam, "wide"'],
    });
    expect(json.rows).toHaveLength(3);
    expect(json.rows[0]).toMatchObject({
      item: 0,
      tags: ['rank:900-999', 'hard'],
      costUsd: 0.0125,
      output: '@SUM(A1)',
    });
    expect(json.rows[1]).toMatchObject({ runId: null, wallMs: null, outcome: 'queued' });
    expect(json.rows[2]).toMatchObject({ goal: '=HYPERLINK("http://x","click")', expected: '-1+2', bestScore: null });
  });
});

describe('experimentFileName', () => {
  it('makes a file name of letters, digits and dashes', () => {
    expect(experimentFileName('Beam widths, 24 (café)', 'csv')).toBe('beam-widths-24-cafe.csv');
    expect(experimentFileName('!!!', 'json')).toBe('experiment.json');
  });
});
