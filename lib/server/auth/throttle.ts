/**
 * Sign-in attempts per email: after MAX_FAILURES wrong passwords in a window of WINDOW_MS, that email is refused until
 * the window has passed, so a password cannot be guessed at the speed of the network. In the database (a
 * SignInThrottle row per email), so every instance of a cluster counts the same attempts and a restart forgets none.
 * Not responsible for checking passwords (users.ts).
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';
import { TooManyError } from '../core/errors';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 10 * 60_000;

/**
 * Counts an attempt at `email`'s password before it is checked, or throws TooManyError when MAX_FAILURES are counted
 * in the email's window. The attempt stays counted when the password is wrong; a right one clears the email.
 *
 * One statement, so two instances cannot both pass the tenth: an upsert on the email's row whose update applies only
 * while the window has room (or has lapsed, which starts a new one) and returns the row only when it applied. On
 * PostgreSQL, INSERT ... ON CONFLICT DO UPDATE locks the row and judges its WHERE on the newest committed version, so
 * concurrent attempts queue on the row and each sees the count the one before left (a first attempt racing another
 * first attempt waits on the primary key, then takes the update path); SQLite runs one write at a time. Counting
 * before the check, not after a failure, is what makes it a single statement: a check then a later write would let
 * every attempt in flight pass the same ninth count.
 *
 * The window is fixed from its first attempt (a counter row, not a row per failure): at most MAX_FAILURES per window.
 */
export async function takeSignInAttempt(db: Db, email: string, now = new Date()): Promise<void> {
  const lapsed = new Date(now.getTime() - WINDOW_MS);
  const taken = await db.$queryRaw<{ attempts: number }[]>(Prisma.sql`
    INSERT INTO "SignInThrottle" ("email", "attempts", "windowStartedAt") VALUES (${email}, 1, ${now})
    ON CONFLICT ("email") DO UPDATE SET
      "attempts" = CASE WHEN "SignInThrottle"."windowStartedAt" <= ${lapsed} THEN 1
                        ELSE "SignInThrottle"."attempts" + 1 END,
      "windowStartedAt" = CASE WHEN "SignInThrottle"."windowStartedAt" <= ${lapsed} THEN ${now}
                               ELSE "SignInThrottle"."windowStartedAt" END
    WHERE "SignInThrottle"."windowStartedAt" <= ${lapsed} OR "SignInThrottle"."attempts" < ${MAX_FAILURES}
    RETURNING "attempts"`);
  if (taken.length === 0) {
    throw new TooManyError('too many wrong passwords for this email: wait ten minutes and try again');
  }
}

/**
 * A right password: the email starts afresh. The same statement deletes every other email's lapsed window, so rows of
 * emails that only ever failed do not pile up (no timer needed: people sign in often enough).
 */
export async function clearSignInAttempts(db: Db, email: string, now = new Date()): Promise<void> {
  const lapsed = new Date(now.getTime() - WINDOW_MS);
  await db.$executeRaw`DELETE FROM "SignInThrottle" WHERE "email" = ${email} OR "windowStartedAt" <= ${lapsed}`;
}
