/**
 * An event less what a clock decides: its timestamp, a call's measured latency and start, and the times of a retried
 * call's attempts. Two runs of one seed write the same clockless log whatever the latency, the jitter or the limit of
 * calls in flight (issue 30); the determinism tests and the engine fingerprint compare logs through this.
 * Not responsible for what else may differ between two logs (seq after a resume marker: the callers decide).
 */
import type { ExplorationEvent } from '../contract/events';

export function clockless(event: ExplorationEvent): ExplorationEvent {
  if (event.type !== 'model.called') return { ...event, ts: 0 };
  const { startedAt: _startedAt, attempts, ...payload } = event.payload;
  const timeless = attempts?.map((attempt) => ({ ...attempt, startedAt: 0, latencyMs: 0 }));
  return { ...event, ts: 0, payload: { ...payload, latencyMs: 0, ...(timeless ? { attempts: timeless } : {}) } };
}
