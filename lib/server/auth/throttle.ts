/**
 * Sign-in attempts per email: after MAX_FAILURES wrong passwords in WINDOW_MS, that email is refused until the window
 * passes, so a password cannot be guessed at the speed of the network. In memory (one process; a restart forgets).
 * Not responsible for checking passwords (users.ts).
 */
import { TooManyError } from '../core/errors';

const MAX_FAILURES = 10;
const WINDOW_MS = 10 * 60_000;

const failures = new Map<string, number[]>();

function recent(email: string, now: number): number[] {
  const list = (failures.get(email) ?? []).filter((t) => now - t < WINDOW_MS);
  if (list.length) failures.set(email, list);
  else failures.delete(email);
  return list;
}

export function assertMayTry(email: string, now = Date.now()): void {
  if (recent(email, now).length >= MAX_FAILURES) {
    throw new TooManyError('too many wrong passwords for this email: wait ten minutes and try again');
  }
}

export function recordFailure(email: string, now = Date.now()): void {
  failures.set(email, [...recent(email, now), now]);
}

export function clearFailures(email: string): void {
  failures.delete(email);
}
