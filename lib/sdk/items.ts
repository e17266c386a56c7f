/**
 * What the SDK needs to know about an item it sends without understanding the search: the node it creates (and
 * under which parent) and the nodes it refers to. With these the SDK drops, along with a node it had to drop, every
 * later item about that node (the server would refuse them all, one batch at a time), and answers isPruned() for a
 * node whose ancestor was pruned; and how a warning names an item.
 * Not responsible for checking items (the server does, with lib/contract/ingest.ts's schemas).
 */
import type { IngestItemInput } from '../contract/ingest';

/** An item before the SDK numbers it: its seq is given when it goes into a batch. */
export type UnsequencedItem = IngestItemInput extends infer T ? (T extends unknown ? Omit<T, 'seq'> : never) : never;

/** The node an item creates, with its parent (null: the root), or null when it creates none. */
export function createdNode(item: UnsequencedItem): { id: string; parent: string | null } | null {
  if ('op' in item) return item.op === 'node' ? { id: item.id, parent: item.parent } : null;
  if (item.type !== 'node.created') return null;
  const payload = item.payload as { nodeId?: unknown; parentId?: unknown } | null;
  if (typeof payload?.nodeId !== 'string') return null;
  return { id: payload.nodeId, parent: typeof payload.parentId === 'string' ? payload.parentId : null };
}

/** The nodes an item names (its own id, parent, target, ...), so it can be dropped with a node it depends on. */
export function referencedNodes(item: UnsequencedItem): string[] {
  const ids: (string | null | undefined)[] = [];
  if ('op' in item) {
    switch (item.op) {
      case 'node':
        ids.push(item.id, item.parent);
        break;
      case 'backtrack':
        ids.push(item.from, item.to);
        break;
      case 'finish':
      case 'ack':
        break; // never dropped for a node: a finish without its best node still ends the run
      default:
        ids.push(item.node);
    }
  } else if (item.payload && typeof item.payload === 'object') {
    const p = item.payload as Record<string, unknown>;
    for (const key of ['nodeId', 'parentId', 'fromId', 'toId'] as const) {
      if (typeof p[key] === 'string') ids.push(p[key]);
    }
    if (Array.isArray(p.childIds)) ids.push(...p.childIds.filter((c): c is string => typeof c === 'string'));
  }
  return ids.filter((id): id is string => typeof id === 'string');
}

/** The item as a warning names it: its op (or event type) and the node it is about ("node 'a'", "finish"). */
export function describeItem(item: UnsequencedItem): string {
  const kind = 'op' in item ? item.op : item.type;
  const node = referencedNodes(item)[0];
  return node === undefined ? String(kind) : `${String(kind)} '${node}'`;
}
