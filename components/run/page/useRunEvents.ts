'use client';
// Streams a run into its store. The latest tree comes first (snapshot.json: one stored snapshot, not the log), so a
// long run is drawn and usable at once; the live subscription (tRPC over SSE) follows from its seq, resuming from the
// last one received on reconnect, and brings the running run's calls in flight between the events (a transient
// figure, into the store's callsInFlight; never folded). The history from seq 1 up to the snapshot's seq streams in
// behind (history.ndjson: the light log, model calls without their prompts; run-reads.ts) for time travel, the
// timeline and the event log. It is asked for once the tree's bytes have arrived (asked sooner, the server and the
// wire split between the two and the tree came in after the history: npm run bench:ui) and before they are parsed,
// and handed to the store only once the tree is in (before it, the store would fold the history into its live tree
// from seq 1); it changes the store's history, not the tree on screen. The history is asked
// again from where it broke off while that may help (run-reads.ts); a failed snapshot is not retried: the stream
// then starts from seq 1 and brings the whole log.
// The snapshot goes through React Query, which keeps only a few numbers (the store holds the tree), so its key names
// the store: another store of the same run (a second tab's page, the compare page) gets its own fetch rather than a
// cache entry it never folded.
// With `onDiscussed` (the run page) the stream also says when the run's comments or labels change, and stays open after
// the log's end for them; the connection then reads "complete" once the log has ended, as a stream that closed did.
// Such a stream is let go while the tab is hidden (a browser gives one server six HTTP/1.1 connections, and a dozen
// background tabs of finished runs must not hold them all) and opened again when it shows, reading the discussion
// again as any (re)start does.
// Returns the connection's state, derived from the subscription, and a retry (whether the history is still loading
// is the store's: eventCount < lastSeq). Not responsible for folding events (lib/store/run-store.ts).
import { skipToken, useQuery } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect, useState } from 'react';
import type { ExplorationEvent } from '@/lib/engine/index';
import { connectionState, type RunStore } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { openSnapshot, readHistory } from './run-reads';
import { useRunStore, useRunStoreApi } from './RunStoreContext';
import { hasEnded } from '@/lib/contract/run-status';

export type { ConnectionState } from '@/lib/store/index';

const storeKeys = new WeakMap<RunStore, number>();
let storesSeen = 0;
/** A number naming this store in query keys (stable for the store's life). */
function keyOf(store: RunStore): number {
  const known = storeKeys.get(store);
  if (known !== undefined) return known;
  storeKeys.set(store, ++storesSeen);
  return storesSeen;
}

/** Events beyond which the history is handed to the store only once the page is idle after the first tree. */
const LONG_HISTORY = 5_000;

/** The longest the history waits for the page to be idle after the first tree. */
const FIRST_IDLE_WAIT_MS = 1_000;

/**
 * Calls `then` when the main thread is first idle, or after FIRST_IDLE_WAIT_MS (where idle callbacks are missing: at
 * the next task).
 */
function afterFirstIdle(then: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: FIRST_IDLE_WAIT_MS });
  else setTimeout(then, 0);
}

/** The snapshot being read: its seq, the moment its bytes are in, and the moment its tree is in the store. */
interface Opening {
  seq: number;
  arrived: Promise<void>;
  treeIn: Promise<void>;
}

export interface RunEventsOptions {
  /** The run's discussion changed, or the stream (re)started and may have missed a change: read it again. */
  onDiscussed?: () => void;
}

