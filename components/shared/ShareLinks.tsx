'use client';
// What the share dialogs (a run's, an experiment's) have in common: the expiry field, the new link with Copy, and
// the list of links made (who made each, what the caller adds, when it expires, its state) with Copy and Revoke
// while it is active. Props only: the dialog fetches, creates and revokes.
// Not responsible for what a link opens or pins (the dialogs), nor for signing links (the server's shares router).
import type { ReactNode } from 'react';
import { shareLinkState, SHARE_DAYS, type parseShareDays } from '@/lib/forms/index';
import { CopyText } from './CopyText';
import { ListTable } from './ListTable';

const fullUrl = (path: string) => `${window.location.origin}${path}`;

/** The link's lifetime in days, with the bounds as its hint or the parse's error. */
export function ShareDaysField({
  id,
  days,
  parsed,
  onChange,
  autoFocus = false,
}: {
  id: string;
  days: string;
  parsed: ReturnType<typeof parseShareDays>;
  onChange: (days: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Expires after (days)</label>
      <input
        id={id}
        type="number"
        min={SHARE_DAYS.min}
        max={SHARE_DAYS.max}
        value={days}
        autoFocus={autoFocus}
        aria-invalid={!('days' in parsed) || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        data-testid="share-days"
      />
      <span className={'days' in parsed ? 'field-hint' : 'field-error'} id={`${id}-hint`}>
        {'days' in parsed ? `${SHARE_DAYS.min} to ${SHARE_DAYS.max}` : parsed.error}
      </span>
    </div>
  );
}

/** The link just made, whole, selectable, with Copy. */
export function MadeShareLink({ path }: { path: string }) {
  return (
    <div className="share-made" data-testid="share-made">
      <input
        className="input mono"
        readOnly
        value={fullUrl(path)}
        aria-label="The new link"
        data-testid="share-url"
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyText text={fullUrl(path)} testId="share-copy" />
    </div>
  );
}

export interface ListedShareLink {
  id: string;
  path: string;
  createdByName: string;
  expiresAt: Date | string;
  revokedAt: Date | string | null;
}

/** The links made, as a table; `extra` adds the caller's columns after "made by" (a run's: what it pins, prompts). */
export function ShareLinkTable<L extends ListedShareLink>({
  links,
  now,
  extra = { columns: [], cells: () => null },
  revoking,
  onRevoke,
}: {
  links: readonly L[];
  /** A link's state (expired) is read against this time: when the dialog opened. */
  now: number;
  extra?: { columns: readonly string[]; cells: (link: L) => ReactNode };
  revoking: boolean;
  onRevoke: (id: string) => void;
}) {
  return (
    <ListTable columns={['made by', ...extra.columns, 'expires', 'status']} testId="share-links">
      {links.map((link) => {
        const state = shareLinkState(link, now);
        return (
          <tr key={link.id} data-testid="share-link" data-state={state}>
            <td>{link.createdByName}</td>
            {extra.cells(link)}
            <td title={new Date(link.expiresAt).toLocaleString()}>{new Date(link.expiresAt).toLocaleDateString()}</td>
            <td>
              <span className={`share-state share-${state}`} data-testid="share-link-state">
                {state}
              </span>
            </td>
            <td>
              {state === 'active' && (
                <div className="share-actions">
                  <CopyText text={fullUrl(link.path)} testId="share-link-copy" small />
                  <button
                    type="button"
                    className="btn btn-sm btn-danger"
                    disabled={revoking}
                    onClick={() => onRevoke(link.id)}
                    data-testid="share-revoke"
                  >
                    Revoke
                  </button>
                </div>
              )}
            </td>
          </tr>
        );
      })}
    </ListTable>
  );
}
