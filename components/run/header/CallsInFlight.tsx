'use client';
// The run header's live figure beside the status: how many of the run's model calls are answering now ("5 calls in
// flight"), as the run's stream last said (a transient figure, not in the log: lib/store's callsInFlight). Shown only
// while the run runs and its stream is live, so a stale figure is never on screen; its title gives the run's limit.
// Not responsible for counting (the engine) or carrying the figure (the stream, components/run/page/useRunEvents.ts).
import { DEFAULT_MAX_CONCURRENT_CALLS } from '@/lib/contract/vocabulary';
import { useRunStore } from '../page/RunStoreContext';
import type { ConnectionState } from '../page/useRunEvents';
import styles from './CallsInFlight.module.css';

export function CallsInFlight({ status, connection }: { status: string; connection: ConnectionState }) {
  const count = useRunStore((s) => s.callsInFlight);
  const limit = useRunStore((s) => s.tree.config.maxConcurrentCalls ?? DEFAULT_MAX_CONCURRENT_CALLS);
  if (status !== 'running' || connection !== 'live' || count === null) return null;
  return (
    <span
      className={styles.inFlight}
      data-testid="calls-in-flight"
      data-count={count}
      title={`Model calls of this run answering now; at most ${limit} at once (the run’s limit)`}
    >
      <b className={styles.count}>{count}</b> call{count === 1 ? '' : 's'} in flight
    </span>
  );
}
