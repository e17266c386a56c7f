'use client';
// What the person here may do to this run, for every part of the run page: the header's commands, share and
// export, the canvas menu, the keys, the inspector's commands and whole prompts. Read once per page from who is
// here (auth.me) and the run's record (its owner), through the one rule table (lib/contract/access.ts, via
// lib/store runPermissions). A control the person may not use is left out, not disabled.
// Not responsible for the rules, nor for enforcing them (the server refuses whatever the page might still send).
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import { useSession } from '@/components/session/useSession';
import { runPermissions, type RunPermissions } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';

const NOTHING: RunPermissions = {
  read: false,
  readPrompts: false,
  steer: false,
  fork: false,
  discuss: false,
  share: false,
  delete: false,
};

// outside a provider nothing is allowed: a control shows only where a page said who may use it
const RunAccessContext = createContext<RunPermissions>(NOTHING);

/** The permissions of the person here on `runId` (the run's record is the same query the header reads). */
export function useRunPermissions(runId: string): RunPermissions {
  const trpc = useTRPC();
  const { who } = useSession();
  const record = useQuery(trpc.run.byId.queryOptions({ id: runId }));
  return runPermissions(who, runId, record.data ?? null);
}

export function RunAccessProvider({ runId, children }: { runId: string; children: ReactNode }) {
  const allowed = useRunPermissions(runId);
  return <RunAccessContext.Provider value={allowed}>{children}</RunAccessContext.Provider>;
}

export function useRunAccess(): RunPermissions {
  return useContext(RunAccessContext);
}
