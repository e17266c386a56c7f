/**
 * The event log's filter (kinds, one exact type, node ids typed in a box, the selected node only) and the row
 * window of its virtualised list. Pure and React-free so it is unit-tested.
 * For long live runs the filter is incremental: the store's event list only grows (it is replaced by a longer copy
 * on every batch), so when the filter is unchanged only the new tail is tested.
 * Not responsible for summaries (describe-event.ts) or drawing (EventLog.tsx).
 */
import type { ExplorationEvent, ExplorationEventType } from '@/lib/contract/events';
import { EVENT_KINDS, eventKind, eventNodeIds, type EventKind } from './describe-event';

export interface EventFilter {
  /** Kinds shown; every kind when all are in it. */
  kinds: ReadonlySet<EventKind>;
  /** One exact event type, or null for any. */
  type: ExplorationEventType | null;
  /** Node ids typed by the user, separated by spaces or commas ("n4 n7"); empty for any node. */
  nodeQuery: string;
  /** Only events about this node (the "selected node only" toggle), or null. */
  onlyNodeId: string | null;
}

export const ALL_KINDS: ReadonlySet<EventKind> = new Set(EVENT_KINDS.map((k) => k.kind));

export const EMPTY_FILTER: EventFilter = { kinds: ALL_KINDS, type: null, nodeQuery: '', onlyNodeId: null };

/** The ids in the node box, lower-cased, without duplicates. */
export function parseNodeQuery(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[\s,;]+/)
        .filter(Boolean),
    ),
  ];
}

export function isFilterActive(filter: EventFilter): boolean {
  return (
    filter.kinds.size < ALL_KINDS.size ||
    filter.type !== null ||
    parseNodeQuery(filter.nodeQuery).length > 0 ||
    filter.onlyNodeId !== null
  );
}

/** The filter as one predicate, or null when it lets everything through. */
export function compileFilter(filter: EventFilter): ((event: ExplorationEvent) => boolean) | null {
  if (!isFilterActive(filter)) return null;
  const kinds = filter.kinds;
  const allKinds = kinds.size >= ALL_KINDS.size;
  const type = filter.type;
  const typed = new Set(parseNodeQuery(filter.nodeQuery));
  const only = filter.onlyNodeId;
  return (event) => {
    if (type !== null && event.type !== type) return false;
    if (!allKinds && !kinds.has(eventKind(event.type))) return false;
    if (typed.size === 0 && only === null) return true;
    const ids = eventNodeIds(event);
    if (only !== null && !ids.includes(only)) return false;
    if (typed.size > 0 && !ids.some((id) => typed.has(id.toLowerCase()))) return false;
    return true;
  };
}

export function filterEvents(events: readonly ExplorationEvent[], filter: EventFilter): readonly ExplorationEvent[] {
  const test = compileFilter(filter);
  return test ? events.filter(test) : events;
}

/**
 * filterEvents with memory: called again with the same filter object and a longer list that begins with the same
 * events, it tests only the new ones. Returns the same array when nothing new matched (a stable reference).
 */
export function createEventFilterCache() {
  let lastFilter: EventFilter | null = null;
  let lastEvents: readonly ExplorationEvent[] = [];
  let lastFirst: ExplorationEvent | undefined;
  let seen = 0;
  let lastResult: readonly ExplorationEvent[] = [];

  // The store's log grows in place (the same array, longer), so what was seen is kept as a count, not a copy.
  return (events: readonly ExplorationEvent[], filter: EventFilter): readonly ExplorationEvent[] => {
    const test = compileFilter(filter);
    const appended =
      filter === lastFilter &&
      events.length >= seen &&
      (seen === 0 || (events === lastEvents ? events[0] === lastFirst : events[seen - 1] === lastEvents[seen - 1]));
    let result: readonly ExplorationEvent[];
    if (!test) {
      result = events;
    } else if (appended) {
      const added: ExplorationEvent[] = [];
      for (let i = seen; i < events.length; i++) {
        const event = events[i] as ExplorationEvent;
        if (test(event)) added.push(event);
      }
      result = added.length ? lastResult.concat(added) : lastResult;
    } else {
      result = events.filter(test);
    }
    lastFilter = filter;
    lastEvents = events;
    lastFirst = events[0];
    seen = events.length;
    lastResult = result;
    return result;
  };
}

export interface RowWindow {
  /** First row to render (inclusive) and the row after the last (exclusive). */
  start: number;
  end: number;
}

/** The rows a fixed-height list must render to cover its viewport, with `overscan` extra rows on each side. */
export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 6,
): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const shown = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(first, count - 1) - overscan);
  const end = Math.min(count, first + shown + overscan);
  return { start, end: Math.max(start, end) };
}

/** The index of the first of `count` rows (in seq order) whose seq is at least `seq`; `count` when none is. */
export function firstRowFrom(events: readonly ExplorationEvent[], count: number, seq: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((events[mid] as ExplorationEvent).seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when the list is scrolled to (within a few pixels of) its end: new rows keep it there. */
export function isAtBottom(scrollTop: number, viewportHeight: number, scrollHeight: number, slack = 8): boolean {
  return scrollTop + viewportHeight >= scrollHeight - slack;
}
