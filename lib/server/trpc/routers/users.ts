/**
 * The `users` router (admins): list the team, add a person with a role and a first password, change a role,
 * disable or enable. Team mode only: local mode has no accounts.
 * Not responsible for hashing or the last-admin rule (lib/server/auth/users.ts).
 */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, roleSchema } from '../../../contract/access';
import { createUser, listUsers, updateUser } from '../../auth/users';
import { ConflictError } from '../../core/errors';
import type { Context } from '../context';
import { adminProcedure, router } from '../trpc';

function teamOnly(ctx: Context): void {
  if (!ctx.auth.team) throw new ConflictError('accounts exist in team mode only (start with ARBORIST_AUTH=1)');
}

export const usersRouter = router({
  list: adminProcedure.query(({ ctx }) => {
    teamOnly(ctx);
    return listUsers(ctx.prisma);
  }),

  create: adminProcedure
    .input(
      z.object({
        email: z.string().trim().max(200).pipe(z.email('an email address')),
        name: z.string().trim().max(80).optional(),
        role: roleSchema,
        password: z.string().min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`).max(500),
      }),
    )
    .mutation(({ ctx, input }) => {
      teamOnly(ctx);
      return createUser(ctx.prisma, input);
    }),

  update: adminProcedure
    .input(z.object({ id: z.string().min(1).max(100), role: roleSchema.optional(), disabled: z.boolean().optional() }))
    .mutation(({ ctx, input }) => {
      teamOnly(ctx);
      return updateUser(ctx.prisma, input.id, { role: input.role, disabled: input.disabled });
    }),
});
