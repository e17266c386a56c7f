'use client';
// Who is at this page, and which mode the server is in: auth.me, read once per page load (a sign-in or sign-out
// reloads the page, so it never goes stale in between). Every component that leaves out a control reads it here,
// then asks lib/store's permissions (the one rule table of lib/contract/access.ts) what to show.
// Not responsible for the rules, nor for signing in (SignInForm) or redirecting (SessionBar).
import { useQuery } from '@tanstack/react-query';
import type { Principal } from '@/lib/contract/access';
import { useTRPC } from '@/lib/trpc/index';

export interface Session {
  /** null until the server has answered. */
  mode: 'local' | 'team' | null;
  /** null until the server has answered: nothing is allowed yet. */
  who: Principal | null;
  setupNeeded: boolean;
}

export function useSession(): Session {
  const trpc = useTRPC();
  const me = useQuery({ ...trpc.auth.me.queryOptions(), staleTime: Infinity, gcTime: Infinity });
  return {
    mode: me.data?.mode ?? null,
    who: me.data?.who ?? null,
    setupNeeded: me.data?.setupNeeded ?? false,
  };
}
