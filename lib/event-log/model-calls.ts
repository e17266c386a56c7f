/**
 * The inspector's reading of the event log: a node's model.called events (found by node.modelCallSeqs, since the
 * store keeps event seq s at index s - 1), their totals, the times of a node's steps, how token counts are
 * written (a cost or a token count: lib/contract/format.ts), and the node's waterfall: when each of its calls started
 * and ended on one time axis, with a retried call's attempts and the waits between them (callWaterfall).
 * Pure and React-free so it is unit-tested; not responsible for drawing (Inspector.tsx, CallWaterfall.tsx).
 */
import type { EventOf, ExplorationEvent } from '@/lib/contract/events';
import type { ChatMessage, ModelPurpose } from '@/lib/contract/vocabulary';

export type ModelCallEvent = EventOf<'model.called'>;

/** The event with this seq, when the store has it (events[seq - 1]). */
export function eventAt(events: readonly ExplorationEvent[], seq: number): ExplorationEvent | undefined {
  const event = events[seq - 1];
  return event?.seq === seq ? event : undefined;
}

/** The model.called events with these seqs, in the given order; seqs the store lacks are skipped. */
export function modelCallsOf(events: readonly ExplorationEvent[], seqs: readonly number[]): ModelCallEvent[] {
  const calls: ModelCallEvent[] = [];
  for (const seq of seqs) {
    const event = eventAt(events, seq);
    if (event?.type === 'model.called') calls.push(event);
  }
  return calls;
}

export interface CallTotals {
  calls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  /** Dollars of the priced calls. */
  cost: number;
  unpricedCalls: number;
  latencyMs: number;
}

export function callTotals(calls: readonly ModelCallEvent[]): CallTotals {
  const totals: CallTotals = {
    calls: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    cost: 0,
    unpricedCalls: 0,
    latencyMs: 0,
  };
  for (const { payload } of calls) {
    totals.calls += 1;
    if (payload.error !== null) totals.errors += 1;
    totals.inputTokens += payload.usage.inputTokens;
    totals.outputTokens += payload.usage.outputTokens;
    if (payload.cost === null) totals.unpricedCalls += 1;
    else totals.cost += payload.cost;
    totals.latencyMs += payload.latencyMs;
  }
  return totals;
}

/** A prompt as one copyable text: each message under its role. */
export function messagesAsText(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `[${m.role}]\n${m.content}`).join('\n\n');
}

