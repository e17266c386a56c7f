'use client';
// The discussion's writes: add, edit and delete a comment; put a label on a node, change its note, take it off. Each
// is a tRPC mutation that, once the server took it, reads the run's comments and labels again, so the writer's page
// shows it at once (the run's stream tells every other open page). A write is sent at the step on screen (the
// store's viewSeq, or the last step when live).
// Label writes share one mutation key per run, so the inspector's chips say what a key press (useDiscussionKeys)
// was refused for, and the other way round (useLabelProblem).
// Not responsible for who may write (the page leaves the controls out; the server refuses) nor for reading.
import { useMutation, useMutationState } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTRPC, useTRPCClient } from '@/lib/trpc/index';
import { useRunStoreApi } from '../page/RunStoreContext';
import { useRefreshDiscussion } from './useDiscussion';

/** The step on screen, which a write records as the one its author was looking at. */
function useStepOnScreen(): () => number {
  const store = useRunStoreApi();
  return useCallback(() => {
    const state = store.getState();
    return state.viewSeq ?? state.lastSeq;
  }, [store]);
}

export interface NewComment {
  nodeId: string | null;
  text: string;
  /** The comment answered: its thread's first (a reply to a reply joins the thread). */
  replyTo?: string | null;
}

/** One form's "add a comment" (a new thread or a reply); its error and pending state are that form's. */
export function useAddComment(runId: string) {
  const client = useTRPCClient();
  const refresh = useRefreshDiscussion(runId);
  const step = useStepOnScreen();
  return useMutation({
    mutationFn: (input: NewComment) =>
      client.comment.add.mutate({
        runId,
        nodeId: input.nodeId,
        text: input.text,
        replyTo: input.replyTo ?? null,
        step: step(),
      }),
    onSuccess: refresh,
  });
}

export function useEditComment(runId: string) {
  const trpc = useTRPC();
  const refresh = useRefreshDiscussion(runId);
  return useMutation(trpc.comment.edit.mutationOptions({ onSuccess: refresh }));
}

export function useDeleteComment(runId: string) {
  const trpc = useTRPC();
  const refresh = useRefreshDiscussion(runId);
  return useMutation(trpc.comment.delete.mutationOptions({ onSuccess: refresh }));
}

export type LabelWrite =
  { do: 'set'; nodeId: string; label: string; note?: string | null } | { do: 'remove'; nodeId: string; label: string };

const labelKey = (runId: string) => ['discussion', 'label', runId] as const;

/** Puts a label on, changes its note, or takes it off; every label write of the page shares its state (by key). */
export function useLabelWrite(runId: string) {
  const client = useTRPCClient();
  const refresh = useRefreshDiscussion(runId);
  const step = useStepOnScreen();
  return useMutation({
    mutationKey: labelKey(runId),
    mutationFn: async (write: LabelWrite): Promise<void> => {
      if (write.do === 'remove') await client.label.remove.mutate({ runId, nodeId: write.nodeId, label: write.label });
      else
        await client.label.set.mutate({
          runId,
          nodeId: write.nodeId,
          label: write.label,
          note: write.note ?? null,
          step: step(),
        });
    },
    onSuccess: refresh,
  });
}

/**
 * Why the page's latest label write on `nodeId` was refused (the server's words: another person's label, a label
 * not in the set, a deleted run), or null: it went through, or the latest write was on another node.
 */
export function useLabelProblem(runId: string, nodeId: string): string | null {
  const latest = useMutationState({
    filters: { mutationKey: labelKey(runId) },
    select: (mutation) => ({
      at: mutation.state.submittedAt,
      nodeId: (mutation.state.variables as LabelWrite | undefined)?.nodeId,
      error: mutation.state.error?.message ?? null,
    }),
  }).reduce<{ at: number; nodeId: string | undefined; error: string | null } | null>(
    (last, m) => (last === null || m.at >= last.at ? m : last),
    null,
  );
  return latest && latest.nodeId === nodeId ? latest.error : null;
}
