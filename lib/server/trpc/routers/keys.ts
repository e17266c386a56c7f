/**
 * The `keys` router: a signed-in user's API keys (for scripts: `Authorization: Bearer ak_...`). Create shows the key
 * once; list shows names and prefixes; revoke ends one. Admins see and revoke everyone's.
 * Not responsible for hashing or checking keys (lib/server/auth/api-keys.ts).
 */
import { z } from 'zod';
import { createApiKey, listApiKeys, revokeApiKey } from '../../auth/api-keys';
import { emailsByUserId } from '../../auth/users';
import { router, userProcedure } from '../trpc';

export const keysRouter = router({
  list: userProcedure.query(async ({ ctx }) => {
    const keys = await listApiKeys(ctx.prisma, ctx.user.role === 'admin' ? null : ctx.user.id);
    const emails = await emailsByUserId(
      ctx.prisma,
      keys.map((key) => key.userId),
    );
    return keys.map((key) => ({ ...key, owner: emails.get(key.userId) ?? ctx.user.email }));
  }),

  create: userProcedure
    .input(z.object({ name: z.string().trim().min(1, 'name the key').max(80) }))
    .mutation(async ({ ctx, input }) => {
      const { key, record } = await createApiKey(ctx.prisma, ctx.user.id, input.name);
      return { key, record };
    }),

  revoke: userProcedure.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    await revokeApiKey(ctx.prisma, input.id, ctx.user.role === 'admin' ? null : ctx.user.id);
    return { ok: true as const };
  }),
});
