import { describe, expect, it } from 'vitest';
import { DEFAULT_RUN_SORT } from '@/lib/contract/run-list';
import { RUN_STATUSES } from '@/lib/contract/run-status';
import {
  NO_FILTERS,
  STATUS_FILTERS,
  discussionText,
  filtersQuery,
  formatRelative,
  hasFilters,
  listQuery,
  nextSort,
  parseFilters,
  summaryParts,
  runDurationMs,
  solvedState,
} from './runs-list';

const params = (query: string) => new URLSearchParams(query);

describe('filters in the URL', () => {
  it('offer exactly the stored statuses', () => {
    expect([...STATUS_FILTERS].sort()).toEqual([...RUN_STATUSES].sort());
  });

  it('are read from ?status=&task=&q=, ignoring unknown values', () => {
    expect(parseFilters(params('status=running&task=game24'))).toEqual({
      ...NO_FILTERS,
      status: 'running',
      taskId: 'game24',
    });
    expect(parseFilters(params('q=%20autumn%20leaves%20')).q).toBe('autumn leaves');
    expect(parseFilters(params(`q=${'x'.repeat(500)}`)).q).toHaveLength(200);
    expect(parseFilters(params('status=bogus&task=chess'))).toEqual(NO_FILTERS);
    expect(parseFilters(params(''))).toEqual(NO_FILTERS);
  });

  it('are written back, keeping other parameters', () => {
    expect(filtersQuery({ ...NO_FILTERS, status: 'failed', taskId: 'open-goal' })).toBe(
      '?status=failed&task=open-goal',
    );
    expect(filtersQuery({ ...NO_FILTERS, q: ' "soft" launch ' }, 'q=old&x=1')).toBe('?x=1&q=%22soft%22+launch');
    expect(filtersQuery(NO_FILTERS, 'status=failed&x=1')).toBe('?x=1');
    expect(filtersQuery(NO_FILTERS)).toBe('');
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, taskId: 'game24' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, q: 'haiku' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, q: '  ' })).toBe(false);
  });
});

describe('origin, sort and the summary (issue 10, item 14)', () => {
  const TAG = 'tot-log:100.json:2026-11-30T12:00:00.000Z';
  it('read and write ?origin=mine, ?tag= and ?sort=&dir=, the default order left out of the URL', () => {
    expect(parseFilters(params('origin=mine'))).toEqual({ ...NO_FILTERS, origin: { kind: 'mine' } });
    const tagged = parseFilters(params(`tag=${encodeURIComponent(TAG)}&sort=best&dir=asc`));
    expect(tagged).toEqual({ ...NO_FILTERS, origin: { kind: 'tag', tag: TAG }, sort: { by: 'best', dir: 'asc' } });
    expect(parseFilters(params(filtersQuery(tagged).slice(1)))).toEqual(tagged);
    expect(parseFilters(params('sort=bogus&dir=sideways&origin=x')).sort).toEqual(DEFAULT_RUN_SORT);
    expect(filtersQuery({ ...NO_FILTERS, origin: { kind: 'mine' } }, 'sort=cost')).toBe('?origin=mine');
    expect(hasFilters({ ...NO_FILTERS, origin: { kind: 'mine' } })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, sort: { by: 'cost', dir: 'desc' } })).toBe(false);
  });

  it('turn filters into the server query: the whole filter, sorted', () => {
    expect(listQuery({ ...NO_FILTERS, origin: { kind: 'mine' }, q: 'x' })).toEqual({ q: 'x', mine: true });
    expect(listQuery({ ...NO_FILTERS, origin: { kind: 'cells' } })).toEqual({ cells: true });
    const cells = parseFilters(params('origin=cells'));
    expect(cells).toEqual({ ...NO_FILTERS, origin: { kind: 'cells' } });
    expect(filtersQuery(cells)).toBe('?origin=cells');
    expect(listQuery({ ...NO_FILTERS, origin: { kind: 'tag', tag: TAG }, status: 'finished' })).toEqual({
      status: 'finished',
      tag: TAG,
    });
  });

  it('read, write and send ?label= (trimmed, cut to a label name’s length), beside the other filters', () => {
    const labelled = parseFilters(params('label=evaluator+wrong&status=finished'));
    expect(labelled).toEqual({ ...NO_FILTERS, status: 'finished', label: 'evaluator wrong' });
    expect(filtersQuery(labelled, 'label=old&x=1')).toBe('?x=1&status=finished&label=evaluator+wrong');
    expect(parseFilters(params(filtersQuery(labelled).slice(1)))).toEqual(labelled);
    expect(listQuery(labelled)).toEqual({ status: 'finished', label: 'evaluator wrong' });
    expect(hasFilters({ ...NO_FILTERS, label: 'good thought' })).toBe(true);
    expect(parseFilters(params('label=%20%20')).label).toBeNull();
    expect(parseFilters(params(`label=${'x'.repeat(100)}`)).label).toHaveLength(40);
    expect(filtersQuery(NO_FILTERS, 'label=good+thought')).toBe('');
  });

  it('flip the direction when the sorted column is clicked again; a new column starts highest first', () => {
    expect(nextSort(DEFAULT_RUN_SORT, 'created')).toEqual({ by: 'created', dir: 'asc' });
    expect(nextSort(DEFAULT_RUN_SORT, 'best')).toEqual({ by: 'best', dir: 'desc' });
    expect(nextSort({ by: 'best', dir: 'desc' }, 'best')).toEqual({ by: 'best', dir: 'asc' });
  });

  it('summarize solved of checked and the cost, saying what the cost leaves out', () => {
    expect(summaryParts({ runs: 100, checked: 100, solved: 69, cost: 0, unpricedRuns: 0 })).toEqual({
      runs: '100 runs',
      solved: 'solved 69 / 100',
      cost: '$0',
    });
    expect(summaryParts({ runs: 3, checked: 0, solved: 0, cost: 0.0042, unpricedRuns: 1 })).toEqual({
      runs: '3 runs',
      solved: null,
      cost: '$0.0042 + 1 run with unpriced calls',
    });
    expect(summaryParts({ runs: 1, checked: 1, solved: 1, cost: 0, unpricedRuns: 1 }).cost).toBe('unpriced');
  });
});

