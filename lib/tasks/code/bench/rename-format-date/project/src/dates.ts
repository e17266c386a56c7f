/** Dates as the reports print them, always in UTC so a report reads the same on every server. */

export type DateStyle = 'short' | 'long';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number): string => String(n).padStart(2, '0');

/** "2024-03-07" (short) or "7 Mar 2024" (long). */
export function fmtDate(date: Date, style: DateStyle = 'short'): string {
  if (style === 'long') return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}
