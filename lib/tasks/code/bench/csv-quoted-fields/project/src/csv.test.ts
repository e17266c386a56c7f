import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv, parseLine } from './csv';

test('plain fields are split at commas and trimmed', () => {
  assert.deepEqual(parseLine('a, b ,c'), ['a', 'b', 'c']);
  assert.deepEqual(parseLine('a,,c'), ['a', '', 'c']);
});

test('a quoted field keeps its commas and its doubled quotes', () => {
  assert.deepEqual(parseLine('"Smith, Jane",jane@example.com'), ['Smith, Jane', 'jane@example.com']);
  assert.deepEqual(parseLine('"say ""hi""",x'), ['say "hi"', 'x']);
});

test('rows are keyed by the header', () => {
  assert.deepEqual(parseCsv('name,email\n\nAda,ada@example.com\n'), [{ name: 'Ada', email: 'ada@example.com' }]);
});
