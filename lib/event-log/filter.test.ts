import { beforeAll, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '@/lib/contract/events';
import { recordGame24, type RecordedLog } from '../tasks/testing/recorded';
import { eventNodeIds } from './describe-event';
import {
  ALL_KINDS,
  EMPTY_FILTER,
  compileFilter,
  createEventFilterCache,
  filterEvents,
  firstRowFrom,
  isAtBottom,
  isFilterActive,
  parseNodeQuery,
  visibleRows,
  type EventFilter,
} from './filter';

let run: RecordedLog;
beforeAll(async () => {
  run = await recordGame24();
});

const types = (events: readonly ExplorationEvent[]) => new Set(events.map((e) => e.type));

describe('filterEvents', () => {
  it('lets everything through by default, as the same array', () => {
    expect(isFilterActive(EMPTY_FILTER)).toBe(false);
    expect(compileFilter(EMPTY_FILTER)).toBeNull();
    expect(filterEvents(run.events, EMPTY_FILTER)).toBe(run.events);
  });

  it('keeps only the chosen kinds', () => {
    const shown = filterEvents(run.events, { ...EMPTY_FILTER, kinds: new Set(['score', 'backtrack']) });
    expect(types(shown)).toEqual(new Set(['branch.scored', 'candidate.dropped', 'backtrack']));
    expect(filterEvents(run.events, { ...EMPTY_FILTER, kinds: new Set() })).toEqual([]);
  });

  it('keeps one exact type', () => {
    const shown = filterEvents(run.events, { ...EMPTY_FILTER, type: 'node.failed' });
    expect(shown).toHaveLength(4);
    expect(types(shown)).toEqual(new Set(['node.failed']));
  });

  it('keeps the events of the typed node ids, exactly and case-insensitively', () => {
    expect(parseNodeQuery(' N4, n7 n4 ')).toEqual(['n4', 'n7']);
    const shown = filterEvents(run.events, { ...EMPTY_FILTER, nodeQuery: 'N1' });
    expect(shown.length).toBeGreaterThan(3);
    for (const e of shown) expect(eventNodeIds(e)).toContain('n1');
    expect(shown.some((e) => eventNodeIds(e).includes('n10'))).toBe(false);
  });

  it('keeps the selected node’s events, backtracks to and from it included', () => {
    const backtrack = run.events.find((e) => e.type === 'backtrack');
    if (backtrack?.type !== 'backtrack' || !backtrack.payload.toId) throw new Error('no backtrack');
    const shown = filterEvents(run.events, { ...EMPTY_FILTER, onlyNodeId: backtrack.payload.toId });
    expect(shown).toContain(backtrack);
    expect(shown.every((e) => eventNodeIds(e).includes(backtrack.payload.toId as string))).toBe(true);
  });

  it('combines the parts: all must hold', () => {
    const filter: EventFilter = { kinds: ALL_KINDS, type: 'model.called', nodeQuery: 'n0', onlyNodeId: 'n0' };
    const shown = filterEvents(run.events, filter);
    expect(shown.length).toBe(run.tree.nodes.n0?.modelCallSeqs.length);
    expect(filterEvents(run.events, { ...filter, onlyNodeId: 'n1' })).toEqual([]);
  });
});

describe('createEventFilterCache', () => {
  it('gives what filterEvents gives as the list grows, testing only the new events', () => {
    const cached = createEventFilterCache();
    const filter: EventFilter = { ...EMPTY_FILTER, kinds: new Set(['lifecycle']) };
    let previous = cached([], filter);
    for (let n = 1; n <= run.events.length; n += 7) {
      const events = run.events.slice(0, n); // the store replaces its list with a longer copy
      const shown = cached(events, filter);
      expect(shown).toEqual(filterEvents(events, filter));
      if (shown.length === previous.length) expect(shown).toBe(previous); // stable when nothing new matched
      previous = shown;
    }
  });

  it('follows a list that grows in place (the store appends to the same array)', () => {
    const cached = createEventFilterCache();
    const filter: EventFilter = { ...EMPTY_FILTER, kinds: new Set(['lifecycle']) };
    const log: ExplorationEvent[] = [];
    for (let n = 0; n < run.events.length; n += 11) {
      log.push(...run.events.slice(n, n + 11));
      expect(cached(log, filter)).toEqual(filterEvents(log, filter));
    }
  });

  it('starts over when the filter changes or the list is not a continuation', () => {
    const cached = createEventFilterCache();
    const a: EventFilter = { ...EMPTY_FILTER, type: 'backtrack' };
    const b: EventFilter = { ...EMPTY_FILTER, type: 'node.failed' };
    expect(cached(run.events, a)).toHaveLength(4);
    expect(types(cached(run.events, b))).toEqual(new Set(['node.failed']));
    const other = run.events.map((e) => ({ ...e }));
    expect(cached(other.slice(0, 3), b)).toEqual([]);
    expect(cached(run.events, EMPTY_FILTER)).toBe(run.events);
    expect(cached(run.events, b)).toHaveLength(4);
  });

  it('tests each event once while the list grows (no rescans on a long live run)', () => {
    let reads = 0;
    const counted = run.events.map((e) => {
      const copy = { ...e };
      Object.defineProperty(copy, 'type', {
        get: () => {
          reads += 1;
          return e.type;
        },
      });
      return copy as ExplorationEvent;
    });
    const cached = createEventFilterCache();
    const filter: EventFilter = { ...EMPTY_FILTER, type: 'node.failed' };
    for (let n = 1; n <= counted.length; n++) cached(counted.slice(0, n), filter);
    expect(reads).toBe(counted.length); // one read of `type` per event, not n²/2
  });
});

describe('visibleRows', () => {
  it('covers the viewport with overscan, clamped to the list', () => {
    expect(visibleRows(0, 100, 20, 1000, 2)).toEqual({ start: 0, end: 8 });
    expect(visibleRows(400, 100, 20, 1000, 2)).toEqual({ start: 18, end: 28 });
    expect(visibleRows(19_950, 100, 20, 1000, 2)).toEqual({ start: 995, end: 1000 });
    expect(visibleRows(0, 100, 20, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleRows(-30, 100, 20, 3, 0)).toEqual({ start: 0, end: 3 });
  });

  it('renders a bounded number of rows however long the list', () => {
    const { start, end } = visibleRows(123_456, 200, 24, 100_000);
    expect(end - start).toBeLessThanOrEqual(Math.ceil(200 / 24) + 1 + 12);
    expect(start * 24).toBeLessThanOrEqual(123_456);
  });
});

describe('isAtBottom', () => {
  it('allows a few pixels of slack', () => {
    expect(isAtBottom(800, 200, 1000)).toBe(true);
    expect(isAtBottom(795, 200, 1000)).toBe(true);
    expect(isAtBottom(700, 200, 1000)).toBe(false);
    expect(isAtBottom(0, 200, 100)).toBe(true);
  });
});

describe('firstRowFrom', () => {
  it('finds the first row at or after a step among the rows shown', () => {
    const failed = filterEvents(run.events, { ...EMPTY_FILTER, type: 'node.failed' });
    const second = failed[1] as ExplorationEvent;
    expect(firstRowFrom(failed, failed.length, second.seq)).toBe(1);
    expect(firstRowFrom(failed, failed.length, second.seq - 1)).toBe(1);
    expect(firstRowFrom(failed, failed.length, second.seq + 1)).toBe(2);
    expect(firstRowFrom(failed, failed.length, 10 ** 9)).toBe(failed.length);
    expect(firstRowFrom(run.events, 5, 10 ** 9)).toBe(5);
  });
});
