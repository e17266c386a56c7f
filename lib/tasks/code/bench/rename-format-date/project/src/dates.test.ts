import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as dates from './dates';
import { formatDate } from './dates';

const march7 = new Date(Date.UTC(2024, 2, 7, 23, 30));

test('formatDate writes short and long dates in UTC', () => {
  assert.equal(formatDate(march7), '2024-03-07');
  assert.equal(formatDate(march7, 'long'), '7 Mar 2024');
});

test('the old name fmtDate is gone', () => {
  assert.equal('fmtDate' in dates, false);
});
