'use client';
// What the person here may ask of this run now, and why not, for every steering control of the run page (header,
// canvas menu, inspector, keys): the page's facts gathered once (who may steer: RunAccess; the run's status: its
// record, then the live tree; whether a client of its own runs the search and which commands it takes) and handed
// to the one decision, lib/store's steerBlock. Not responsible for the rules (lib/store/node-commands.ts,
// lib/contract/steering.ts) nor for sending (useRunCommands.ts).
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { steeringUnavailable } from '@/lib/contract/steering';
import type { SteerKind } from '@/lib/contract/vocabulary';
import { runStatus, steerBlock, type SteerContext, type SteerTarget } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { useRunAccess } from '../page/RunAccess';
import { useRunStore } from '../page/RunStoreContext';
import { hasEnded } from '@/lib/contract/run-status';

export interface Steering {
  /** The facts the decision reads. */
  context: SteerContext;
  /** Why `kind` cannot be asked now (of `node`, for prune and expand), or null when it can. */
  why: (kind: SteerKind, node?: SteerTarget) => string | null;
  /**
   * Set when no command can reach this run's search at all (its client listens for none) while it has not ended:
   * said instead of buttons.
   */
  unavailable: string | null;
  /** A search Arborist does not run: a command is a request its client answers, not an order. */
  external: boolean;
}

export function useSteering(): Steering {
  const trpc = useTRPC();
  const runId = useRunStore((s) => s.runId);
  const { steer } = useRunAccess();
  // the same query (and cache entry) as the header's: commands act on the run as it is now, not the step on screen
  const record = useQuery(trpc.run.byId.queryOptions({ id: runId })).data ?? null;
  const liveStatus = useRunStore((s) => s.liveStatus);
  const lastSeq = useRunStore((s) => s.lastSeq);
  const external = useRunStore((s) => s.tree.external);
  const agentName = useRunStore((s) => s.tree.agentName);
  const status = runStatus(record, liveStatus === null ? null : { status: liveStatus, lastSeq });
  const context = useMemo<SteerContext>(
    () => ({ allowed: steer, status, external, agentName }),
    [steer, status, external, agentName],
  );
  const why = useCallback((kind: SteerKind, node?: SteerTarget) => steerBlock(kind, context, node), [context]);
  return {
    context,
    why,
    // a run that has ended takes no command from anyone: its controls say so, not that its client never listened
    unavailable: hasEnded(status) ? null : steeringUnavailable(external, agentName),
    external: external !== null,
  };
}
