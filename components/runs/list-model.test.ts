import { describe, expect, it } from 'vitest';
import { RUN_STATUSES } from '@/lib/server/repositories/runs';
import {
  NO_FILTERS,
  STATUS_FILTERS,
  filtersQuery,
  formatCost,
  formatDuration,
  formatRelative,
  hasFilters,
  parseFilters,
  runDurationMs,
  solvedState,
  taskLabel,
} from './list-model';

const params = (query: string) => new URLSearchParams(query);

describe('filters in the URL', () => {
  it('offer exactly the stored statuses', () => {
    expect([...STATUS_FILTERS].sort()).toEqual([...RUN_STATUSES].sort());
  });

  it('are read from ?status=&task=&q=, ignoring unknown values', () => {
    expect(parseFilters(params('status=running&task=game24'))).toEqual({ status: 'running', taskId: 'game24', q: '' });
    expect(parseFilters(params('q=%20autumn%20leaves%20')).q).toBe('autumn leaves');
    expect(parseFilters(params(`q=${'x'.repeat(500)}`)).q).toHaveLength(200);
    expect(parseFilters(params('status=bogus&task=chess'))).toEqual(NO_FILTERS);
    expect(parseFilters(params(''))).toEqual(NO_FILTERS);
  });

  it('are written back, keeping other parameters', () => {
    expect(filtersQuery({ status: 'failed', taskId: 'open-goal', q: '' })).toBe('?status=failed&task=open-goal');
    expect(filtersQuery({ ...NO_FILTERS, q: ' "soft" launch ' }, 'q=old&x=1')).toBe('?x=1&q=%22soft%22+launch');
    expect(filtersQuery(NO_FILTERS, 'status=failed&x=1')).toBe('?x=1');
    expect(filtersQuery(NO_FILTERS)).toBe('');
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ status: null, taskId: 'game24', q: '' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, q: 'haiku' })).toBe(true);
    expect(hasFilters({ ...NO_FILTERS, q: '  ' })).toBe(false);
  });
});

describe('cells', () => {
  it('format durations at every scale', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4_260)).toBe('4.2 s');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(-5)).toBe('0 ms');
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

  it('format cost in dollars without calling a cheap run free', () => {
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.00004)).toBe('<$0.0001');
    expect(formatCost(0.00042)).toBe('$0.0004');
    expect(formatCost(1.254)).toBe('$1.25');
  });

  it('measure duration to the end, to now while active, to the last update otherwise', () => {
    const t = (s: number) => new Date(1_000_000 + s * 1_000);
    const base = { createdAt: t(0), updatedAt: t(30), startedAt: t(1) };
    expect(runDurationMs({ ...base, status: 'finished', finishedAt: t(11) }, 0)).toBe(10_000);
    expect(runDurationMs({ ...base, status: 'running', finishedAt: null }, t(21).getTime())).toBe(20_000);
    expect(runDurationMs({ ...base, status: 'interrupted', finishedAt: null }, t(99).getTime())).toBe(29_000);
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

  it('name tasks by their label', () => {
    expect(taskLabel('game24')).toBe('Game of 24');
    expect(taskLabel('unknown')).toBe('unknown');
  });
});
