import { fmtDate } from './dates';

/** One CSV row per day: the date, then the count. */
export function dailyCsv(counts: ReadonlyMap<number, number>): string {
  const rows = [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, count]) => `${fmtDate(new Date(day))},${count}`);
  return ['date,count', ...rows].join('\n');
}
