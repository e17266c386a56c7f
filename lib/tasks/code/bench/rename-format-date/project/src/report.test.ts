import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invoiceHeader } from './invoice';
import { dailyCsv } from './report';

test('the daily CSV is sorted by day', () => {
  const counts = new Map([
    [Date.UTC(2024, 0, 2), 5],
    [Date.UTC(2024, 0, 1), 3],
  ]);
  assert.equal(dailyCsv(counts), 'date,count\n2024-01-01,3\n2024-01-02,5');
});

test('the invoice header uses long dates', () => {
  const header = invoiceHeader({ number: 'A-17', issued: new Date(Date.UTC(2024, 4, 1)), due: new Date(Date.UTC(2024, 4, 31)) });
  assert.equal(header, 'Invoice A-17, issued 1 May 2024, due 31 May 2024');
});
