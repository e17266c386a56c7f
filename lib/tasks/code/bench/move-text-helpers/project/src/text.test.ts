import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capitalize, truncate } from './text';

test('capitalize upper-cases the first letter only', () => {
  assert.equal(capitalize('hello world'), 'Hello world');
  assert.equal(capitalize(''), '');
});

test('truncate cuts at a word boundary and counts the dots', () => {
  assert.equal(truncate('short', 10), 'short');
  assert.equal(truncate('the quick brown fox', 13), 'the quick...');
  assert.equal(truncate('abcdefghijkl', 8), 'abcde...');
});
