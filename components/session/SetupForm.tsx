'use client';
// /setup: the first admin of a team server, made with the one-time code the server printed in its log (so only
// whoever can read that log can claim the server). Useful only while no user exists (auth.me's setupNeeded);
// afterwards it points to sign-in. Not responsible for checking the code (the server's auth router).
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH } from '@/lib/contract/access';
import { useTRPC } from '@/lib/trpc/index';
import { TextField } from '../shared/TextField';
import { useSession } from './useSession';
import s from './AuthCard.module.css';

export function SetupForm() {
  const trpc = useTRPC();
  const { mode, setupNeeded } = useSession();
  const [code, setCode] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const setup = useMutation(trpc.auth.setup.mutationOptions({ onSuccess: () => window.location.assign('/') }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setup.mutate({ code: code.trim(), email: email.trim(), name: name.trim() || undefined, password });
  }

  if (mode !== null && !setupNeeded) {
    return (
      <main className={s.page}>
        <div className={s.card} data-testid="setup-done">
          <h1>Set up Arborist</h1>
          <p className={s.lead}>
            {mode === 'local'
              ? 'This server runs without accounts (local mode): there is nothing to set up.'
              : 'This server has its first admin already.'}{' '}
            <Link href={mode === 'local' ? '/' : '/signin'}>{mode === 'local' ? 'Open the runs' : 'Sign in'}</Link>.
          </p>
        </div>
      </main>
    );
  }

  return (
    <main className={s.page}>
      <form className={s.card} onSubmit={submit} data-testid="setup-form" aria-labelledby="setup-title">
        <h1 id="setup-title">Set up Arborist</h1>
        <p className={s.lead}>
          Make the first admin of this server. The setup code is in the server&apos;s log (&ldquo;Open /setup and enter
          the code …&rdquo;).
        </p>
        <TextField
          id="setup-code"
          label="Setup code"
          required
          autoFocus
          autoComplete="one-time-code"
          spellCheck={false}
          value={code}
          onChange={setCode}
        />
        <TextField
          id="setup-email"
          label="Email"
          type="email"
          required
          autoComplete="username"
          value={email}
          onChange={setEmail}
        />
        <TextField id="setup-name" label="Name (optional)" autoComplete="name" value={name} onChange={setName} />
        <TextField
          id="setup-password"
          label="Password"
          type="password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          autoComplete="new-password"
          hint={<>At least {MIN_PASSWORD_LENGTH} characters.</>}
          value={password}
          onChange={setPassword}
        />
        {setup.error && (
          <p className={`error-note ${s.error}`} role="alert" data-testid="setup-error">
            {setup.error.message}
          </p>
        )}
        <button type="submit" className={`btn btn-primary ${s.submit}`} disabled={setup.isPending || setup.isSuccess}>
          {setup.isPending || setup.isSuccess ? 'Setting up…' : 'Make the admin and sign in'}
        </button>
      </form>
    </main>
  );
}