/** A clock time with milliseconds, in the viewer's time zone: "14:03:07.412". */
export function formatClock(ts: number): string {
  const d = new Date(ts);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** A part of a retried call on the waterfall: one HTTP attempt, or the wait before the next one. */
export interface WaterfallSegment {
  kind: 'attempt' | 'wait';
  /** Where it starts and how long it is, as fractions of the node's axis (0..1). */
  left: number;
  width: number;
  durationMs: number;
  /** An attempt's HTTP status (null: no answer came, or a wait). */
  status: number | null;
  /** What went wrong with an attempt (null: it answered, or a wait). */
  error: string | null;
}

/** One model call of a node on its waterfall. */
export interface WaterfallRow {
  seq: number;
  purpose: ModelPurpose;
  /** When it started (ms since the epoch), and after the node's first call started. */
  startedAt: number;
  offsetMs: number;
  durationMs: number;
  /** The start was not recorded (a log written before calls ran together): the event's time minus its latency. */
  estimated: boolean;
  /** The call's own error (the backend gave up on it), null when it answered. */
  error: string | null;
  /** Attempts the backend made beyond the first. */
  retries: number;
  /** Where the bar starts and how long it is, as fractions of the node's axis (0..1). */
  left: number;
  width: number;
  /** A retried call's attempts and the waits between them, in order; empty for a call made once. */
  segments: WaterfallSegment[];
}

export interface Waterfall {
  /** When the node's first call started (ms since the epoch): the axis's 0. */
  startedAt: number;
  /** From the first call's start to the last one's end. */
  spanMs: number;
  /** The most calls of the node that were in flight at one moment. */
  peakInFlight: number;
  /** By start, then by seq. */
  rows: WaterfallRow[];
}

/** Where a call started: recorded since calls run together, else estimated from when its event was written. */
export function callStart(call: ModelCallEvent): { startedAt: number; estimated: boolean } {
  const recorded = call.payload.startedAt;
  return recorded === undefined
    ? { startedAt: call.ts - call.payload.latencyMs, estimated: true }
    : { startedAt: recorded, estimated: false };
}

/**
 * A node's calls on one time axis, from the first one's start to the last one's end. A retried call spans its
 * attempts (its own start and latency cover them all; an attempt outside them widens it) and is drawn as them, with
 * the wait before each next attempt. Null when there is nothing to draw: no call, or every call took no time at all
 * (the simulator without latency).
 */
export function callWaterfall(calls: readonly ModelCallEvent[]): Waterfall | null {
  const spans = calls.map((call) => {
    const { startedAt, estimated } = callStart(call);
    const attempts = call.payload.attempts ?? [];
    let start = startedAt;
    let end = startedAt + call.payload.latencyMs;
    for (const a of attempts) {
      start = Math.min(start, a.startedAt);
      end = Math.max(end, a.startedAt + a.latencyMs);
    }
    return { call, start, end, estimated };
  });
  if (spans.length === 0) return null;
  const axisStart = Math.min(...spans.map((s) => s.start));
  const spanMs = Math.max(...spans.map((s) => s.end)) - axisStart;
  if (spanMs <= 0) return null;
  const at = (ts: number) => (ts - axisStart) / spanMs;
  const rows = spans
    .sort((a, b) => a.start - b.start || a.call.seq - b.call.seq)
    .map(({ call, start, end, estimated }): WaterfallRow => {
      const attempts = call.payload.attempts ?? [];
      const segments: WaterfallSegment[] = [];
      attempts.forEach((a, i) => {
        const attemptEnd = a.startedAt + a.latencyMs;
        segments.push({
          kind: 'attempt',
          left: at(a.startedAt),
          width: a.latencyMs / spanMs,
          durationMs: a.latencyMs,
          status: a.status,
          error: a.error,
        });
        const next = attempts[i + 1];
        if (!next) return;
        // the wait as it happened (up to the next attempt's start), else as the backend announced it
        const waited = Math.max(0, next.startedAt - attemptEnd) || (a.waitMs ?? 0);
        if (waited > 0) {
          segments.push({
            kind: 'wait',
            left: at(attemptEnd),
            width: waited / spanMs,
            durationMs: waited,
            status: null,
            error: null,
          });
        }
      });
      return {
        seq: call.seq,
        purpose: call.payload.purpose,
        startedAt: start,
        offsetMs: start - axisStart,
        durationMs: end - start,
        estimated,
        error: call.payload.error,
        retries: Math.max(0, attempts.length - 1),
        left: at(start),
        width: (end - start) / spanMs,
        segments,
      };
    });
  return { startedAt: axisStart, spanMs, peakInFlight: peakInFlight(spans), rows };
}

/**
 * How far two calls' recorded times may overlap when one in fact started as the other ended: a call's startedAt is
 * the run's clock in whole milliseconds (Date.now truncates) and its latencyMs is performance.now's difference rounded,
 * measured apart, so together they can be off by up to 1.5 ms.
 */
export const CLOCK_ROUNDING_MS = 2;

/**
 * The most calls in flight at one moment, from their start and end times (one ending as another starts do not
 * overlap). `roundingMs`: calls that overlap by no more than this count as one after the other (CLOCK_ROUNDING_MS:
 * recorded times can make a call seem to start a moment before the last one ended).
 */
export function peakInFlight(spans: readonly { start: number; end: number }[], roundingMs = CLOCK_ROUNDING_MS): number {
  // a call that took no time is still in flight at its instant
  const edges = spans.flatMap((s) => [
    { at: s.start, step: 1 },
    { at: Math.max(s.end - roundingMs, s.start + 1e-6), step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.step;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** What a retried call's attempts said, in order: "429, 429, 200" (an attempt with no answer: "no answer"). */
export function attemptsText(row: WaterfallRow): string {
  return row.segments
    .filter((s) => s.kind === 'attempt')
    .map((s) => (s.status !== null ? String(s.status) : s.error === null ? 'ok' : 'no answer'))
    .join(', ');
}
