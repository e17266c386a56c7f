import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCents, subtotalCents } from './money';
import { receiptLines } from './receipt';

const items = [
  { name: 'Notebook', priceCents: 450, quantity: 2 },
  { name: 'Pen', priceCents: 125, quantity: 3 },
];

test('cents are printed as dollars', () => {
  assert.equal(formatCents(1250), '$12.50');
  assert.equal(formatCents(-5), '-$0.05');
});

test('the subtotal counts every unit', () => {
  assert.equal(subtotalCents(items), 1275);
});

test('the receipt adds tax rounded to the cent', () => {
  assert.deepEqual(receiptLines(items, 0.08), [
    '2 x Notebook: $9.00',
    '3 x Pen: $3.75',
    'Subtotal: $12.75',
    'Tax: $1.02',
    'Total: $13.77',
  ]);
});
