// The sign-in throttle on real SQLite and real PostgreSQL: ten attempts per email in a window, the eleventh refused
// until the window has passed; a success clears the email (and sweeps lapsed windows); twenty attempts at once let
// exactly ten through, because taking one is a single statement on the email's row.
import { describe, expect, it } from 'vitest';
import { TooManyError } from '../core/errors';
import { BACKENDS, sharedTestDb } from '../testing/db';
import { clearSignInAttempts, MAX_FAILURES, takeSignInAttempt, WINDOW_MS } from './throttle';

const outcome = (attempt: Promise<void>) =>
  attempt.then(
    () => 'taken',
    (error: unknown) => (error instanceof TooManyError ? 'refused' : `failed: ${String(error)}`),
  );

describe.each(BACKENDS)('the sign-in throttle (%s)', (backend) => {
  const t = sharedTestDb(backend);
  const start = new Date('2026-12-07T12:00:00.000Z');
  const at = (ms: number) => new Date(start.getTime() + ms);

  it(`takes ${MAX_FAILURES} attempts for an email in a window, refuses the next, and takes again once it has passed`, async () => {
    const email = 'someone@team.test';
    for (let i = 0; i < MAX_FAILURES; i++)
      expect(await outcome(takeSignInAttempt(t.prisma, email, at(i * 1000)))).toBe('taken');
    expect(await outcome(takeSignInAttempt(t.prisma, email, at(60_000)))).toBe('refused');
    expect(await outcome(takeSignInAttempt(t.prisma, email, at(WINDOW_MS - 1)))).toBe('refused');
    // another email has its own count
    expect(await outcome(takeSignInAttempt(t.prisma, 'other@team.test', at(60_000)))).toBe('taken');
    expect(await outcome(takeSignInAttempt(t.prisma, email, at(WINDOW_MS)))).toBe('taken');
    expect(await t.prisma.signInThrottle.findUnique({ where: { email } })).toEqual({
      email,
      attempts: 1,
      windowStartedAt: at(WINDOW_MS),
    });
  });

  it("a success clears the email's count, and sweeps other emails' lapsed windows but not live ones", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) await takeSignInAttempt(t.prisma, 'me@team.test', start);
    await takeSignInAttempt(t.prisma, 'lapsed@team.test', start);
    await takeSignInAttempt(t.prisma, 'live@team.test', at(WINDOW_MS - 1));
    await clearSignInAttempts(t.prisma, 'me@team.test', at(WINDOW_MS));
    const rows = await t.prisma.signInThrottle.findMany({ select: { email: true } });
    expect(rows.map((r) => r.email)).toEqual(['live@team.test']);
    expect(await outcome(takeSignInAttempt(t.prisma, 'me@team.test', at(WINDOW_MS)))).toBe('taken');
  });

  it(`twenty attempts at once for one email: exactly ${MAX_FAILURES} are taken`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => outcome(takeSignInAttempt(t.prisma, 'many@team.test', start))),
    );
    expect(outcomes.filter((o) => o === 'taken')).toHaveLength(MAX_FAILURES);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(20 - MAX_FAILURES);
  });
});
