// How an import tag reads in the runs list (issue 10, item 14).
import { describe, expect, it } from 'vitest';
import { readableTag } from './run-list';

describe('readableTag', () => {
  it('reads a Tree-of-Thoughts log import as its file and date', () => {
    expect(readableTag('tot-log:gpt-4_0.7_propose1_value3_greedy5.json:2026-11-30T12:34:56.789Z')).toBe(
      'gpt-4_0.7_propose1_value3_greedy5.json · 2026-11-30 12:34',
    );
    expect(readableTag('tot-log:a:b.json:2026-01-02T03:04:05.000Z')).toBe('a:b.json · 2026-01-02 03:04');
  });
  it('reads an Arborist export as the run it came from, and keeps a chosen tag as it is', () => {
    expect(readableTag('arborist.run:0f1e2d3c-aaaa-bbbb')).toBe('export of 0f1e2d3c');
    expect(readableTag('benchmark week 3')).toBe('benchmark week 3');
  });
});
