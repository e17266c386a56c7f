import { formatCents, subtotalCents, type LineItem } from './money';

/** The receipt's lines: one per item, then subtotal, tax (rounded to the cent) and total. */
export function receiptLines(items: readonly LineItem[], taxRate: number): string[] {
  const lines = items.map((item) => `${item.quantity} x ${item.name}: ${formatCents(item.priceCents * item.quantity)}`);
  const subtotal = formatCents(subtotalCents(items));
  const tax = Math.round(subtotal * taxRate);
  lines.push(`Subtotal: ${subtotal}`);
  lines.push(`Tax: ${formatCents(tax)}`);
  lines.push(`Total: ${formatCents(subtotal + tax)}`);
  return lines;
}
