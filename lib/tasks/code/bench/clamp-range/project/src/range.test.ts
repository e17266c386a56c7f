import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clamp, range } from './range';

test('clamp keeps a value inside the bounds', () => {
  assert.equal(clamp(5, 1, 10), 5);
  assert.equal(clamp(-3, 1, 10), 1);
  assert.equal(clamp(42, 1, 10), 10);
});

test('clamp rejects inverted bounds', () => {
  assert.throws(() => clamp(1, 5, 2), RangeError);
});

test('range excludes its end', () => {
  assert.deepEqual(range(0, 3), [0, 1, 2]);
  assert.deepEqual(range(2, 2), []);
});
