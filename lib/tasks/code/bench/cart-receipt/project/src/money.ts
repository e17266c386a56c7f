/** Money is kept in integer cents; only the printed receipt turns it into text. */

export interface LineItem {
  name: string;
  priceCents: number;
  quantity: number;
}

export function subtotalCents(items: readonly LineItem[]): number {
  return items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
}

/** "$12.50" for 1250. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}
