/**
 * An experiment as a download: one row per cell, as CSV (RFC 4180, for a spreadsheet) or JSON (for a script).
 * Goals, expected answers, tags, labels and outputs are untrusted text (an uploaded dataset, a model's answer), so
 * the CSV neutralises spreadsheet formulas: a text field starting with = + - @, a tab or a carriage return gets a
 * leading apostrophe, which spreadsheets read as "this is text" (OWASP's CSV injection advice).
 * Not responsible for fetching the experiment (the page passes what experiment.byId gave it), nor for the figures
 * per configuration (aggregate.ts), nor for serving the file (the page makes a Blob; no server route is needed).
 */
import type { CellFigures, CellOutcome } from '../contract/experiments';

/** What an export needs of an experiment: experiment.byId's answer has all of it. */
export interface ExperimentExportView {
  name: string;
  taskId: string;
  items: { goal: string; expected?: string | null; tags: string[] }[];
  configurations: { label: string }[];
  cells: CellFigures[];
}

/** One cell as exported, in the columns' order. */
export interface ExperimentExportRow {
  item: number;
  goal: string;
  expected: string | null;
  tags: string[];
  configuration: string;
  repetition: number;
  outcome: CellOutcome;
  runId: string | null;
  costUsd: number;
  tokens: number;
  modelCalls: number;
  wallMs: number | null;
  exploredNodes: number;
  backtracks: number;
  bestScore: number | null;
  output: string | null;
}

/** The CSV's header, one name per ExperimentExportRow field, in order. */
export const EXPORT_COLUMNS = [
  'item',
  'goal',
  'expected',
  'tags',
  'configuration',
  'repetition',
  'outcome',
  'run_id',
  'cost_usd',
  'tokens',
  'model_calls',
  'wall_ms',
  'explored_nodes',
  'backtracks',
  'best_score',
  'output',
] as const;

/** Every cell as a row, by item, then configuration, then repetition. */
export function experimentRows(view: ExperimentExportView): ExperimentExportRow[] {
  return [...view.cells]
    .sort((x, y) => x.item - y.item || x.configuration - y.configuration || x.repetition - y.repetition)
    .map((cell) => {
      const item = view.items[cell.item];
      return {
        item: cell.item,
        goal: item?.goal ?? '',
        expected: item?.expected ?? null,
        tags: item?.tags ?? [],
        configuration: view.configurations[cell.configuration]?.label ?? `#${cell.configuration}`,
        repetition: cell.repetition,
        outcome: cell.outcome,
        runId: cell.runId,
        costUsd: cell.costUsd,
        tokens: cell.tokens,
        modelCalls: cell.modelCalls,
        wallMs: cell.wallMs,
        exploredNodes: cell.exploredNodes,
        backtracks: cell.backtracks,
        bestScore: cell.bestScore,
        output: cell.output,
      };
    });
}

/** A text a spreadsheet would run as a formula gets a leading apostrophe. */
export function neutraliseFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV field per RFC 4180: quoted (its quotes doubled) when it holds a comma, a quote, CR or LF. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const text = (value: string | null) => csvField(neutraliseFormula(value ?? ''));
const number = (value: number | null) => (value === null ? '' : String(value));

/** The experiment as CSV: a header, then one CRLF-ended record per cell; null reads as an empty field. */
export function experimentCsv(view: ExperimentExportView): string {
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const row of experimentRows(view)) {
    lines.push(
      [
        number(row.item),
        text(row.goal),
        text(row.expected),
        text(row.tags.join(';')),
        text(row.configuration),
        number(row.repetition),
        row.outcome,
        text(row.runId),
        number(row.costUsd),
        number(row.tokens),
        number(row.modelCalls),
        number(row.wallMs),
        number(row.exploredNodes),
        number(row.backtracks),
        number(row.bestScore),
        text(row.output),
      ].join(','),
    );
  }
  return lines.map((line) => `${line}\r\n`).join('');
}

/** The experiment as JSON text: its name, task, configurations' labels and every row with its own types. */
export function experimentJson(view: ExperimentExportView): string {
  return `${JSON.stringify(
    {
      name: view.name,
      taskId: view.taskId,
      configurations: view.configurations.map((c) => c.label),
      rows: experimentRows(view),
    },
    null,
    2,
  )}\n`;
}

/** A download's file name from the experiment's name: letters, digits and dashes, "experiment" when none is left. */
export function experimentFileName(name: string, format: 'csv' | 'json'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || 'experiment'}.${format}`;
}
