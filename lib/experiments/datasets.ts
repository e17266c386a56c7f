/**
 * Datasets from outside: an uploaded file (JSONL or CSV) read into items, and the sets that ship with Arborist
 * listed by id (the upload form, the CLI, dataset.create). Browser-safe, so the form can check a file before it is
 * sent with the same function the server runs.
 * Not responsible for a shipped set's items (shipped.ts reads them from lib/tasks, server side, behind the second
 * door server.ts), nor for storing datasets or their versions (lib/server/experiments).
 */
import { datasetItemSchema, DATASET_MAX_ITEMS, type DatasetItem } from '../contract/experiments';

export type DatasetFileFormat = 'jsonl' | 'csv';

export type DatasetParse =
  | { ok: true; items: DatasetItem[] }
  /** `line` is 1-based: the physical line where the refused record starts. `message` does not repeat it. */
  | { ok: false; line: number; message: string };

type Refusal = Extract<DatasetParse, { ok: false }>;
const refuse = (line: number, message: string): Refusal => ({ ok: false, line, message });

/** A field read as the schema's fields are: trimmed; tags split, trimmed, blanks dropped. */
function tagList(value: string, separators: RegExp): string[] {
  return value
    .split(separators)
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The contract's rule, then the task's own rule for a goal; the first problem found, or the item. */
function checkItem(
  raw: unknown,
  line: number,
  validateGoal: (goal: string) => string | null,
): { ok: true; item: DatasetItem } | Refusal {
  const parsed = datasetItemSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    return refuse(line, `${where}${issue.message}`);
  }
  const problem = validateGoal(parsed.data.goal);
  if (problem) return refuse(line, problem);
  return { ok: true, item: parsed.data };
}

