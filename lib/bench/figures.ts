/**
 * The headline figures a bench reports to `npm run bench`'s summary table: each with its unit and, where an issue set
 * one, its goal. A bench script calls reportFigures() after printing its own detailed table; when it runs under
 * `npm run bench` (lib/bench/all.ts sets ARBORIST_BENCH_FIGURES to a file) the figures are appended there as one JSON
 * line each, and all.ts prints them together with the goal beside each. Run alone, a bench prints as before and
 * reportFigures() writes nothing.
 * Not responsible for measuring anything, nor for a bench's own detailed output.
 */
import { appendFileSync, readFileSync } from 'node:fs';

/** A goal a figure is held to: "< 20" µs per node, ">= 50" %. */
export interface FigureGoal {
  op: '<' | '<=' | '>' | '>=';
  value: number;
}

export interface BenchFigure {
  /** What was measured, read as a row label: "engine overhead, beam, 100k nodes". */
  name: string;
  value: number;
  /** "µs/node", "%", "MB", "MB/s", "ms", "rows/s"... */
  unit: string;
  /** The goal, when an issue set one; a figure without one is printed for context (RSS at peak). */
  goal?: FigureGoal;
  /** A short remark printed beside it: "12.3x a plain loop", "p95". */
  note?: string;
}

export interface ReportedFigure extends BenchFigure {
  /** The bench that reported it: "engine", "server"... */
  bench: string;
}

/** The environment variable all.ts sets: the file figures are appended to. */
export const FIGURES_FILE_ENV = 'ARBORIST_BENCH_FIGURES';

/** Appends a bench's figures to the summary file when there is one (under `npm run bench`); otherwise does nothing. */
export function reportFigures(bench: string, figures: readonly BenchFigure[]): void {
  const file = process.env[FIGURES_FILE_ENV];
  if (!file) return;
  appendFileSync(file, figures.map((figure) => `${JSON.stringify({ bench, ...figure })}\n`).join(''));
}

export function readFigures(file: string): ReportedFigure[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ReportedFigure);
}

/** Whether a figure meets its goal; null when it has none. */
export function meetsGoal(figure: BenchFigure): boolean | null {
  const goal = figure.goal;
  if (!goal) return null;
  switch (goal.op) {
    case '<':
      return figure.value < goal.value;
    case '<=':
      return figure.value <= goal.value;
    case '>':
      return figure.value > goal.value;
    case '>=':
      return figure.value >= goal.value;
  }
}

/** A figure's value with as many digits as its size deserves: 12,345 / 123 / 12.3 / 1.23. */
export function formatValue(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1_000) return Math.round(value).toLocaleString('en-US');
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The summary table: bench, figure, value and unit, goal, and whether it is met. */
export function formatFigureTable(figures: readonly ReportedFigure[]): string {
  const rows = figures.map((figure) => {
    const met = meetsGoal(figure);
    return [
      figure.bench,
      figure.name,
      `${formatValue(figure.value)} ${figure.unit}`,
      figure.goal ? `${figure.goal.op} ${formatValue(figure.goal.value)} ${figure.unit}` : '',
      met === null ? '' : met ? 'met' : 'MISSED',
      figure.note ?? '',
    ];
  });
  const header = ['bench', 'figure', 'value', 'goal', '', 'note'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 2 || i === 3 ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
