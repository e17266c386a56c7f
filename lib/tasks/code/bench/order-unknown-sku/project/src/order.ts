import type { Catalog } from './catalog';

export interface OrderLine {
  sku: string;
  quantity: number;
}

/** Thrown for an order line whose SKU the catalog does not know, so the checkout can name it. */
export class UnknownSkuError extends Error {
  constructor(readonly sku: string) {
    super(`unknown SKU "${sku}"`);
    this.name = 'UnknownSkuError';
  }
}

/** The order's total in cents; an unknown SKU throws UnknownSkuError. */
export function orderTotalCents(catalog: Catalog, lines: readonly OrderLine[]): number {
  let total = 0;
  for (const line of lines) {
    const product = catalog.find(line.sku);
    total += product.priceCents * line.quantity;
  }
  return total;
}
