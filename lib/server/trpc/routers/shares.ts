/**
 * The `shares` router: read-only links to one run. Whoever may share the run (its owner, an admin, the local person)
 * makes a link pinned to a step and node if they like, with an expiry and whether whole prompts go with it; lists
 * the run's links with their URLs (a link's token is its id signed, so it can be shown again); revokes one.
 * Not responsible for signing or resolving tokens (lib/server/auth/share-links.ts) nor for opening a link
 * (app/share/[token]/route.ts).
 */
import { z } from 'zod';
import { createShareLink, getShareLink, listShareLinks, MAX_SHARE_DAYS, revokeShareLink } from '../../auth/share-links';
import { signShareToken } from '../../auth/tokens';
import { emailsByUserId } from '../../auth/users';
import { NotFoundError } from '../../core/errors';
import { runFor } from '../run-access';
import { router, signedInProcedure } from '../trpc';

export const SHARE_PATH = '/share/';

export const sharesRouter = router({
  create: signedInProcedure
    .input(
      z.object({
        runId: z.string().min(1).max(100),
        step: z.number().int().min(0).nullish(),
        nodeId: z.string().min(1).max(100).nullish(),
        expiresInDays: z.number().int().min(1).max(MAX_SHARE_DAYS).default(7),
        allowPrompts: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await runFor(ctx, input.runId, 'share');
      const createdBy = ctx.who.kind === 'user' ? ctx.who.id : 'local';
      const { token, record } = await createShareLink(ctx.prisma, ctx.auth.secret, { ...input, createdBy });
      return { ...record, path: `${SHARE_PATH}${token}` };
    }),

  list: signedInProcedure.input(z.object({ runId: z.string().min(1).max(100) })).query(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'share');
    const links = await listShareLinks(ctx.prisma, input.runId);
    const emails = await emailsByUserId(
      ctx.prisma,
      links.map((link) => link.createdBy),
    );
    return links.map((link) => ({
      ...link,
      createdByName: emails.get(link.createdBy) ?? (link.createdBy === 'local' ? 'you' : 'a deleted user'),
      path: `${SHARE_PATH}${signShareToken(ctx.auth.secret, link.id)}`,
    }));
  }),

  revoke: signedInProcedure.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    const link = await getShareLink(ctx.prisma, input.id);
    if (!link) throw new NotFoundError(`no share link ${input.id}`);
    await runFor(ctx, link.runId, 'share');
    await revokeShareLink(ctx.prisma, input.id);
    return { ok: true as const };
  }),
});
