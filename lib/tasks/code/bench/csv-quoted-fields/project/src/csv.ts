/** Reads the contacts export: comma-separated lines, the first naming the columns. */

/** The fields of one CSV line. */
export function parseLine(line: string): string[] {
  return line.split(',').map((field) => field.trim());
}

/** Each row as an object keyed by the header's column names; blank lines are skipped. */
export function parseCsv(text: string): Record<string, string>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const header = parseLine(lines[0] ?? '');
  return lines.slice(1).map((line) => {
    const fields = parseLine(line);
    return Object.fromEntries(header.map((name, i) => [name, fields[i] ?? '']));
  });
}
