import { describe, expect, it } from 'vitest';
import { DATASET_MAX_ITEMS } from '../contract/experiments';
import { taskInfo } from '../contract/tasks';
import {
  GAME24_PUZZLE_COUNT,
  parseCsvRecords,
  parseDatasetFile,
  parseShippedDatasetId,
  SHIPPED_DATASETS,
  shippedDataset,
} from './datasets';

const game24 = taskInfo('game24')!.validateGoal;
const openGoal = taskInfo('open-goal')!.validateGoal;

describe('parseDatasetFile: JSONL', () => {
  it('reads strings and objects, skipping blank lines, with tags as an array or a split string', () => {
    const text = [
      '"4 9 10 13"',
      '',
      '{"goal": "1 1 4 6", "expected": "(1+1+4)*6", "tags": ["easy", "paper"]}',
      '{"goal": " 2 3 4 5 ", "tags": "a; b,c"}\r',
      '   ',
    ].join('\n');
    expect(parseDatasetFile('jsonl', text, game24)).toEqual({
      ok: true,
      items: [
        { goal: '4 9 10 13', tags: [] },
        { goal: '1 1 4 6', expected: '(1+1+4)*6', tags: ['easy', 'paper'] },
        { goal: '2 3 4 5', tags: ['a', 'b', 'c'] },
      ],
    });
  });

  it("refuses the first goal the task's rule refuses, with its line and the task's message", () => {
    const text = '"4 9 10 13"\n\n"4 9 10"\n"1"';
    const result = parseDatasetFile('jsonl', text, game24);
    expect(result).toEqual({ ok: false, line: 3, message: game24('4 9 10') });
    expect(game24('4 9 10')).toMatch(/four whole numbers/);
  });

  it('refuses a line that is not JSON, a value that is neither a string nor an object, and an unknown field', () => {
    expect(parseDatasetFile('jsonl', '"a"\n{goal: 1}', openGoal)).toMatchObject({ ok: false, line: 2 });
    expect(parseDatasetFile('jsonl', '[1]', openGoal)).toMatchObject({ ok: false, line: 1 });
    expect(parseDatasetFile('jsonl', '42', openGoal)).toMatchObject({ ok: false, line: 1 });
    const unknown = parseDatasetFile('jsonl', '{"goal": "x", "answer": "y"}', openGoal);
    expect(unknown).toMatchObject({ ok: false, line: 1 });
    expect(!unknown.ok && unknown.message).toMatch(/answer/);
  });

  it("refuses an item the contract's schema refuses (an empty goal, a tag that is not a string)", () => {
    expect(parseDatasetFile('jsonl', '"ok"\n{"goal": ""}', openGoal)).toMatchObject({ ok: false, line: 2 });
    const badTag = parseDatasetFile('jsonl', '{"goal": "x", "tags": [1]}', openGoal);
    expect(badTag).toMatchObject({ ok: false, line: 1 });
    expect(!badTag.ok && badTag.message).toMatch(/^tags\.0: /);
  });

  it('refuses an empty file and more than DATASET_MAX_ITEMS items', () => {
    expect(parseDatasetFile('jsonl', '', openGoal)).toEqual({ ok: false, line: 1, message: 'the file is empty' });
    expect(parseDatasetFile('jsonl', '\n  \n', openGoal)).toMatchObject({ ok: false, line: 1 });
    const many = Array.from({ length: DATASET_MAX_ITEMS + 1 }, (_, i) => `"goal ${i}"`).join('\n');
    expect(parseDatasetFile('jsonl', many, openGoal)).toMatchObject({ ok: false, line: DATASET_MAX_ITEMS + 1 });
    const enough = Array.from({ length: DATASET_MAX_ITEMS }, (_, i) => `"goal ${i}"`).join('\n');
    expect(parseDatasetFile('jsonl', enough, openGoal).ok).toBe(true);
  });
});

