/**
 * Datasets as the API makes them: items given directly, a file's text (JSONL or CSV) or a shipped set, every item
 * checked with the task's own goal rule (the contract's, then the server's: a bench project must exist) before
 * anything is stored; a bad item is refused with its line (or index) and the task's message, and nothing is written.
 * An edit stores a new version; the old one stays for the experiments that ran it.
 * Not responsible for parsing files or listing the shipped sets (lib/experiments), nor for SQL (repositories).
 */
import type { CreateDatasetInput, DatasetItem } from '../../contract/experiments';
import { datasetItemSchema, DATASET_MAX_ITEMS } from '../../contract/experiments';
import { parseDatasetFile } from '../../experiments/index';
import { shippedDatasetItems } from '../../experiments/server';
import { getTaskEntry } from '../../tasks/index';
import { InputError, NotFoundError } from '../core/errors';
import type { Db } from '../db/client';
import {
  addDatasetVersion,
  createDataset,
  getDataset,
  type DatasetRecord,
  type DatasetVersionRecord,
} from '../repositories/experiments';

/** The task's goal rule, the contract's words first (the form's), then the server's own check. */
export function goalRule(taskId: string): (goal: string) => string | null {
  const entry = (() => {
    try {
      return getTaskEntry(taskId);
    } catch (error) {
      throw new InputError('taskId', (error as Error).message);
    }
  })();
  return (goal) => entry.validateGoal(goal.trim()) ?? entry.task.validateGoal?.(goal.trim()) ?? null;
}

/** Items given as data: each one checked like a file's line (`items.<i>` names the bad one). */
export function checkItems(taskId: string, items: readonly DatasetItem[]): DatasetItem[] {
  const rule = goalRule(taskId);
  if (items.length === 0) throw new InputError('items', 'a dataset needs at least one item');
  if (items.length > DATASET_MAX_ITEMS) throw new InputError('items', `at most ${DATASET_MAX_ITEMS} items`);
  return items.map((raw, i) => {
    const parsed = datasetItemSchema.safeParse(raw);
    if (!parsed.success) throw new InputError(`items.${i}`, `item ${i + 1}: ${parsed.error.issues[0]?.message}`);
    const item = { ...parsed.data, goal: parsed.data.goal.trim() };
    const problem = rule(item.goal);
    if (problem) throw new InputError(`items.${i}`, `item ${i + 1} (${JSON.stringify(item.goal)}): ${problem}`);
    return item;
  });
}

/** The items a dataset.create or dataset.update asks for, checked whole; throws InputError naming the first bad one. */
export function resolveItems(
  taskId: string,
  input: Pick<CreateDatasetInput, 'items' | 'file' | 'shipped'>,
): { items: DatasetItem[]; source: string } {
  if (input.items) return { items: checkItems(taskId, input.items), source: 'items' };
  if (input.file) {
    const parsed = parseDatasetFile(input.file.format, input.file.text, goalRule(taskId));
    if (!parsed.ok) throw new InputError('file', `line ${parsed.line}: ${parsed.message}`);
    return { items: parsed.items, source: `upload:${input.file.format}` };
  }
  if (input.shipped) {
    const items = shippedDatasetItems(input.shipped);
    if (!items) throw new InputError('shipped', `no shipped dataset ${input.shipped}`);
    // a shipped set is of one task: its items must pass this one's rule
    return { items: checkItems(taskId, items), source: `shipped:${input.shipped}` };
  }
  throw new InputError('items', 'give items, a file or a shipped set');
}

export async function makeDataset(
  db: Db,
  input: CreateDatasetInput,
  ownerId: string | null,
): Promise<{ dataset: DatasetRecord; version: DatasetVersionRecord }> {
  const { items, source } = resolveItems(input.taskId, input);
  return createDataset(db, { name: input.name, taskId: input.taskId, ownerId, source, items });
}

export async function editDataset(
  db: Db,
  input: { id: string; items?: DatasetItem[]; file?: CreateDatasetInput['file'] },
): Promise<DatasetVersionRecord> {
  const dataset = await getDataset(db, input.id);
  if (!dataset) throw new NotFoundError(`no dataset ${input.id}`);
  const { items, source } = resolveItems(dataset.taskId, input);
  const version = await addDatasetVersion(db, dataset.id, { source, items });
  if (!version) throw new NotFoundError(`no dataset ${input.id}`);
  return version;
}
