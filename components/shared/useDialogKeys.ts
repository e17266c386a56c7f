'use client';
// What every dialog (the run page's key help, fork, prune question, share; the experiment page's share) does with keys and focus: Escape closes it
// wherever focus is, captured before the page's keys so it does not also clear the selection (a click on a dialog's
// text moves focus out of its controls); with `pageKeysInert`, every other key is kept from the page's handlers too
// while it is open (a second slip must not act; a control's own Enter or space still presses it, being its default
// action); and focus goes back where it was when the dialog closes.
// Not responsible for what a dialog shows, or where its focus starts (autoFocus on its first control does that).
import { useEffect, useState } from 'react';

export function useDialogKeys(onClose: () => void, { pageKeysInert = false }: { pageKeysInert?: boolean } = {}): void {
  // where focus was before the dialog opened: read while rendering, before autoFocus moves it
  const [returnTo] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  useEffect(
    () => () => {
      if (returnTo instanceof HTMLElement) returnTo.focus();
    },
    [returnTo],
  );
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (pageKeysInert) event.stopPropagation();
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      event.preventDefault();
      onClose();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [onClose, pageKeysInert]);
}
