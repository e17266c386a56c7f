/**
 * Checks a batch's raw items one by one and names each problem by its place in the batch
 * ("items[3].payload.nodeId: ..."): an item with `op` is checked against that operation's schema only, one with
 * `type` against the event item's envelope and then that event type's payload schema, so a mistake gets one precise
 * message rather than a union's list of every alternative. Pure.
 * Not responsible for whether the items fit the run (their seqs, the tree they fold onto: service.ts).
 */
import type { z } from 'zod';
import { payloadSchemas } from '../../contract/events';
import { ingestEventItemSchema, ingestOpSchema, type IngestItem, MAX_BATCH_ITEMS } from '../../contract/ingest';

export interface BatchIssue {
  path: string;
  message: string;
}

type OpSchema = (typeof ingestOpSchema.options)[number];
/** An operation's name: its object's `op` literal (a finish is an object piped through a transform). */
const opName = (schema: OpSchema): string => ('in' in schema ? schema.in : schema).shape.op.value;
const OP_SCHEMAS = new Map<string, OpSchema>(ingestOpSchema.options.map((schema) => [opName(schema), schema]));
const OP_NAMES = [...OP_SCHEMAS.keys()];

/** "items[3].payload.nodeId" from a zod issue's path under a prefix. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    prefix,
  );
}

function issuesOf(prefix: string, error: z.ZodError): BatchIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(prefix, issue.path), message: issue.message }));
}

/** One raw item, checked: the item, or its problems under `items[index]`. */
export function validateItem(raw: unknown, index: number): { item: IngestItem } | { issues: BatchIssue[] } {
  const at = `items[${index}]`;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { issues: [{ path: at, message: 'an item is a JSON object' }] };
  }
  const record = raw as Record<string, unknown>;
  if ('op' in record) {
    const schema = typeof record.op === 'string' ? OP_SCHEMAS.get(record.op) : undefined;
    if (!schema) {
      return {
        issues: [
          { path: `${at}.op`, message: `unknown op ${JSON.stringify(record.op)}: one of ${OP_NAMES.join(', ')}` },
        ],
      };
    }
    const parsed = schema.safeParse(raw);
    return parsed.success ? { item: parsed.data } : { issues: issuesOf(at, parsed.error) };
  }
  if ('type' in record) {
    const envelope = ingestEventItemSchema.safeParse(raw);
    if (!envelope.success) return { issues: issuesOf(at, envelope.error) };
    const payload = payloadSchemas[envelope.data.type].safeParse(envelope.data.payload);
    if (!payload.success) return { issues: issuesOf(`${at}.payload`, payload.error) };
    return { item: { ...envelope.data, payload: payload.data } };
  }
  return { issues: [{ path: at, message: 'an item has "op" (an operation) or "type" (an event)' }] };
}

/** How many problems a 400 lists at most (a batch of 5,000 bad items needs one or two to be understood). */
const MAX_ISSUES = 20;

/**
 * Every item checked, and their seqs: consecutive within the batch (the first may be any: a retry starts below the
 * stored end). All problems found (up to MAX_ISSUES), or the items.
 */
export function validateBatch(raw: readonly unknown[]): { items: IngestItem[] } | { issues: BatchIssue[] } {
  if (raw.length === 0) return { issues: [{ path: 'items', message: 'the batch is empty' }] };
  if (raw.length > MAX_BATCH_ITEMS) {
    return {
      issues: [{ path: 'items', message: `a batch holds at most ${MAX_BATCH_ITEMS} items, got ${raw.length}` }],
    };
  }
  const items: IngestItem[] = [];
  const issues: BatchIssue[] = [];
  for (const [index, value] of raw.entries()) {
    const result = validateItem(value, index);
    if ('issues' in result) {
      issues.push(...result.issues);
      if (issues.length >= MAX_ISSUES) break;
      continue;
    }
    const previous = items.at(-1);
    if (previous && issues.length === 0 && result.item.seq !== previous.seq + 1) {
      issues.push({
        path: `items[${index}].seq`,
        message: `expected ${previous.seq + 1}: the items of a batch have consecutive seqs`,
      });
    }
    items.push(result.item);
  }
  return issues.length > 0 ? { issues: issues.slice(0, MAX_ISSUES) } : { items };
}
