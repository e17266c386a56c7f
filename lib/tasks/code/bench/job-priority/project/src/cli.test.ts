import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAdd } from './cli';

test('add reads the job id', () => {
  assert.deepEqual(parseAdd(['add', 'build']), { id: 'build' });
  assert.throws(() => parseAdd(['remove', 'build']), /usage/);
});

test('add reads --priority', () => {
  assert.deepEqual(parseAdd(['add', 'build', '--priority', '3']), { id: 'build', priority: 3 });
  assert.deepEqual(parseAdd(['add', 'docs', '--priority', '-2']), { id: 'docs', priority: -2 });
});

test('a priority that is not an integer is refused with the usage', () => {
  assert.throws(() => parseAdd(['add', 'build', '--priority', 'high']), /usage/);
  assert.throws(() => parseAdd(['add', 'build', '--priority', '1.5']), /usage/);
  assert.throws(() => parseAdd(['add', 'build', '--priority']), /usage/);
});
