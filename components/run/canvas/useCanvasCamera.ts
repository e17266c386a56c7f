'use client';
// Where the canvas's camera goes by itself, as hooks of RunCanvas: it keeps what a person is looking at in place when
// the layout changes around it, fits on arrival and follows the newest activity while "follow live" is on, brings a
// node selected elsewhere into view, and frames what another part of the page asks for (a focus request).
// Not responsible for the layout (useCanvasModel.ts) nor for the framing arithmetic (fit.ts, lib/layout/fit.ts).
import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { followViewport, revealViewport, type CanvasLayout, type Position } from '@/lib/layout/index';
import { usePageView } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import type { useFrame } from './fit';

type Frame = ReturnType<typeof useFrame>;

/**
 * Follow live moves the view at most this often. A search adding hundreds of nodes a second moves its activity every
 * frame, often across the tree: a view re-aimed each frame cannot be read, and each move re-renders the cards in view.
 */
const FOLLOW_EVERY_MS = 500;

/**
 * When the layout changes around what a person is looking at, keep it where it was on screen rather than letting the
 * tree jump under the pointer: an opened summary's first child takes the summary's place (pinned with the returned
 * function before the change), and the selection stays put when its branch opens around it.
 */
export function useKeepInPlace(
  layout: CanvasLayout,
  selectedNodeId: string | null,
): (itemId: string, at: Position) => void {
  const flow = useReactFlow();
  const store = useRunStoreApi();
  const previous = useRef<CanvasLayout | null>(null);
  const anchor = useRef<{ itemId: string; at: Position } | null>(null);
  useLayoutEffect(() => {
    const { positions, itemOf } = layout;
    const before = previous.current;
    previous.current = layout;
    const pinned = anchor.current;
    anchor.current = null;
    let was: Position | undefined;
    let now: Position | undefined;
    if (pinned) {
      was = pinned.at;
      now = positions.get(pinned.itemId);
    } else if (before && selectedNodeId && !store.getState().followLive) {
      was = before.positions.get(before.itemOf.get(selectedNodeId) ?? '');
      now = positions.get(itemOf.get(selectedNodeId) ?? '');
    }
    if (!was || !now || (was.x === now.x && was.y === now.y)) return;
    const { x, y, zoom } = flow.getViewport();
    void flow.setViewport({ x: x - (now.x - was.x) * zoom, y: y - (now.y - was.y) * zoom, zoom });
  }, [layout, selectedNodeId, flow, store]);
  return useCallback((itemId: string, at: Position) => {
    anchor.current = { itemId, at };
  }, []);
}

/**
 * Follow live: fit on arrival, then keep the newest activity (the step running now, else the latest node) in view:
 * the view stays while it is in sight, and moves (lib/layout/fit.ts's followViewport) at most every FOLLOW_EVERY_MS;
 * a move due sooner waits for that, aimed at the activity of then.
 * `layoutSeq` is the step the layout was built for: the canvas follows the store deferred, and the first fit waits
 * until what is drawn is the step on screen (else the view would be framed, then moved, by a layout of another step).
 */
export function useFollowLive(layout: CanvasLayout, layoutSeq: number, frame: Frame) {
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  const store = useRunStoreApi();
  const lastMove = useRef(-Infinity);
  // bumped when a move held back by FOLLOW_EVERY_MS is due: the effect runs again on what is laid out then
  const [due, setDue] = useState(0);
  const followLive = useRunStore((s) => s.followLive);
  const activityId = useRunStore((s) => s.tree.inFlight?.entry.nodeId ?? s.tree.nodeOrder.at(-1) ?? null);
  const finished = useRunStore((s) => s.tree.status === 'finished');
  // a link's step still on its way (the latest tree is drawn until the history reaches it)
  const waitingForStep = useRunStore((s) => s.pendingSeq !== null);
  const drawnIsShown = useRunStore((s) => s.tree.lastSeq === layoutSeq);
  const fitted = useRef(false);
  const wasFinished = useRef(finished);
  const { positions, itemOf } = layout;
  const itemCount = positions.size;
  useEffect(() => {
    if (itemCount === 0) return;
    // the first fit frames the tree the person came to see: a linked step's, not the latest one drawn meanwhile
    if (!fitted.current && (waitingForStep || !drawnIsShown)) return;
    // fit once on arrival, while a small live tree grows, and when a followed run finishes; not when a finished
    // tree changes shape (a click opens the focus around a node: the view must stay where the person is looking)
    const justFinished = finished && !wasFinished.current;
    wasFinished.current = finished;
    if (!fitted.current) {
      // on arrival, a node already selected (a shared link's) is what the person came to see: frame it, readable
      const linked = store.getState().selectedNodeId;
      fitted.current = (linked !== null && itemOf.has(linked) && frame([linked], 0)) || frame(null, 0);
      return;
    }
    if (followLive && (justFinished || (!finished && itemCount <= 12))) {
      frame(null, finished ? 0 : 250);
      return;
    }
    if (finished) return;
    if (!followLive || !activityId) return;
    const item = itemOf.get(activityId);
    const p = item ? positions.get(item) : undefined;
    if (!p) return;
    const { width, height } = flowStore.getState();
    const move = followViewport(p, flow.getViewport(), width, height);
    if (!move) return;
    const wait = lastMove.current + FOLLOW_EVERY_MS - performance.now();
    if (wait > 0) {
      const timer = setTimeout(() => setDue((n) => n + 1), wait);
      return () => clearTimeout(timer);
    }
    lastMove.current = performance.now();
    // linear: d3's default zoom interpolation backs out to travel, through every level of the semantic zoom
    void flow.setViewport(move, { duration: move.duration, interpolate: 'linear' });
  }, [
    activityId,
    itemCount,
    finished,
    followLive,
    flow,
    flowStore,
    frame,
    itemOf,
    positions,
    store,
    waitingForStep,
    drawnIsShown,
    due,
  ]);
}

/** A node selected from elsewhere (keyboard, event log, inspector) is brought into view if it is off screen. */
export function useRevealSelection(layout: CanvasLayout, selectedNodeId: string | null) {
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  const store = useRunStoreApi();
  const { positions, itemOf } = layout;
  useEffect(() => {
    if (!selectedNodeId) return;
    const item = itemOf.get(selectedNodeId);
    const p = item ? positions.get(item) : undefined;
    if (!p) return;
    const { width, height } = flowStore.getState();
    const move = revealViewport(p, flow.getViewport(), width, height);
    if (!move) return;
    store.getState().setView({ followLive: false });
    // linear, at the zoom the person chose: d3's default backs out to travel, and a key pressed mid-flight would
    // read that lower zoom and keep it
    void flow.setViewport(move, { duration: move.duration, interpolate: 'linear' });
  }, [selectedNodeId, itemOf, positions, flow, flowStore, store]);
}

/** Frame what another part of the page asks for (the overview, the search, a breakpoint stop). */
export function useFocusRequests(frame: Frame) {
  const store = useRunStoreApi();
  const focusRequest = usePageView((s) => s.focusRequest);
  useEffect(() => {
    if (!focusRequest || focusRequest.nodeIds.length === 0) return;
    store.getState().setView({ followLive: false });
    frame(focusRequest.nodeIds);
  }, [focusRequest, frame, store]);
}
