/** The shop's catalog: products by SKU. */

export interface Product {
  sku: string;
  name: string;
  priceCents: number;
}

export class Catalog {
  private bySku = new Map<string, Product>();

  constructor(products: readonly Product[]) {
    for (const product of products) this.bySku.set(product.sku, product);
  }

  /** The product with this SKU, or undefined when the catalog has none. */
  find(sku: string): Product | undefined {
    return this.bySku.get(sku);
  }
}
