'use client';
// Streams a run's events into its store: the tRPC subscription over SSE, resumed from the last seq on reconnect.
// Returns the connection's state, derived from the subscription, and a retry.
import { useSubscription } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc/client';
import { useRunStoreApi } from './RunStoreContext';

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

export function useRunEvents(runId: string) {
  const trpc = useTRPC();
  const store = useRunStoreApi();
  // Where to start when subscribing from scratch: what the store already has.
  const [lastEventId] = useState(() =>
    store.getState().tree.lastSeq > 0 ? String(store.getState().tree.lastSeq) : null,
  );
  const [received, setReceived] = useState(false);
  const subscription = useSubscription(
    trpc.run.onEvents.subscriptionOptions(
      { runId, lastEventId },
      {
        onData: (message) => {
          store.getState().receive(message.data);
          if (!received) setReceived(true);
        },
      },
    ),
  );
  const state: ConnectionState =
    subscription.status === 'error'
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
