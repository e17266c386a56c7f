import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Catalog } from './catalog';
import { orderTotalCents, UnknownSkuError } from './order';

const catalog = new Catalog([
  { sku: 'TEA-1', name: 'Green tea', priceCents: 450 },
  { sku: 'MUG-2', name: 'Mug', priceCents: 1200 },
  { sku: 'GIFT-0', name: 'Gift wrap', priceCents: 0 },
]);

test('the total adds every line', () => {
  assert.equal(orderTotalCents(catalog, [{ sku: 'TEA-1', quantity: 3 }, { sku: 'MUG-2', quantity: 1 }]), 2550);
  assert.equal(orderTotalCents(catalog, []), 0);
});

test('a free product is not an unknown one', () => {
  assert.equal(orderTotalCents(catalog, [{ sku: 'GIFT-0', quantity: 2 }]), 0);
});

test('an unknown SKU is named in the error', () => {
  assert.throws(
    () => orderTotalCents(catalog, [{ sku: 'TEA-1', quantity: 1 }, { sku: 'NOPE-9', quantity: 1 }]),
    (error: unknown) => error instanceof UnknownSkuError && error.sku === 'NOPE-9',
  );
});
