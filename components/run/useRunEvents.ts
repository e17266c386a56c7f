'use client';
// Streams a run's events into its store. What is already stored comes first in a few large pages (run.events),
// so a recorded run of thousands of events is drawn at once instead of event by event; then the tRPC
// subscription (SSE) takes over from the last seq, resuming from the last one received on reconnect.
// Returns the connection's state, derived from the subscription, and a retry.
import { skipToken } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useState } from 'react';
import { useTRPC, useTRPCClient } from '@/lib/trpc/client';
import { useRunStoreApi } from './RunStoreContext';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

const PAGE = 5_000;

export function useRunEvents(runId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const store = useRunStoreApi();
  // null until the stored history is in the store; then where the live stream starts
  const [startAfter, setStartAfter] = useState<number | null>(null);
  const [received, setReceived] = useState(false);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      let after = store.getState().lastSeq;
      for (;;) {
        const page = await client.run.events.query({ id: runId, afterSeq: after, limit: PAGE });
        if (cancelled) return;
        store.getState().receiveMany(page.events);
        store.getState().flush();
        const last = page.events.at(-1);
        if (!last || page.events.length < PAGE) break;
        after = last.seq;
      }
      setStartAfter(store.getState().lastSeq);
    })().catch(() => {
      // a missing run is reported by the page (run.byId); the stream then has nothing to follow
      if (!cancelled) setStartAfter(store.getState().lastSeq);
    });
    return () => {
      cancelled = true;
    };
  }, [client, runId, store]);

  const subscription = useSubscription(
    trpc.run.onEvents.subscriptionOptions(
      startAfter === null ? skipToken : { runId, lastEventId: startAfter > 0 ? String(startAfter) : null },
      {
        onData: (message) => {
          store.getState().receive(message.data);
          if (!received) setReceived(true);
        },
      },
    ),
  );
  const state: ConnectionState =
    startAfter === null
      ? 'connecting'
      : subscription.status === 'error'
        ? 'error'
        : subscription.status === 'pending'
          ? 'live'
          : subscription.status === 'connecting'
            ? received
              ? 'reconnecting'
              : 'connecting'
            : 'ended';
  return { state, error: subscription.error?.message ?? null, retry: () => subscription.reset() };
}

export type RunConnection = ReturnType<typeof useRunEvents>;
