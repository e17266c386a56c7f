'use client';
// The run's record and status for the run page (read once, again only when the stream ends unexplained), and the
// run's elapsed time as the header shows it (ticking every second while it runs).
// Not responsible for the rules of status and time (lib/store/run-clock.ts) nor for showing them (RunHeader.tsx).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { formatDuration } from '@/lib/contract/format';
import { hasEnded } from '@/lib/contract/run-status';
import { elapsedMs, pauseReader, runStatus } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { useRunStore } from '../page/RunStoreContext';

/**
 * The run's record, and its status: the run's (runStatus), never how much of its log the page has folded so far.
 * The record is read once: the stream says every change of status after it (the run's lifecycle is in its log). It
 * is read again only when the stream ends without the log's end, which the row then explains (a run whose database
 * refused its run.failed, a deleted run). No timer polls the server.
 */
export function useRunStatus(runId: string, streamEndedUnexplained: boolean) {
  const trpc = useTRPC();
  // commands act on the run as it is now, whatever step the screen shows
  const liveStatus = useRunStore((s) => s.liveStatus);
  const liveSeq = useRunStore((s) => s.lastSeq);
  const record = useQuery({
    ...trpc.run.byId.queryOptions({ id: runId }),
    retry: (count, error) => !['NOT_FOUND', 'FORBIDDEN', 'UNAUTHORIZED'].includes(error.data?.code ?? '') && count < 2,
  });
  // a finished run's page starts from its last tree: its stream ends at once, with nothing to bring
  const unexplained = streamEndedUnexplained && !hasEnded(liveStatus);
  const { refetch } = record;
  useEffect(() => {
    if (unexplained) void refetch();
  }, [unexplained, refetch]);
  const run = record.data ?? null;
  const status = runStatus(run, liveStatus === null ? null : { status: liveStatus, lastSeq: liveSeq });
  const loadError = record.error
    ? {
        notFound: record.error.data?.code === 'NOT_FOUND',
        // a share link opens its one run; a viewer's session may have ended: the server's words say which
        refused: record.error.data?.code === 'FORBIDDEN' || record.error.data?.code === 'UNAUTHORIZED',
        message: record.error.message,
      }
    : null;
  return { status, run, loadError };
}

export type RunRecord = ReturnType<typeof useRunStatus>['run'];

/** Now, every second while `ticking`: what a running run's clock reads against. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    // at once (the clock may have been stopped a while), then every second
    const first = setTimeout(() => setNow(Date.now()), 0);
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [ticking]);
  return now;
}

/**
 * The run's elapsed time (run-clock.ts): from the record's start to its finish, or to the step on screen, or now while
 * it runs; its pauses left out, as far as the page has the log (the history, then the stream).
 */
export function useRunElapsed(run: RunRecord, status: string): string {
  const treeStartedAt = useRunStore((s) => s.tree.startedAt);
  const treeFinishedAt = useRunStore((s) => s.tree.finishedAt);
  const viewSeq = useRunStore((s) => s.viewSeq);
  // looking at a past step: the span ends at that step's time
  const viewTs = useRunStore((s) => (s.viewSeq !== null ? (s.events[s.viewSeq - 1]?.ts ?? null) : null));
  const eventCount = useRunStore((s) => s.eventCount);
  const events = useRunStore((s) => s.events);
  // the pauses up to the end of the span, read on from the last reading as the log grows (the array grows in place;
  // a live run adds events every frame, and reading its whole log each time was a steady cost at 100k events)
  const [readPauses] = useState(pauseReader);
  const pauses = useMemo(
    () => readPauses(events, viewSeq ?? eventCount),
    // `events` grows in place: eventCount says when
    [readPauses, events, eventCount, viewSeq],
  );
  const startedAt = run?.startedAt ? new Date(run.startedAt).getTime() : treeStartedAt;
  const finishedAt = run?.finishedAt ? new Date(run.finishedAt).getTime() : treeFinishedAt;
  const ended = hasEnded(status);
  // a paused run whose pause the page has not read yet: its record changed when it paused
  const pausedAt = status === 'paused' && pauses.pausedSince === null && run ? new Date(run.updatedAt).getTime() : null;
  const endAt = viewSeq !== null ? viewTs : ended ? finishedAt : pausedAt;
  const now = useNow(viewSeq === null && status === 'running');
  const ms = elapsedMs({ startedAt, endAt, pauses }, now);
  return ms === null ? '—' : formatDuration(ms);
}
