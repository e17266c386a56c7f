import { describe, expect, it } from 'vitest';
import { fold } from '@/lib/engine/index';
import { externalSearchLog } from '@/lib/engine/testing';
import { configSummary, METADATA_FOLD_CHARS, metadataRows, scoreRows } from './annotations';

describe('a foreign search’s annotations, ready to read', () => {
  it('keeps each named score on its own scale', () => {
    expect(scoreRows({ value: 2, reward: 0.123456, loss: -3.5 }).map((r) => [r.name, r.text])).toEqual([
      ['value', '2'],
      ['reward', '0.1235'],
      ['loss', '-3.5'],
    ]);
  });

  it('reads scalars as themselves and other JSON as pretty text, folding what is long', () => {
    const rows = metadataRows({
      state: 'x=1',
      depth: 3,
      done: false,
      none: null,
      path: ['a', 'b'],
      markup: '<b>not bold</b>',
      essay: 'w'.repeat(METADATA_FOLD_CHARS + 1),
    });
    expect(rows.map((r) => [r.key, r.text, r.structured, r.long])).toEqual([
      ['state', 'x=1', false, false],
      ['depth', '3', false, false],
      ['done', 'false', false, false],
      ['none', 'null', false, false],
      ['path', '[\n  "a",\n  "b"\n]', true, false],
      // text from another program stays text: the page renders it, never parses it as HTML
      ['markup', '<b>not bold</b>', false, false],
      ['essay', 'w'.repeat(METADATA_FOLD_CHARS + 1), false, true],
    ]);
    // a folded value shows one line: structured JSON compact, text its first line, both cut
    expect(metadataRows({ big: { a: 1, b: 2, c: 3, d: 4 } })[0]).toMatchObject({
      long: true,
      summary: '{"a":1,"b":2,"c":3,"d":4}',
    });
    expect(metadataRows({ essay: `\n${'w'.repeat(200)}` })[0]?.summary).toBe(`${'w'.repeat(79)}…`);
  });

  it('reads what the external search log says of node a', () => {
    const a = fold(externalSearchLog()).nodes.a;
    expect(scoreRows(a?.scores ?? {}).map((r) => `${r.name} ${r.text}`)).toEqual(['value 2']);
    expect(metadataRows(a?.metadata ?? {}).map((r) => `${r.key}: ${r.text}`)).toEqual(['state: x=1']);
  });

  it('says a search’s own config on one line', () => {
    expect(configSummary(fold(externalSearchLog()).external?.config ?? {})).toBe('iterations 2 · c 1.4');
    expect(configSummary({ policy: 'uct', rollout: { depth: 3 } })).toBe('policy uct · rollout {"depth":3}');
    expect(configSummary({})).toBe('no config given');
  });
});
