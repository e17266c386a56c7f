'use client';
// /signin: email and password, then back to where the person was going (`?next=`, this site's paths only:
// lib/forms safeNextPath). `?link=gone` says the share link they opened no longer works. The server's words
// (wrong email or password, too many tries) are shown as they are.
// Not responsible for sessions or throttling (the server's auth router).
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { safeNextPath } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import { TextField } from '../shared/TextField';
import { useSession } from './useSession';
import s from './AuthCard.module.css';

export function SignInForm() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const linkGone = params.get('link') === 'gone';
  const { mode, setupNeeded } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation(
    trpc.auth.signIn.mutationOptions({
      // a full load: the page's queries start again as the person now signed in
      onSuccess: () => window.location.assign(next),
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn.mutate({ email: email.trim(), password });
  }

  return (
    <main className={s.page}>
      <form className={s.card} onSubmit={submit} data-testid="signin-form" aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Arborist</h1>
        {linkGone && (
          <p className={s.note} role="status" data-testid="link-gone">
            That share link no longer works: it has expired or was revoked. Ask whoever sent it for a new one, or sign
            in if you have an account.
          </p>
        )}
        {mode === 'local' ? (
          <p className={s.lead} data-testid="signin-local">
            This server runs without accounts (local mode): there is nothing to sign in to.{' '}
            <Link href="/">Open the runs</Link>.
          </p>
        ) : (
          <>
            <TextField
              id="signin-email"
              label="Email"
              type="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={setEmail}
            />
            <TextField
              id="signin-password"
              label="Password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
            />
            {signIn.error && (
              <p className={`error-note ${s.error}`} role="alert" data-testid="signin-error">
                {signIn.error.message}
              </p>
            )}
            <button
              type="submit"
              className={`btn btn-primary ${s.submit}`}
              disabled={signIn.isPending || signIn.isSuccess}
            >
              {signIn.isPending || signIn.isSuccess ? 'Signing in…' : 'Sign in'}
            </button>
            <p className={s.foot}>
              {setupNeeded ? (
                <>
                  No one has an account yet: <Link href="/setup">set up the first admin</Link>.
                </>
              ) : (
                'Accounts are made by an admin of this server.'
              )}
            </p>
          </>
        )}
      </form>
    </main>
  );
}
