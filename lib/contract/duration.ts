/**
 * The one way a span of time reads (the runs list's duration, the run header's elapsed): 850 ms, 4.2 s, 3 min 20 s,
 * 2 h 5 min. Browser-safe and pure. Not responsible for measuring the span (lib/store/run-clock.ts, the list model).
 */

/** 850 ms, 4.2 s, 3 min 20 s, 2 h 5 min. */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 1_000) return `${Math.round(safe)} ms`;
  if (safe < 60_000) return `${(Math.floor(safe / 100) / 10).toFixed(1)} s`;
  const totalSeconds = Math.floor(safe / 1_000);
  if (totalSeconds < 3_600) {
    const s = totalSeconds % 60;
    return `${Math.floor(totalSeconds / 60)} min${s ? ` ${s} s` : ''}`;
  }
  const minutes = Math.floor(totalSeconds / 60);
  const m = minutes % 60;
  return `${Math.floor(minutes / 60)} h${m ? ` ${m} min` : ''}`;
}