export function useRunEvents(runId: string, options: RunEventsOptions = {}) {
  const { onDiscussed } = options;
  const trpc = useTRPC();
  const store = useRunStoreApi();
  const storeKey = keyOf(store);

  // the latest tree, folded into the store; the cache keeps where the stream and the history start
  const [opening, setOpening] = useState<Opening | null>(null);
  const snapshot = useQuery({
    staleTime: Infinity,
    // not asked again: without it the stream brings the whole log from the start, so the page need not wait
    retry: false,
    queryKey: ['run.snapshot', runId, { store: storeKey }],
    queryFn: async ({ signal }) => {
      const opened = await openSnapshot(runId, signal);
      const treeIn = opened.tree.then((tree) => store.getState().startFrom(tree));
      treeIn.catch(() => {}); // the query reports it
      setOpening({ seq: opened.seq, arrived: opened.arrived, treeIn });
      await treeIn;
      return { seq: opened.seq, streamAfter: store.getState().lastSeq };
    },
  });

  // the history up to the snapshot's seq (the stream brings what follows), from as soon as that seq is known: the
  // opening's while it is read, the cached answer's when this hook mounts again on the same store (no opening then)
  const historyUntil = snapshot.data?.seq ?? (snapshot.isError ? null : (opening?.seq ?? null));
  useEffect(() => {
    if (historyUntil === null) return;
    const after = store.getState().eventCount;
    if (after >= historyUntil) return;
    const controller = new AbortController();
    // held until the tree is in: folded before it, the history would rebuild the live tree from seq 1
    let held: ExplorationEvent[] | null = [];
    const current = opening?.seq === historyUntil ? opening : null;
    const treeIn = current?.treeIn ?? Promise.resolve();
    const handOver = () => {
      if (controller.signal.aborted) return;
      if (held?.length) store.getState().receiveMany(held);
      held = null;
    };
    treeIn.then(
      // a long history also waits until the page is first idle: each fold of it updates the store, and an update
      // restarts the canvas's deferred render of the first tree, which then came in after the whole history
      // (npm run bench:ui); a short one folds in a frame
      () => (historyUntil - after > LONG_HISTORY ? afterFirstIdle(handOver) : handOver()),
      () => controller.abort(), // no tree: the stream brings the whole log from seq 1
    );
    const read = () =>
      readHistory({
        runId,
        after,
        until: historyUntil,
        signal: controller.signal,
        onEvents: (events) => {
          if (held) held.push(...events);
          else store.getState().receiveMany(events);
        },
      }).catch(() => {}); // a refusal: the page says so from run.byId and the stream's own answer
    // the tree's bytes first; a tree that fails aborts the read above
    (current?.arrived ?? Promise.resolve()).then(read, () => {});
    return () => controller.abort();
  }, [historyUntil, opening, runId, store]);

  // a missing run is reported by the page (run.byId); the stream then has nothing to follow, from the start
  const startAfter = snapshot.data?.streamAfter ?? (snapshot.isError ? 0 : null);
  const [received, setReceived] = useState(false);
  // whether the stream brought the log's end (the store folds it only at the next frame, after the stream has ended)
  const [broughtEnd, setBroughtEnd] = useState(false);
  // whether the subscription has started once: before that its 'idle' is "not yet", not "ended"
  const [opened, setOpened] = useState(false);
  // a stream kept open for the discussion after the log's end: the log is complete all the same
  const logEnded = useRunStore((s) => hasEnded(s.liveStatus));
  const hidden = usePageHidden();
  const parked = onDiscussed !== undefined && logEnded && hidden;
  // parked, the stream opens again after the log the store has (not from the snapshot: a run watched live to its end
  // would be sent again whole)
  const [resumeAfter, setResumeAfter] = useState<number | null>(null);
  if (parked && resumeAfter !== store.getState().lastSeq) setResumeAfter(store.getState().lastSeq);
  const after = resumeAfter ?? startAfter;
  const subscription = useSubscription(
    trpc.run.onEvents.subscriptionOptions(
      after === null || parked
        ? skipToken
        : {
            runId,
            lastEventId: after > 0 ? String(after) : null,
            live: true,
            discussion: onDiscussed !== undefined,
          },
      {
        onStarted: () => {
          setOpened(true);
          onDiscussed?.();
        },
        onData: (message) => {
          if ('live' in message.data) {
            store.getState().setCallsInFlight(message.data.live.callsInFlight);
            return;
          }
          if ('discussed' in message.data) {
            onDiscussed?.();
            return;
          }
          store.getState().receive(message.data);
          if (!received) setReceived(true);
          if (message.data.type === 'run.finished' || message.data.type === 'run.failed') setBroughtEnd(true);
        },
      },
    ),
  );
  const streamState = connectionState(startAfter !== null, subscription.status, received, opened);
  const state = streamState === 'live' && logEnded && onDiscussed !== undefined ? 'ended' : streamState;
  return {
    state,
    /** The stream ended without the log's end: the row knows why (lib/store/run-clock.ts). */
    endedUnexplained: state === 'ended' && !broughtEnd,
    error: subscription.error?.message ?? null,
    retry: () => subscription.reset(),
  };
}

export type RunConnection = ReturnType<typeof useRunEvents>;

/** Whether the page's tab is hidden (another tab in front, the window minimised). */
function usePageHidden(): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const update = () => setHidden(document.visibilityState === 'hidden');
    update();
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return hidden;
}
