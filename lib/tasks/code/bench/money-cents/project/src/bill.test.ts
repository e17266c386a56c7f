import { test } from 'node:test';
import assert from 'node:assert/strict';
import { billLines } from './bill';

test('a bill of 20 dollars with no tip, split in two', () => {
  assert.deepEqual(billLines([12, 8], 0, 2), ['Person 1: $10.00', 'Person 2: $10.00']);
});

test('the shares of a bill add up to the total with tip', () => {
  assert.deepEqual(billLines([10.1, 0.2], 0.1, 3), ['Person 1: $3.78', 'Person 2: $3.78', 'Person 3: $3.77']);
});
