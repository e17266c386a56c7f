import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visiblePages } from './pager';

test('five pages around the current one', () => {
  assert.deepEqual(visiblePages(6, 20, 5), [4, 5, 6, 7, 8]);
});

test('the window stays inside the first and last page', () => {
  assert.deepEqual(visiblePages(1, 20, 5), [1, 2, 3, 4, 5]);
  assert.deepEqual(visiblePages(20, 20, 5), [16, 17, 18, 19, 20]);
  assert.deepEqual(visiblePages(2, 3, 5), [1, 2, 3]);
});
