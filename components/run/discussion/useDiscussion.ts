'use client';
// The run's discussion (comments and labels, issue 34) read for the page and kept in its run store, where the canvas
// cards, the pills, the overview, the timeline, the inspector and the Discussion tab select it. Read once, and again
// whenever the run's stream says it changed (useRunEvents' onDiscussed) or the stream (re)connects (a change may have
// been missed meanwhile). The label set is the server's, read once.
// Not responsible for writing (useDiscussionWrites.ts) nor for showing any of it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTRPC } from '@/lib/trpc/index';
import { useRunStoreApi } from '../page/RunStoreContext';

export function useDiscussion(runId: string) {
  const trpc = useTRPC();
  const store = useRunStoreApi();
  const comments = useQuery({ ...trpc.comment.list.queryOptions({ runId }), staleTime: Infinity });
  const labels = useQuery({ ...trpc.label.list.queryOptions({ runId }), staleTime: Infinity });
  useEffect(() => {
    if (comments.data && labels.data) store.getState().setDiscussion(comments.data, labels.data);
  }, [comments.data, labels.data, store]);
  const refresh = useRefreshDiscussion(runId);
  return { refresh, error: comments.error?.message ?? labels.error?.message ?? null };
}

/**
 * Reads the run's comments and labels again: the stream said they changed or (re)connected, or this page wrote.
 * Settles once both are read.
 */
export function useRefreshDiscussion(runId: string): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.comment.list.queryKey({ runId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.label.list.queryKey({ runId }) }),
    ]);
  }, [queryClient, trpc, runId]);
}

/** The server's label set, each with its key (1 to 9). */
export function useLabelChoices() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.label.choices.queryOptions(), staleTime: Infinity }).data ?? [];
}
