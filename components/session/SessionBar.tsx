'use client';
// The top bar's right end, by who is here. Team mode: the signed-in person (email, role), a link to /settings and
// Sign out; a share link's holder, a "Shared with you · read only" mark; nobody, a redirect to /signin that comes
// back to this page afterwards, also when a session ends or a share link is revoked while the page is open (a query
// answered UNAUTHORIZED asks auth.me again). Local mode shows nothing new. Not responsible for the rules (useSession,
// lib/store).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { isPublicPath, signInPath } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import { useSession } from './useSession';

export function SessionBar() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const { mode, who, setupNeeded } = useSession();
  const nobody = mode === 'team' && who?.kind === 'anonymous';
  const queryClient = useQueryClient();
  useEffect(() => {
    if (mode !== 'team' || who?.kind === 'anonymous') return;
    const meKey = trpc.auth.me.queryKey();
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      const error = event.action.error;
      if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED') {
        void queryClient.invalidateQueries({ queryKey: meKey });
      }
    });
  }, [mode, who, queryClient, trpc]);
  useEffect(() => {
    if (!nobody || isPublicPath(pathname)) return;
    // the first start of a team server has no admin yet: setup, not sign-in, is the way in
    router.replace(setupNeeded ? '/setup' : signInPath(pathname, window.location.search));
  }, [nobody, setupNeeded, pathname, router]);
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      // a full load: every query of the page was asked as the person who just left
      onSettled: () => window.location.assign('/signin'),
    }),
  );
  if (mode !== 'team' || who === null) return null;
  if (who.kind === 'share') {
    return (
      <div className="session" data-testid="session">
        <span
          className="session-shared"
          data-testid="shared-mark"
          title="You opened a share link: you can read this run, not change it"
        >
          Shared with you · read only
        </span>
      </div>
    );
  }
  if (who.kind !== 'user') return null;
  return (
    <div className="session" data-testid="session">
      <span className="session-who" title={who.name ? `${who.name} <${who.email}>` : who.email}>
        <span data-testid="session-email">{who.email}</span>
        <span className="session-role" data-testid="session-role">
          {who.role}
        </span>
      </span>
      <Link href="/settings" className="btn btn-sm" data-testid="settings-link">
        Settings
      </Link>
      <button
        type="button"
        className="btn btn-sm"
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
        data-testid="sign-out"
      >
        {signOut.isPending ? 'Signing out…' : 'Sign out'}
      </button>
    </div>
  );
}
