/**
 * Text search in one run: which nodes say the query, case-insensitively, in their thought, proposed action,
 * result, verification trace, failure reason or model responses (the root: the goal and its own calls).
 * Hits come in tree order (pre-order, children in order): the order Enter steps through on the run page.
 *
 * Fast on 10k+ nodes: buildSearchIndex lowercases each node's texts once into one string per node and keeps it,
 * keyed by the node object, for the next tree version (reduce replaces exactly the node objects that change, so an
 * unchanged node reuses its entry); a search is then one indexOf per node. A node whose model calls are not all
 * loaded yet (history arrives lazily) is rebuilt until they are; the index counts them (`missingCalls`).
 * Pure and React-free. Not responsible for the search box, debouncing or highlighting (components/run/search,
 * the canvas), nor for the runs list's search (server side, lib/server/repositories/runs.ts).
 */
import type { ExplorationEvent } from '../contract/events';
import type { ModelPurpose } from '../contract/vocabulary';
import { subtreeIds, type ThoughtNode, type ThoughtTree } from '../engine/index';

export type SearchField = 'goal' | 'thought' | 'action' | 'result' | 'verification' | 'failure' | 'response';

export const SEARCH_FIELD_LABELS: Record<SearchField, string> = {
  goal: 'goal',
  thought: 'thought',
  action: 'proposed action',
  result: 'result',
  verification: 'verification',
  failure: 'failure reason',
  response: 'model response',
};

interface FieldText {
  field: SearchField;
  text: string;
  /** Where the field starts in the node's lowercased text. */
  start: number;
  /** The model call it comes from (response only). */
  seq: number | null;
  purpose: ModelPurpose | null;
}

interface NodeEntry {
  node: ThoughtNode;
  goal: string;
  fields: FieldText[];
  /** Every field lowercased, joined by SEPARATOR: one indexOf searches them all. */
  lower: string;
  /** The node's model calls whose events are not loaded yet. */
  missing: number;
}

export interface TreeSearchIndex {
  /** Node ids in pre-order, children in order. */
  order: readonly string[];
  entries: ReadonlyMap<string, NodeEntry>;
  /** Model calls whose event has not arrived yet (history still loading): their responses are not searched. */
  missingCalls: number;
}

export interface SearchHit {
  nodeId: string;
  /** The first field of the node that matches. */
  field: SearchField;
  /** The model call whose response matched (field response), else null. */
  seq: number | null;
  purpose: ModelPurpose | null;
  /** Where the match starts in the field's text, and its length there. */
  at: number;
  length: number;
}

// A character no query holds (queries are trimmed of control characters): a match can never span two fields.
const SEPARATOR = '\u0000';

/** Entries reused across tree versions and across indexes: node objects are never mutated, only replaced. */
const entryCache = new WeakMap<ThoughtNode, NodeEntry>();

/**
 * A node's texts, each lowercased once into the node's search string (`lower`, fields joined by SEPARATOR).
 * Plain loops and no spread: this runs for every node when a search starts on a big run.
 */
function buildEntry(tree: ThoughtTree, node: ThoughtNode, events: readonly ExplorationEvent[]): NodeEntry {
  const fields: FieldText[] = [];
  const parts: string[] = [];
  let start = 0;
  const add = (
    field: SearchField,
    text: string | null | undefined,
    seq: number | null,
    purpose: ModelPurpose | null,
  ) => {
    if (!text) return;
    const lower = text.toLowerCase();
    fields.push({ field, text, start, seq, purpose });
    parts.push(lower);
    start += lower.length + SEPARATOR.length;
  };
  if (node.parentId === null) add('goal', tree.goal, null, null);
  const branch = node.branch;
  if (branch) {
    add('thought', branch.thought, null, null);
    const action = branch.proposedAction;
    const actionText =
      action.type === 'response'
        ? action.content
        : action.type === 'sub_goal'
          ? action.goal
          : action.type === 'code_change'
            ? action.diff
            : `${action.toolName} ${JSON.stringify(action.arguments)}`;
    if (actionText !== branch.thought) add('action', actionText, null, null);
  }
  add('result', node.result?.response, null, null);
  add('verification', node.verification?.trace, null, null);
  add('failure', node.failureReason, null, null);
  let missing = 0;
  for (const seq of node.modelCallSeqs) {
    const event = events[seq - 1];
    if (!event || event.seq !== seq) missing += 1;
    else if (event.type === 'model.called') add('response', event.payload.response, seq, event.payload.purpose);
  }
  return { node, goal: node.parentId === null ? tree.goal : '', fields, lower: parts.join(SEPARATOR), missing };
}

