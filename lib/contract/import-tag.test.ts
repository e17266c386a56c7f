// The import tag is written in one place and read back for the run page: a ToT log's tag names the file and the
// time, an export's the run it came from, and a tag a person chose is shown as it is.
import { describe, expect, it } from 'vitest';
import { arboristRunTag, describeImportTag, llmReasonersTag, shortImportTag, totLogTag } from './import-tag';

describe('import tags', () => {
  const at = new Date('2025-03-04T05:06:07.000Z');

  it('names a Tree-of-Thoughts log by its file and time, even when the file name has colons', () => {
    expect(totLogTag('sample.json', at)).toBe('tot-log:sample.json:2025-03-04T05:06:07.000Z');
    expect(describeImportTag(totLogTag('sample.json', at))).toEqual({
      kind: 'tot-log',
      what: 'a Tree-of-Thoughts log',
      source: 'sample.json',
      at: '2025-03-04 05:06 UTC',
    });
    expect(describeImportTag(totLogTag('a:b.json', at)).source).toBe('a:b.json');
    expect(describeImportTag(totLogTag('  ', at)).source).toBe('upload');
    expect(describeImportTag(totLogTag(null, at)).source).toBe('upload');
  });

  it('names an llm-reasoners log by its file and time, and reads short as a ToT log does', () => {
    const tag = llmReasonersTag('mcts.json', at);
    expect(describeImportTag(tag)).toEqual({
      kind: 'llm-reasoners',
      what: 'an llm-reasoners MCTS log',
      source: 'mcts.json',
      at: '2025-03-04 05:06 UTC',
    });
    expect(shortImportTag(tag)).toBe('mcts.json · 2025-03-04 05:06');
    expect(describeImportTag(llmReasonersTag(null, at)).source).toBe('upload');
  });

  it('names an Arborist export by the run it came from', () => {
    expect(describeImportTag(arboristRunTag('3f2a'))).toEqual({
      kind: 'arborist.run',
      what: 'an Arborist export',
      source: 'run 3f2a',
      at: null,
    });
  });

  it('shows a tag a person chose as it is', () => {
    expect(describeImportTag('paper rerun')).toEqual({ kind: 'tag', what: 'a file', source: 'paper rerun', at: null });
  });

  it('reads short in the runs list: a log as its file and date, an export as its run, a chosen tag as it is', () => {
    expect(shortImportTag('tot-log:gpt-4_0.7_propose1_value3_greedy5.json:2026-11-30T12:34:56.789Z')).toBe(
      'gpt-4_0.7_propose1_value3_greedy5.json · 2026-11-30 12:34',
    );
    expect(shortImportTag('tot-log:a:b.json:2026-01-02T03:04:05.000Z')).toBe('a:b.json · 2026-01-02 03:04');
    expect(shortImportTag(arboristRunTag('0f1e2d3c-aaaa-bbbb'))).toBe('export of 0f1e2d3c');
    expect(shortImportTag('benchmark week 3')).toBe('benchmark week 3');
  });
});
