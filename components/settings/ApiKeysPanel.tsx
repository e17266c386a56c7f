'use client';
// A signed-in person's API keys, for scripts (`Authorization: Bearer ak_...`): create one with a name (the key is
// shown once, with Copy and a warning that it will not be shown again), the list (name, prefix, created, last used;
// an admin sees everyone's, with the owner), revoke. Not responsible for hashing or checking keys (the server).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyText } from '../shared/CopyText';
import { ListTable } from '../shared/ListTable';
import { TextField } from '../shared/TextField';
import { useTRPC } from '@/lib/trpc/index';
import s from './Settings.module.css';

function when(date: Date | string | null): string {
  return date === null ? 'never' : new Date(date).toLocaleString();
}

export function ApiKeysPanel() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = useQuery(trpc.keys.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.keys.create.mutationOptions({
      onSuccess: () => setName(''),
      onSettled: invalidate,
    }),
  );
  const revoke = useMutation(trpc.keys.revoke.mutationOptions({ onSettled: invalidate }));
  const showOwner = keys.data?.some((key) => key.owner !== keys.data[0]?.owner) ?? false;
  // the origin is known in the browser only: the hint renders once the page is there
  const [origin] = useState(() => (typeof window === 'undefined' ? 'http://host' : window.location.origin));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name: name.trim() });
  }

  return (
    <section className="panel" aria-labelledby="keys-heading" data-testid="keys-panel">
      <div className="panel-head">
        <h2 id="keys-heading">My API keys</h2>
        <span className="field-hint">for scripts: a key acts as you, with your role</span>
      </div>
      <div className={`panel-body ${s.stack}`}>
        <form className={s.keyForm} onSubmit={submit} aria-label="Create an API key">
          <TextField
            id="key-name"
            label="Name"
            required
            maxLength={80}
            placeholder="what it is for, e.g. nightly export"
            value={name}
            onChange={setName}
          />
          <button type="submit" className="btn btn-primary" disabled={create.isPending} data-testid="key-create">
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
        </form>
        {create.error && (
          <p className="error-note" role="alert">
            {create.error.message}
          </p>
        )}
        {create.data && (
          <div className={s.newKey} data-testid="new-key" role="status">
            <p>
              <b>Copy this key now: it will not be shown again.</b> Only its first characters are kept for the list.
            </p>
            <div className={s.keyRow}>
              <code data-testid="new-key-value">{create.data.key}</code>
              <CopyText text={create.data.key} testId="new-key-copy" />
            </div>
          </div>
        )}
        <pre className={`mono ${s.usage}`} data-testid="key-usage">
          {`curl -H "Authorization: Bearer ak_..." ${origin}/api/runs/<id>/events.ndjson`}
        </pre>
        {revoke.error && (
          <p className="error-note" role="alert">
            {revoke.error.message}
          </p>
        )}
        {keys.isPending ? (
          <p className={s.muted}>Loading…</p>
        ) : keys.isError ? (
          <p className="error-note">{keys.error.message}</p>
        ) : keys.data.length === 0 ? (
          <p className={s.muted}>No keys yet.</p>
        ) : (
          <ListTable columns={['name', showOwner && 'owner', 'prefix', 'created', 'last used']} testId="keys-table">
            {keys.data.map((key) => (
              <tr
                key={key.id}
                className={key.revokedAt ? s.disabled : undefined}
                data-testid="key-row"
                data-name={key.name}
              >
                <td>{key.name}</td>
                {showOwner && <td>{key.owner}</td>}
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{when(key.createdAt)}</td>
                <td>{when(key.lastUsedAt)}</td>
                <td className={s.actions}>
                  {key.revokedAt ? (
                    <span className={s.muted}>revoked</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-sm btn-danger"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate({ id: key.id })}
                      data-testid="key-revoke"
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </div>
    </section>
  );
}