function parseJsonl(text: string, validateGoal: (goal: string) => string | null): DatasetParse {
  const items: DatasetItem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const source = lines[i]!.replace(/\r$/, '');
    const line = i + 1;
    if (!source.trim()) continue;
    if (items.length === DATASET_MAX_ITEMS) return refuse(line, `a dataset holds at most ${DATASET_MAX_ITEMS} items`);
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      return refuse(line, `not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    let raw: unknown;
    if (typeof value === 'string') raw = { goal: value.trim() };
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const { goal, expected, tags, ...rest } = value as Record<string, unknown>;
      raw = {
        ...rest,
        goal: typeof goal === 'string' ? goal.trim() : goal,
        ...(expected === undefined
          ? {}
          : { expected: typeof expected === 'string' ? expected.trim() || null : expected }),
        ...(tags === undefined ? {} : { tags: typeof tags === 'string' ? tagList(tags, /[;,]/) : tags }),
      };
    } else {
      return refuse(line, 'a line is a goal (a JSON string) or an object { "goal": ..., "expected"?, "tags"? }');
    }
    const checked = checkItem(raw, line, validateGoal);
    if (!checked.ok) return checked;
    items.push(checked.item);
  }
  if (items.length === 0) return refuse(1, 'the file has no items');
  return { ok: true, items };
}

/** One CSV record and the physical line (1-based) where it starts. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Reads CSV per RFC 4180: fields separated by commas, records by CRLF or LF (a lone CR too); a field in double
 * quotes may hold commas, quotes (doubled) and line breaks. A quote inside an unquoted field is kept as text; text
 * after a closing quote, or a quote never closed, is refused. A blank line is a record of one empty field.
 */
export function parseCsvRecords(text: string): { ok: true; records: CsvRecord[] } | Refusal {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let afterQuote = false;
  let i = 0;
  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = '';
    afterQuote = false;
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        afterQuote = true;
      } else {
        if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line += 1;
        field += ch;
      }
      i += 1;
      continue;
    }
    if (ch === ',') {
      fields.push(field);
      field = '';
      afterQuote = false;
      i += 1;
    } else if (ch === '\n' || ch === '\r') {
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else if (afterQuote) {
      return refuse(recordLine, `text after a closing quote on line ${line}`);
    } else if (ch === '"' && field === '') {
      quoted = true;
      i += 1;
    } else {
      field += ch;
      i += 1;
    }
  }
  if (quoted) return refuse(recordLine, 'a quoted field is never closed');
  // a final line break ends the last record; text after it is one more record
  if (field !== '' || fields.length > 0 || afterQuote) endRecord();
  return { ok: true, records };
}

const isBlank = (record: CsvRecord) => record.fields.every((f) => f.trim() === '');

function parseCsv(text: string, validateGoal: (goal: string) => string | null): DatasetParse {
  const read = parseCsvRecords(text);
  if (!read.ok) return read;
  const records = read.records.filter((r) => !isBlank(r));
  const header = records.shift();
  if (!header) return refuse(1, 'the file is empty');
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const goalColumn = names.indexOf('goal');
  if (goalColumn < 0) return refuse(header.line, 'the header row has no "goal" column');
  const expectedColumn = names.indexOf('expected');
  const tagsColumn = names.indexOf('tags');
  if (records.length === 0) return refuse(header.line, 'the file has a header but no items');
  const items: DatasetItem[] = [];
  for (const record of records) {
    if (items.length === DATASET_MAX_ITEMS) {
      return refuse(record.line, `a dataset holds at most ${DATASET_MAX_ITEMS} items`);
    }
    if (record.fields.length !== names.length) {
      return refuse(record.line, `${record.fields.length} fields where the header has ${names.length}`);
    }
    const expected = expectedColumn < 0 ? '' : record.fields[expectedColumn]!.trim();
    const raw = {
      goal: record.fields[goalColumn]!.trim(),
      expected: expected || null,
      tags: tagsColumn < 0 ? [] : tagList(record.fields[tagsColumn]!, /;/),
    };
    const checked = checkItem(raw, record.line, validateGoal);
    if (!checked.ok) return checked;
    items.push(checked.item);
  }
  return { ok: true, items };
}

/**
 * An uploaded dataset file's items, or the first problem and its line; nothing partial. JSONL: one JSON value per
 * non-blank line, a string (the goal) or an object { goal, expected?, tags? } (tags an array of strings, or one
 * string split on ';' or ','). CSV: a header row with a `goal` column (any case), optional `expected` and `tags`
 * (split on ';'), RFC 4180 quoting. Every item passes the contract's datasetItemSchema and `validateGoal`, the task's
 * own goal rule (lib/contract/tasks.ts `taskInfo(id).validateGoal`). Goals, expected answers and tags are trimmed;
 * an empty expected answer is none. A UTF-8 byte order mark (Excel's) is dropped.
 */
export function parseDatasetFile(
  format: DatasetFileFormat,
  text: string,
  validateGoal: (goal: string) => string | null,
): DatasetParse {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!body.trim()) return refuse(1, 'the file is empty');
  return format === 'jsonl' ? parseJsonl(body, validateGoal) : parseCsv(body, validateGoal);
}

/** The Game of 24 puzzles shipped (lib/tasks/game24/puzzles.csv, the paper's list, ranked by human solve time). */
export const GAME24_PUZZLE_COUNT = 1362;

/** A set that ships with Arborist, chosen by id in dataset.create's `shipped`. */
export interface ShippedDataset {
  id: string;
  taskId: string;
  name: string;
  description: string;
}

/** The listed sets. Any `game24:<start>-<end>` range is accepted too (parseShippedDatasetId). */
export const SHIPPED_DATASETS: readonly ShippedDataset[] = [
  {
    id: 'game24:900-999',
    taskId: 'game24',
    name: 'Game of 24: the paper’s test set',
    description:
      'Puzzles 900-999 (100 puzzles) of the 1,362 ranked by human solve time: the hard set the Tree-of-Thoughts ' +
      'paper reports on.',
  },
  {
    id: 'game24:0-99',
    taskId: 'game24',
    name: 'Game of 24: the easiest 100',
    description: 'Puzzles 0-99 (100 puzzles): the quickest for people, a smoke test for a configuration.',
  },
  {
    id: `game24:0-${GAME24_PUZZLE_COUNT - 1}`,
    taskId: 'game24',
    name: 'Game of 24: every puzzle',
    description: `All ${GAME24_PUZZLE_COUNT.toLocaleString('en')} puzzles, easiest first.`,
  },
  {
    id: 'code:bench',
    taskId: 'code',
    name: 'Code change: the benchmark projects',
    description: 'Every bundled benchmark project (lib/tasks/code/bench), each as "project: bench/<id>".',
  },
];

export type ShippedDatasetRef = { kind: 'game24'; start: number; end: number } | { kind: 'code-bench' };

/**
 * What a shipped set's id names: `game24:<start>-<end>` (0-based inclusive indices into the 1,362 puzzles, start
 * <= end) or `code:bench`; null for anything else, an out-of-range or reversed range included.
 */
export function parseShippedDatasetId(id: string): ShippedDatasetRef | null {
  if (id === 'code:bench') return { kind: 'code-bench' };
  const match = /^game24:(\d{1,5})-(\d{1,5})$/.exec(id);
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (start > end || end >= GAME24_PUZZLE_COUNT) return null;
  return { kind: 'game24', start, end };
}

/** A shipped set's description by id: a listed one, or one made for a valid game24 range; null otherwise. */
export function shippedDataset(id: string): ShippedDataset | null {
  const listed = SHIPPED_DATASETS.find((d) => d.id === id);
  if (listed) return listed;
  const ref = parseShippedDatasetId(id);
  if (ref?.kind !== 'game24') return null;
  const count = ref.end - ref.start + 1;
  return {
    id,
    taskId: 'game24',
    name: `Game of 24: puzzles ${ref.start}-${ref.end}`,
    description: `Puzzles ${ref.start}-${ref.end} (${count} puzzle${count === 1 ? '' : 's'}) of the ${GAME24_PUZZLE_COUNT.toLocaleString('en')} ranked by human solve time.`,
  };
}
