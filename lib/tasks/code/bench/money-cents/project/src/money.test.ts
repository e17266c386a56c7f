import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDollars, fromCents, splitEvenly, sum, toCents } from './money';

test('dollars and cents convert exactly', () => {
  assert.equal(toCents(19.99), 1999);
  assert.equal(toCents(0.07), 7);
  assert.equal(fromCents(1999), 19.99);
});

test('a sum of prices is exact to the cent', () => {
  assert.equal(sum([0.1, 0.2]), 0.3);
  assert.equal(sum([19.99, 5.01, 0.35]), 25.35);
});

test('an even split stays even', () => {
  assert.deepEqual(splitEvenly(9, 3), [3, 3, 3]);
});

test('a split loses no cent: the first people pay the leftover', () => {
  assert.deepEqual(splitEvenly(10, 3), [3.34, 3.33, 3.33]);
  assert.deepEqual(splitEvenly(0.05, 2), [0.03, 0.02]);
});

test('dollars print with two decimals', () => {
  assert.equal(formatDollars(3.5), '$3.50');
});
