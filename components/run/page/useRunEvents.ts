'use client';
// Streams a run into its store, through React Query and tRPC. The latest tree comes first (run.snapshot: one stored
// snapshot, not the log), so a long run is drawn and usable at once; the live subscription (SSE) follows from its
// seq, resuming from the last one received on reconnect, and brings the running run's calls in flight between the
// events (a transient figure, into the store's callsInFlight; never folded). The history from seq 1 is paged in
// behind (run.history: the light log, model calls without their prompts, as JSON text) for time travel, the
// timeline and the event log: one query per page, keyed by where the store's history reaches (eventCount), so
// folding a page asks for the next, which has been fetched meanwhile;
// it changes the store's history, not the tree on screen. React Query retries a history page while it may succeed later
// (lib/store/run-stream.ts; a failed snapshot is not retried: the stream then starts from seq 1),
// cancels what the page no longer needs, and never asks twice for what it has (the log does not change).
// Each query folds its answer into this page's store and keeps only a few numbers in the cache (the store holds
// the events), so its key names the store: another store of the same run (a second tab's page, the compare page)
// gets its own fetch rather than a cache entry it never folded.
// Returns the connection's state, derived from the subscription, and a retry (whether the history is still loading
// is the store's: eventCount < lastSeq). Not responsible for folding events (lib/store/run-store.ts).
import { skipToken, useQuery } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type { ExplorationEvent, ThoughtTree } from '@/lib/engine/index';
import { connectionState, nextHistoryPage, retryDelayMs, retryUnlessRefused, type RunStore } from '@/lib/store/index';
import { useTRPC, useTRPCClient } from '@/lib/trpc/index';
import { useRunStore, useRunStoreApi } from './RunStoreContext';

export type { ConnectionState } from '@/lib/store/index';

/** Log answers never change: asked once per store, retried while it may help. */
const LOG_QUERY = { staleTime: Infinity, retry: retryUnlessRefused, retryDelay: retryDelayMs } as const;

const storeKeys = new WeakMap<RunStore, number>();
let storesSeen = 0;
/** A number naming this store in query keys (stable for the store's life). */
function keyOf(store: RunStore): number {
  const known = storeKeys.get(store);
  if (known !== undefined) return known;
  storeKeys.set(store, ++storesSeen);
  return storesSeen;
}

export function useRunEvents(runId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const store = useRunStoreApi();
  const storeKey = keyOf(store);

  // the latest tree, folded into the store; the cache keeps where the stream and the history start
  const snapshot = useQuery({
    ...LOG_QUERY,
    // not asked again: without it the stream brings the whole log from the start, so the page need not wait
    retry: false,
    queryKey: [...trpc.run.snapshot.queryKey({ id: runId }), { store: storeKey }],
    queryFn: async ({ signal }) => {
      const latest = await client.run.snapshot.query({ id: runId }, { signal });
      store.getState().startFrom(JSON.parse(latest.tree) as ThoughtTree);
      return { seq: latest.seq, streamAfter: store.getState().lastSeq };
    },
  });

  // the history, a page at a time, up to where the snapshot was taken (the stream brings what follows)
  const snapshotSeq = snapshot.data?.seq ?? null;
  // where the history reaches while it is short of the snapshot; null after, so live events re-render nothing here
  const historyAt = useRunStore((s) => (snapshotSeq !== null && s.eventCount < snapshotSeq ? s.eventCount : null));
  const page = historyAt !== null && snapshotSeq !== null ? nextHistoryPage(historyAt, snapshotSeq) : null;
  const pageInput = page && { id: runId, ...page, light: true };
  // the page after the one asked for is fetched while this one is parsed and folded (the log does not change, and
  // a full page ends where the next starts): the server and the network work while the browser folds
  const [ahead] = useState(() => new Map<number, Promise<{ json: string }>>());
  useQuery({
    ...LOG_QUERY,
    // folded pages are in the store: nothing to keep once the next page is asked for
    gcTime: 0,
    queryKey: [...trpc.run.history.queryKey(pageInput ?? { id: runId }), { store: storeKey }],
    queryFn: pageInput
      ? async ({ signal }) => {
          const fetched = ahead.get(pageInput.afterSeq) ?? client.run.history.query(pageInput, { signal });
          ahead.delete(pageInput.afterSeq);
          const next = pageInput.afterSeq + pageInput.limit;
          if (next < pageInput.untilSeq && !ahead.has(next)) {
            const prefetch = client.run.history.query({ ...pageInput, afterSeq: next });
            prefetch.catch(() => ahead.delete(next)); // asked again, with retries, when its turn comes
            ahead.set(next, prefetch);
          }
          const { json } = await fetched;
          const events = JSON.parse(json) as ExplorationEvent[];
          store.getState().receiveMany(events);
          store.getState().flush();
          return events.length;
        }
      : skipToken,
  });

  // a missing run is reported by the page (run.byId); the stream then has nothing to follow, from the start
  const startAfter = snapshot.data?.streamAfter ?? (snapshot.isError ? 0 : null);
  const [received, setReceived] = useState(false);
  // whether the stream brought the log's end (the store folds it only at the next frame, after the stream has ended)
  const [broughtEnd, setBroughtEnd] = useState(false);
  // whether the subscription has started once: before that its 'idle' is "not yet", not "ended"
  const [opened, setOpened] = useState(false);
  const subscription = useSubscription(
    trpc.run.onEvents.subscriptionOptions(
      startAfter === null ? skipToken : { runId, lastEventId: startAfter > 0 ? String(startAfter) : null, live: true },
      {
        onStarted: () => setOpened(true),
        onData: (message) => {
          if ('live' in message.data) {
            store.getState().setCallsInFlight(message.data.live.callsInFlight);
            return;
          }
          store.getState().receive(message.data);
          if (!received) setReceived(true);
          if (message.data.type === 'run.finished' || message.data.type === 'run.failed') setBroughtEnd(true);
        },
      },
    ),
  );
  const state = connectionState(startAfter !== null, subscription.status, received, opened);
  return {
    state,
    /** The stream ended without the log's end: the row knows why (lib/store/run-clock.ts). */
    endedUnexplained: state === 'ended' && !broughtEnd,
    error: subscription.error?.message ?? null,
    retry: () => subscription.reset(),
  };
}

export type RunConnection = ReturnType<typeof useRunEvents>;