/** Node ids from the root down, each node's children in order. */
export function preOrder(tree: ThoughtTree): string[] {
  return tree.rootId ? subtreeIds(tree, tree.rootId) : [];
}

/**
 * The lowercased texts of every node, for one tree version and the events loaded so far. Reuses the entry of
 * every node object seen before (with all its calls loaded), so a new version costs what changed plus one walk.
 */
export function buildSearchIndex(tree: ThoughtTree, events: readonly ExplorationEvent[]): TreeSearchIndex {
  const order = preOrder(tree);
  const entries = new Map<string, NodeEntry>();
  let missingCalls = 0;
  for (const id of order) {
    const node = tree.nodes[id] as ThoughtNode;
    let entry = entryCache.get(node);
    if (!entry || entry.missing > 0 || (node.parentId === null && entry.goal !== tree.goal)) {
      entry = buildEntry(tree, node, events);
      entryCache.set(node, entry);
    }
    missingCalls += entry.missing;
    entries.set(id, entry);
  }
  return { order, entries, missingCalls };
}

/** The query as it is matched: trimmed, lowercased, control characters out; '' searches nothing. */
export function normaliseQuery(query: string): string {
  const CONTROL = /\p{Cc}/gu; // no control character reaches the index's separator
  return query.replace(CONTROL, ' ').trim().toLowerCase();
}

/** The nodes whose texts contain the query, in tree order, with the first field that matched. */
export function searchIndex(index: TreeSearchIndex, query: string): SearchHit[] {
  const q = normaliseQuery(query);
  if (q === '') return [];
  const hits: SearchHit[] = [];
  for (const id of index.order) {
    const entry = index.entries.get(id);
    if (!entry) continue;
    const found = entry.lower.indexOf(q);
    if (found < 0) continue;
    let field = entry.fields[0] as FieldText;
    for (const f of entry.fields) {
      if (f.start > found) break;
      field = f;
    }
    hits.push({
      nodeId: id,
      field: field.field,
      seq: field.seq,
      purpose: field.purpose,
      at: found - field.start,
      length: q.length,
    });
  }
  return hits;
}

/** One-shot: build the index and search it (tests, scripts); the page keeps the index between keystrokes. */
export function searchTree(tree: ThoughtTree, events: readonly ExplorationEvent[], query: string): SearchHit[] {
  return searchIndex(buildSearchIndex(tree, events), query);
}

export interface HitSnippet {
  /** "thought", "model response (generate, #41)". */
  label: string;
  before: string;
  match: string;
  after: string;
}

/**
 * The words around a hit, to show why it matched: up to `radius` characters each side, cut with an ellipsis.
 * Plain strings (the page renders them as text). Null when the hit's node is no longer in the index.
 */
export function hitSnippet(index: TreeSearchIndex, hit: SearchHit, radius = 60): HitSnippet | null {
  const entry = index.entries.get(hit.nodeId);
  const field = entry?.fields.find((f) => f.field === hit.field && f.seq === hit.seq);
  if (!field) return null;
  // Lowercasing keeps lengths for nearly all text; where it did not (a few letters grow), show the lowercased text.
  const text = field.text.length === field.text.toLowerCase().length ? field.text : field.text.toLowerCase();
  const from = Math.max(0, hit.at - radius);
  const to = Math.min(text.length, hit.at + hit.length + radius);
  const label =
    hit.field === 'response' && hit.seq !== null
      ? `${SEARCH_FIELD_LABELS.response} (${hit.purpose ?? 'call'}, #${hit.seq})`
      : SEARCH_FIELD_LABELS[hit.field];
  const squash = (s: string) => s.replace(/\s+/g, ' ');
  return {
    label,
    before: (from > 0 ? '…' : '') + squash(text.slice(from, hit.at)),
    match: squash(text.slice(hit.at, hit.at + hit.length)),
    after: squash(text.slice(hit.at + hit.length, to)) + (to < text.length ? '…' : ''),
  };
}
