// The run header's status and elapsed come from the run (its record, its log's pauses), never from how much has loaded.
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { elapsedMs, pauseReader, pausesAfter, runStatus, type PauseReading } from './run-clock';

/** The pauses of the first `count` events, read from the start. */
function pausesOf(events: readonly ExplorationEvent[], count?: number) {
  const { pausedMs, pausedSince } = pausesAfter(null, events, count);
  return { pausedMs, pausedSince };
}

/** A log of control events only, at the given times (the clock reads nothing else). */
function log(...entries: [ExplorationEvent['type'], number][]): ExplorationEvent[] {
  return entries.map(
    ([type, ts], i) => ({ runId: 'r', seq: i + 1, ts, type, payload: {} }) as unknown as ExplorationEvent,
  );
}

describe('runStatus', () => {
  it("is the record's while the live tree is behind it (a finished run's log still folding from seq 1)", () => {
    expect(runStatus({ status: 'finished', lastSeq: 142 }, { status: 'running', lastSeq: 40 })).toBe('finished');
    expect(runStatus({ status: 'finished', lastSeq: 142 }, null)).toBe('finished');
  });

  it('is the live tree once it has folded past the record (the stream says every change after the page loaded)', () => {
    expect(runStatus({ status: 'running', lastSeq: 50 }, { status: 'paused', lastSeq: 61 })).toBe('paused');
    expect(runStatus({ status: 'queued', lastSeq: 1 }, { status: 'running', lastSeq: 2 })).toBe('running');
    expect(runStatus({ status: 'running', lastSeq: 30 }, { status: 'interrupted', lastSeq: 31 })).toBe('interrupted');
    expect(runStatus({ status: 'running', lastSeq: 30 }, { status: 'failed', lastSeq: 31 })).toBe('failed');
  });

  it("is the record's where the log says nothing newer (a log older than lifecycle events, a lost run.failed)", () => {
    expect(runStatus({ status: 'interrupted', lastSeq: 30 }, { status: 'running', lastSeq: 30 })).toBe('interrupted');
    expect(runStatus({ status: 'failed', lastSeq: 30 }, { status: 'running', lastSeq: 30 })).toBe('failed');
    expect(runStatus({ status: 'queued', lastSeq: 0 }, { status: 'running', lastSeq: 0 })).toBe('queued');
  });

  it('is loading until the record is in, whatever the tree says', () => {
    expect(runStatus(null, { status: 'running', lastSeq: 40 })).toBe('loading');
  });
});

describe('elapsed', () => {
  it('leaves the pauses out, and stops while a pause goes on', () => {
    const events = log(
      ['run.started', 1_000],
      ['steer.pause', 3_000],
      ['steer.resume', 10_000],
      ['steer.pause', 12_000],
    );
    expect(pausesOf(events, 3)).toEqual({ pausedMs: 7_000, pausedSince: null });
    expect(pausesOf(events)).toEqual({ pausedMs: 7_000, pausedSince: 12_000 });
    const clock = { startedAt: 1_000, endAt: null, pauses: pausesOf(events) };
    // running 1..3 s and 10..12 s: 4 s, however long the pause now lasts
    expect(elapsedMs(clock, 20_000)).toBe(4_000);
    expect(elapsedMs(clock, 90_000)).toBe(4_000);
  });

  it("counts a step taken while paused, and a step's own pause (run.paused) stops it again", () => {
    const events = log(['run.started', 0], ['steer.pause', 1_000], ['steer.step', 5_000], ['run.paused', 5_500]);
    expect(pausesOf(events)).toEqual({ pausedMs: 4_000, pausedSince: 5_500 });
    expect(elapsedMs({ startedAt: 0, endAt: null, pauses: pausesOf(events) }, 60_000)).toBe(1_500);
  });

  it('stops while the run waits after a restart, and stays stopped if it was paused before it', () => {
    const restarted = log(
      ['run.queued', 0],
      ['run.started', 1_000],
      ['run.interrupted', 3_000],
      ['run.queued', 50_000],
      ['run.resumed', 60_000],
    );
    expect(pausesOf(restarted)).toEqual({ pausedMs: 57_000, pausedSince: null });
    expect(elapsedMs({ startedAt: 1_000, endAt: null, pauses: pausesOf(restarted) }, 61_000)).toBe(3_000);
    const paused = log(['run.started', 0], ['steer.pause', 1_000], ['run.interrupted', 2_000], ['run.resumed', 9_000]);
    expect(pausesOf(paused)).toEqual({ pausedMs: 0, pausedSince: 1_000 });
  });

  it('ends at the finish (or the step looked at), not now', () => {
    const events = log(['run.started', 0], ['steer.pause', 100], ['run.finished', 400]);
    expect(elapsedMs({ startedAt: 0, endAt: 1_000, pauses: pausesOf(events) }, 999_999)).toBe(700);
    expect(elapsedMs({ startedAt: null, endAt: null, pauses: pausesOf([]) }, 5)).toBeNull();
  });

  it('reads a growing log one event at a time as it reads it whole, and starts over on a step back or another log', () => {
    const events = log(
      ['run.queued', 0],
      ['run.started', 1_000],
      ['steer.pause', 2_000],
      ['run.interrupted', 3_000],
      ['run.resumed', 9_000],
      ['steer.resume', 11_000],
      ['steer.pause', 12_000],
      ['steer.step', 15_000],
      ['run.paused', 15_500],
      ['steer.resume', 20_000],
      ['run.finished', 30_000],
    );
    const growing: ExplorationEvent[] = [];
    let reading: PauseReading | null = null;
    const readPauses = pauseReader(); // the page's reader, which keeps its own last reading
    for (const event of events) {
      growing.push(event);
      reading = pausesAfter(reading, growing, growing.length);
      expect(reading.read).toBe(growing.length);
      expect({ pausedMs: reading.pausedMs, pausedSince: reading.pausedSince }).toEqual(pausesOf(growing));
      expect(readPauses(growing, growing.length)).toMatchObject(pausesOf(growing));
    }
    expect(readPauses(growing, 4)).toMatchObject(pausesOf(events, 4));
    // a seek back to step 4: read again from the start, not on from step 11
    const back = pausesAfter(reading, growing, 4);
    expect({ pausedMs: back.pausedMs, pausedSince: back.pausedSince }).toEqual(pausesOf(events, 4));
    // another log (a new store's history) is read from its start
    const other = log(['run.started', 0], ['steer.pause', 100]);
    const fresh = pausesAfter(reading, other);
    expect({ pausedMs: fresh.pausedMs, pausedSince: fresh.pausedSince }).toEqual({ pausedMs: 0, pausedSince: 100 });
  });
});
