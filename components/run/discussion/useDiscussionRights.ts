'use client';
// Who may do what in the run's discussion, for the controls to leave out what the person could not use: write
// (comment, reply, label: `allowed.discuss`, members, admins and the local person; never a viewer or a share link's
// holder) and change a writing (edit: its author; delete: its author or an admin; the local person wrote everything in
// local mode), asked of the one rule table (lib/contract/access.ts canChangeWriting). Also the time, to the minute,
// that "5 min ago" is counted from (one timer for the whole page).
// Not responsible for enforcing anything: the server refuses whatever a page might still send.
import { useCallback, useSyncExternalStore } from 'react';
import { canChangeWriting } from '@/lib/contract/access';
import { useSession } from '@/components/session/useSession';
import { useRunAccess } from '../page/RunAccess';

export interface DiscussionRights {
  /** Comment, reply and label. */
  write: boolean;
  /** Edit or delete this comment (or take off this label). */
  mayChange: (writing: { author: { id: string | null } }, change: 'edit' | 'delete') => boolean;
}

export function useDiscussionRights(): DiscussionRights {
  const { discuss } = useRunAccess();
  const { who } = useSession();
  const mayChange = useCallback(
    (writing: { author: { id: string | null } }, change: 'edit' | 'delete') =>
      discuss && who !== null && canChangeWriting(who, writing, change),
    [discuss, who],
  );
  return { write: discuss, mayChange };
}

const minuteListeners = new Set<() => void>();
let minuteTimer: ReturnType<typeof setInterval> | null = null;
let minuteNow = 0;

function subscribeMinute(listener: () => void) {
  minuteListeners.add(listener);
  if (minuteTimer === null) {
    minuteNow = Date.now();
    minuteTimer = setInterval(() => {
      minuteNow = Date.now();
      for (const l of minuteListeners) l();
    }, 30_000);
  }
  return () => {
    minuteListeners.delete(listener);
    if (minuteListeners.size === 0 && minuteTimer !== null) {
      clearInterval(minuteTimer);
      minuteTimer = null;
    }
  };
}

function minuteSnapshot(): number {
  if (minuteNow === 0) minuteNow = Date.now();
  return minuteNow;
}

/** Now (ms), moved on every half minute while something shows a time. */
export function useNow(): number {
  return useSyncExternalStore(subscribeMinute, minuteSnapshot, () => 0);
}
