'use client';
// A person's commands on a run (pause, resume, step, abort, prune, expand, its breakpoints) as mutations, shared by
// the header, the context menu, the breakpoints panel and the keyboard. Prune and expand show on the node at once
// (pending) until the log has them. setBreakpoints sends the run's whole list, and resolves once the server took it
// (a resume that must follow it is sent after, so the run never resumes under the old list).
import type { Breakpoint } from '@/lib/contract/breakpoints';
import { useMutation } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc/index';
import { useRunStoreApi } from '../page/RunStoreContext';

export function useRunCommands(runId: string) {
  const trpc = useTRPC();
  const store = useRunStoreApi();
  const pause = useMutation(trpc.run.pause.mutationOptions());
  const resume = useMutation(trpc.run.resume.mutationOptions());
  const step = useMutation(trpc.run.step.mutationOptions());
  const abort = useMutation(trpc.run.abort.mutationOptions());
  const prune = useMutation(
    trpc.node.prune.mutationOptions({
      onMutate: ({ nodeId }) => store.getState().markPending(nodeId, 'prune'),
      onError: (_error, { nodeId }) => store.getState().markPending(nodeId, null),
    }),
  );
  const expand = useMutation(
    trpc.node.expand.mutationOptions({
      onMutate: ({ nodeId }) => store.getState().markPending(nodeId, 'expand'),
      onError: (_error, { nodeId }) => store.getState().markPending(nodeId, null),
    }),
  );
  const breakpoints = useMutation(trpc.run.setBreakpoints.mutationOptions());
  const all = [pause, resume, step, abort, prune, expand, breakpoints];
  const latestError = all
    .filter((m) => m.error)
    .sort((a, b) => b.failureCount - a.failureCount || (b.submittedAt ?? 0) - (a.submittedAt ?? 0))[0]?.error;
  return {
    pause: () => pause.mutate({ id: runId }),
    resume: () => resume.mutate({ id: runId }),
    step: () => step.mutate({ id: runId }),
    abort: () => abort.mutate({ id: runId }),
    prune: (nodeId: string) => prune.mutate({ runId, nodeId }),
    expand: (nodeId: string) => expand.mutate({ runId, nodeId }),
    setBreakpoints: async (list: readonly Breakpoint[]) => {
      await breakpoints.mutateAsync({ id: runId, breakpoints: [...list] });
    },
    breakpointsError: breakpoints.error?.message ?? null,
    busy: pause.isPending || resume.isPending || step.isPending || abort.isPending,
    error: latestError?.message ?? null,
    clearError: () => all.forEach((m) => m.reset()),
  };
}

export type RunCommands = ReturnType<typeof useRunCommands>;
