'use client';
// The team's people, for admins: each with role and status (change the role, disable or enable), and a form to
// add a person with a role and a first password. The server's refusals (the last admin, an email in use) are
// shown in its own words. Not responsible for the rules (the server's users router).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { MIN_PASSWORD_LENGTH, ROLES, type Role } from '@/lib/contract/access';
import { useTRPC } from '@/lib/trpc/index';
import { ListTable } from '../shared/ListTable';
import { TextField } from '../shared/TextField';
import s from './Settings.module.css';

export function UsersPanel({ me }: { me: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const users = useQuery(trpc.users.list.queryOptions());
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.queryKey() });
  const update = useMutation(trpc.users.update.mutationOptions({ onSettled: invalidate }));
  return (
    <section className="panel" aria-labelledby="users-heading" data-testid="users-panel">
      <div className="panel-head">
        <h2 id="users-heading">People</h2>
        <span className="field-hint">admins manage people and keys · members start and steer runs · viewers read</span>
      </div>
      <div className={`panel-body ${s.stack}`}>
        <AddPerson onAdded={invalidate} />
        {update.error && (
          <p className="error-note" role="alert" data-testid="users-error">
            {update.error.message}
          </p>
        )}
        {users.isPending ? (
          <p className={s.muted}>Loading…</p>
        ) : users.isError ? (
          <p className="error-note">{users.error.message}</p>
        ) : (
          <ListTable columns={['email', 'name', 'role', 'status']} testId="users-table">
            {users.data.map((user) => {
              const disabled = user.disabledAt !== null;
              return (
                <tr
                  key={user.id}
                  className={disabled ? s.disabled : undefined}
                  data-testid="user-row"
                  data-email={user.email}
                >
                  <td>
                    {user.email}
                    {user.id === me && <span className={s.you}>you</span>}
                  </td>
                  <td>{user.name || <span className={s.muted}>—</span>}</td>
                  <td>
                    <select
                      className={s.role}
                      value={user.role}
                      aria-label={`Role of ${user.email}`}
                      disabled={update.isPending}
                      onChange={(e) => {
                        update.reset();
                        update.mutate({ id: user.id, role: e.target.value as Role });
                      }}
                      data-testid="user-role"
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-testid="user-status">{disabled ? 'disabled' : 'active'}</td>
                  <td className={s.actions}>
                    <button
                      type="button"
                      className={`btn btn-sm${disabled ? '' : ' btn-danger'}`}
                      disabled={update.isPending}
                      onClick={() => {
                        update.reset();
                        update.mutate({ id: user.id, disabled: !disabled });
                      }}
                      data-testid="user-toggle"
                    >
                      {disabled ? 'Enable' : 'Disable'}
                    </button>
                  </td>
                </tr>
              );
            })}
          </ListTable>
        )}
      </div>
    </section>
  );
}

function AddPerson({ onAdded }: { onAdded: () => void }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [password, setPassword] = useState('');
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: () => {
        setEmail('');
        setName('');
        setPassword('');
        onAdded();
      },
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ email: email.trim(), name: name.trim() || undefined, role, password });
  }
  return (
    <form onSubmit={submit} className={s.stack} data-testid="add-person" aria-label="Add a person">
      <div className={s.form}>
        <TextField
          id="person-email"
          label="Email"
          type="email"
          required
          autoComplete="off"
          value={email}
          onChange={setEmail}
        />
        <TextField id="person-name" label="Name (optional)" autoComplete="off" value={name} onChange={setName} />
        <div className="field">
          <label htmlFor="person-role">Role</label>
          <select id="person-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="person-password"
          label="First password"
          type="password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          autoComplete="new-password"
          placeholder={`${MIN_PASSWORD_LENGTH}+ characters`}
          value={password}
          onChange={setPassword}
        />
        <button type="submit" className="btn btn-primary" disabled={create.isPending} data-testid="add-person-submit">
          {create.isPending ? 'Adding…' : 'Add person'}
        </button>
      </div>
      {create.error && (
        <p className="error-note" role="alert" data-testid="add-person-error">
          {create.error.message}
        </p>
      )}
      {create.isSuccess && (
        <p className="field-hint" role="status" data-testid="add-person-done">
          Added {create.data.email} as {create.data.role}. Give them their first password in person.
        </p>
      )}
    </form>
  );
}