describe('parseDatasetFile: CSV', () => {
  it('reads a header with goal, expected and tags in any case and order, CRLF or LF, a BOM dropped', () => {
    const text = '\uFEFFTags,GOAL,Expected\r\neasy;paper,1 1 4 6,(1+1+4)*6\r\n,4 9 10 13,\r\n';
    expect(parseDatasetFile('csv', text, game24)).toEqual({
      ok: true,
      items: [
        { goal: '1 1 4 6', expected: '(1+1+4)*6', tags: ['easy', 'paper'] },
        { goal: '4 9 10 13', expected: null, tags: [] },
      ],
    });
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and ignores other columns', () => {
    const text = 'id,goal\n1,"Make it faster, please"\n2,"Say ""hi""\nthen stop"\n';
    expect(parseDatasetFile('csv', text, openGoal)).toEqual({
      ok: true,
      items: [
        { goal: 'Make it faster, please', expected: null, tags: [] },
        { goal: 'Say "hi"\nthen stop', expected: null, tags: [] },
      ],
    });
  });

  it('reports the physical line where a bad record starts, past a quoted line break', () => {
    const text = 'goal\n"4 9\n10 13"\n\n4 9 10\n';
    // record 1 starts on line 2 and spans line 3 (its goal has a line break, which the puzzle rule tolerates)
    expect(parseDatasetFile('csv', text, game24)).toEqual({ ok: false, line: 5, message: game24('4 9 10') });
  });

  it('refuses a missing goal column, a header alone, an empty file and a record of the wrong width', () => {
    expect(parseDatasetFile('csv', 'prompt\nx\n', openGoal)).toMatchObject({ ok: false, line: 1 });
    expect(parseDatasetFile('csv', 'goal\n', openGoal)).toMatchObject({ ok: false, line: 1 });
    expect(parseDatasetFile('csv', '\r\n', openGoal)).toMatchObject({ ok: false, line: 1 });
    expect(parseDatasetFile('csv', 'goal,tags\nx,a\ny\n', openGoal)).toMatchObject({ ok: false, line: 3 });
  });

  it('refuses an unclosed quote and text after a closing quote at the record that holds them', () => {
    expect(parseDatasetFile('csv', 'goal\nok\n"never closed\nmore', openGoal)).toMatchObject({ ok: false, line: 3 });
    expect(parseDatasetFile('csv', 'goal\n"a"b\n', openGoal)).toMatchObject({ ok: false, line: 2 });
  });

  it('refuses more than DATASET_MAX_ITEMS rows', () => {
    const rows = Array.from({ length: DATASET_MAX_ITEMS + 1 }, (_, i) => `goal ${i}`);
    const result = parseDatasetFile('csv', `goal\n${rows.join('\n')}`, openGoal);
    expect(result).toMatchObject({ ok: false, line: DATASET_MAX_ITEMS + 2 });
  });
});

describe('parseCsvRecords', () => {
  it('keeps empty fields, a lone CR as a line break, and a last record without a line break', () => {
    expect(parseCsvRecords('a,,"",b\rc\r\nd')).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ['a', '', '', 'b'] },
        { line: 2, fields: ['c'] },
        { line: 3, fields: ['d'] },
      ],
    });
  });

  it('keeps a quote inside an unquoted field as text', () => {
    expect(parseCsvRecords('5" screen,x')).toEqual({ ok: true, records: [{ line: 1, fields: ['5" screen', 'x'] }] });
  });
});

describe('shipped sets', () => {
  it("lists the paper's test set, the easiest 100, every puzzle and the code benchmark, each of a known task", () => {
    expect(SHIPPED_DATASETS.map((d) => d.id)).toEqual(['game24:900-999', 'game24:0-99', 'game24:0-1361', 'code:bench']);
    for (const d of SHIPPED_DATASETS) {
      expect(taskInfo(d.taskId)).not.toBeNull();
      expect(parseShippedDatasetId(d.id)).not.toBeNull();
    }
  });

  it('reads game24 ranges as 0-based inclusive indices and refuses reversed or out-of-range ones', () => {
    expect(parseShippedDatasetId('game24:900-999')).toEqual({ kind: 'game24', start: 900, end: 999 });
    expect(parseShippedDatasetId('game24:5-5')).toEqual({ kind: 'game24', start: 5, end: 5 });
    expect(parseShippedDatasetId(`game24:0-${GAME24_PUZZLE_COUNT - 1}`)).not.toBeNull();
    expect(parseShippedDatasetId(`game24:0-${GAME24_PUZZLE_COUNT}`)).toBeNull();
    expect(parseShippedDatasetId('game24:10-9')).toBeNull();
    expect(parseShippedDatasetId('game24:-1-9')).toBeNull();
    expect(parseShippedDatasetId('game24:1.5-9')).toBeNull();
    expect(parseShippedDatasetId('crosswords:0-19')).toBeNull();
    expect(parseShippedDatasetId('code:bench')).toEqual({ kind: 'code-bench' });
  });

  it('describes a listed set as listed and makes a description for any valid game24 range', () => {
    expect(shippedDataset('game24:900-999')).toBe(SHIPPED_DATASETS[0]);
    expect(shippedDataset('game24:10-19')).toMatchObject({ taskId: 'game24', name: 'Game of 24: puzzles 10-19' });
    expect(shippedDataset('game24:10-19')!.description).toMatch(/10 puzzles/);
    expect(shippedDataset('game24:2000-2001')).toBeNull();
    expect(shippedDataset('nope')).toBeNull();
  });
});