describe('cells', () => {
  it('say a run’s discussion in words, or nothing when it has none', () => {
    expect(discussionText({ comments: 0, labels: 0 })).toBeNull();
    expect(discussionText({ comments: 1, labels: 0 })).toBe('1 comment');
    expect(discussionText({ comments: 0, labels: 3 })).toBe('3 labels');
    expect(discussionText({ comments: 2, labels: 1 })).toBe('2 comments · 1 label');
  });

  it('format start times relative to now', () => {
    const now = Date.parse('2025-01-10T12:00:00Z');
    const ago = (ms: number) => formatRelative(new Date(now - ms), now);
    expect(ago(2_000)).toBe('just now');
    expect(ago(42_000)).toBe('42 s ago');
    expect(ago(5 * 60_000)).toBe('5 min ago');
    expect(ago(3 * 3_600_000)).toBe('3 h ago');
    expect(ago(2 * 86_400_000)).toBe('2 d ago');
  });

  it('measure duration to the end, to now while running, to the last update otherwise (paused too)', () => {
    const t = (s: number) => new Date(1_000_000 + s * 1_000);
    const base = { createdAt: t(0), updatedAt: t(30), startedAt: t(1) };
    expect(runDurationMs({ ...base, status: 'finished', finishedAt: t(11) }, 0)).toBe(10_000);
    expect(runDurationMs({ ...base, status: 'running', finishedAt: null }, t(21).getTime())).toBe(20_000);
    expect(runDurationMs({ ...base, status: 'interrupted', finishedAt: null }, t(99).getTime())).toBe(29_000);
    // paused: the clock stops where the run paused (its last update), as the run page's elapsed does
    expect(runDurationMs({ ...base, status: 'paused', finishedAt: null }, t(99).getTime())).toBe(29_000);
    expect(runDurationMs({ ...base, status: 'queued', startedAt: null, finishedAt: null }, 0)).toBeNull();
  });

  it('say solved, not solved, or not checkable', () => {
    expect(solvedState({ taskId: 'game24', status: 'finished', verified: true }).kind).toBe('verified');
    expect(solvedState({ taskId: 'game24', status: 'finished', verified: false }).text).toBe('✗ not verified');
    expect(solvedState({ taskId: 'game24', status: 'failed', verified: null }).kind).toBe('not-verified');
    expect(solvedState({ taskId: 'game24', status: 'running', verified: null }).kind).toBe('pending');
    expect(solvedState({ taskId: 'open-goal', status: 'finished', verified: null })).toMatchObject({
      kind: 'not-checkable',
      text: '—',
    });
  });
});
