'use client';
// Streams a run into its store. The latest tree comes first (run.snapshot: one stored snapshot, not the log), so a
// long run is drawn and usable at once; the live subscription (SSE) follows from its seq, resuming from the last
// one received on reconnect. The history from seq 1 is paged in behind (run.events, light: model calls without
// their prompts) for time travel, the timeline and the event log; it changes the store's history, not the tree
// on screen. Returns the connection's state, derived from the subscription, and a retry (whether the history is
// still loading is the store's: eventCount < lastSeq).
import { skipToken } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useState } from 'react';
import type { ThoughtTree } from '@/lib/engine/index';
import { sleep } from '@/lib/contract/sleep';
import { useTRPC, useTRPCClient } from '@/lib/trpc/index';
import { useRunStoreApi } from './RunStoreContext';

/** Answers that asking again cannot change. */
const STOP_CODES = new Set(['NOT_FOUND', 'BAD_REQUEST', 'FORBIDDEN', 'UNAUTHORIZED']);

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

const PAGE = 10_000;

export function useRunEvents(runId: string) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const store = useRunStoreApi();
  // null until the latest tree is in the store; then where the live stream starts
  const [startAfter, setStartAfter] = useState<number | null>(null);
  const [received, setReceived] = useState(false);
  // whether the stream brought the log's end (the store folds it only at the next frame, after the stream has ended)
  const [broughtEnd, setBroughtEnd] = useState(false);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const latest = await client.run.snapshot.query({ id: runId });
      if (cancelled) return;
      store.getState().startFrom(JSON.parse(latest.tree) as ThoughtTree);
      setStartAfter(store.getState().lastSeq);
      // the history, up to where the snapshot was taken (the stream brings what follows)
      let after = store.getState().eventCount;
      const pageAfter = async (afterSeq: number) => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await client.run.events.query({
              id: runId,
              afterSeq,
              untilSeq: latest.seq,
              limit: PAGE,
              light: true,
            });
          } catch (error) {
            // a deleted run, or a refusal (a session that ended, a revoked share link), stops here; a dropped
            // connection or a restarting server is tried again, slower each time, so a blip never leaves the page
            // saying "loading history…" for good
            const code = (error as { data?: { code?: string } }).data?.code ?? '';
            if (cancelled || STOP_CODES.has(code)) throw error;
            await sleep(Math.min(10_000, 500 * 2 ** attempt));
            if (cancelled) throw error;
          }
        }
      };
      while (after < latest.seq) {
        const page = await pageAfter(after);
        if (cancelled) return;
        store.getState().receiveMany(page.events);
        store.getState().flush();
        const last = page.events.at(-1);
        if (!last) break;
        after = last.seq;
      }
    })().catch(() => {
      // a missing run is reported by the page (run.byId); the stream then has nothing to follow
      if (!cancelled) setStartAfter((seq) => seq ?? store.getState().lastSeq);
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
          if (message.data.type === 'run.finished' || message.data.type === 'run.failed') setBroughtEnd(true);
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
  return {
    state,
    /** The stream ended without the log's end: the row knows why (lib/store/run-clock.ts). */
    endedUnexplained: state === 'ended' && !broughtEnd,
    error: subscription.error?.message ?? null,
    retry: () => subscription.reset(),
  };
}

export type RunConnection = ReturnType<typeof useRunEvents>;
