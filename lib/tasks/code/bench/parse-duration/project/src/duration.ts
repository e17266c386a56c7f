/** Durations written the way people type them in config files: "90s", "1h30m", "2h 5m 10s". */

const UNIT_MS: Record<'h' | 'm' | 's', number> = { h: 3_600_000, m: 60_000, s: 1_000 };

/** Milliseconds in `text`; throws on anything that is not a duration. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (!/^(\d+\s*[hms]\s*)+$/.test(trimmed)) throw new SyntaxError(`not a duration: "${text}"`);
  const match = /(\d+)\s*([hms])/.exec(trimmed);
  if (!match) throw new SyntaxError(`not a duration: "${text}"`);
  const unit = match[2] as 'h' | 'm' | 's';
  return Number(match[1]) * UNIT_MS[unit];
}

/** The duration in the shortest form parseDuration reads back ("1h30m"). */
export function formatDuration(ms: number): string {
  let rest = Math.round(ms / 1000);
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const parts = [hours ? `${hours}h` : '', minutes ? `${minutes}m` : '', seconds ? `${seconds}s` : ''];
  return parts.join('') || '0s';
}
