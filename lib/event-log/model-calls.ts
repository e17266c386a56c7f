/**
 * The inspector's reading of the event log: a node's model.called events (found by node.modelCallSeqs, since the
 * store keeps event seq s at index s - 1), their totals, the times of a node's steps, and how token counts are
 * written (a cost or a token count: lib/contract/format.ts). Pure and React-free so it is unit-tested; not responsible for drawing
 * (Inspector.tsx).
 */
import type { EventOf, ExplorationEvent } from '@/lib/contract/events';
import type { ChatMessage } from '@/lib/contract/vocabulary';

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
