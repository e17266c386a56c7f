/**
 * The `auth` router: who am I (and which mode the server is in), sign in, sign out, and the one-time setup of the
 * first admin. Sign-in and setup set the session cookie on the response.
 * Not responsible for passwords, sessions or the setup code themselves (lib/server/auth).
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../../../contract/access';
import { clearCookieHeader, readCookie, SESSION_COOKIE, setCookieHeader } from '../../auth/cookies';
import { createSession, deleteSession } from '../../auth/sessions';
import { completeSetup, setupNeeded } from '../../auth/setup';
import { clearSignInAttempts, takeSignInAttempt } from '../../auth/throttle';
import { checkPassword, normalizeEmail } from '../../auth/users';
import { UnauthorizedError } from '../../core/errors';
import type { Context } from '../context';
import { publicProcedure, router } from '../trpc';

const emailInput = z.string().trim().max(200).pipe(z.email('an email address'));
const passwordInput = z.string().min(1, 'the password').max(500);

async function startSession(ctx: Context, userId: string): Promise<void> {
  const { token, expiresAt } = await createSession(ctx.prisma, userId);
  ctx.resHeaders?.append('set-cookie', setCookieHeader(SESSION_COOKIE, token, expiresAt, ctx.secure));
}

export const authRouter = router({
  me: publicProcedure.query(async ({ ctx }) => ({
    mode: ctx.auth.team ? ('team' as const) : ('local' as const),
    // a Principal holds no token or hash: it is what the browser may know about who it is
    who: ctx.who,
    setupNeeded: ctx.auth.team && ctx.who.kind === 'anonymous' ? await setupNeeded(ctx.prisma) : false,
  })),

  signIn: publicProcedure
    .input(z.object({ email: emailInput, password: passwordInput }))
    .mutation(async ({ ctx, input }) => {
      if (!ctx.auth.team) return { ok: true as const };
      const email = normalizeEmail(input.email);
      // counted before the password is checked (a wrong one stays counted): throttle.ts says why
      await takeSignInAttempt(ctx.prisma, email);
      const user = await checkPassword(ctx.prisma, email, input.password);
      if (!user) throw new UnauthorizedError('wrong email or password');
      await clearSignInAttempts(ctx.prisma, email);
      await startSession(ctx, user.id);
      return { ok: true as const };
    }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    const token = ctx.requestHeaders ? readCookie(ctx.requestHeaders, SESSION_COOKIE) : null;
    if (token) await deleteSession(ctx.prisma, token);
    ctx.resHeaders?.append('set-cookie', clearCookieHeader(SESSION_COOKIE, ctx.secure));
    return { ok: true as const };
  }),

  setup: publicProcedure
    .input(
      z.object({
        code: z.string().min(1).max(40),
        email: emailInput,
        name: z.string().trim().max(80).optional(),
        password: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(500),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const user = await completeSetup(ctx.prisma, ctx.auth.secret, input.code, input);
      await startSession(ctx, user.id);
      return { ok: true as const };
    }),
});
