/**
 * The `shares` router: read-only links to one run (or one experiment: its page and its cells' runs). Whoever may share the run (its owner, an admin, the local person)
 * makes a link pinned to a step and node if they like, with an expiry and whether whole prompts go with it; lists
 * the run's links with their URLs (a link's token is its id signed, so it can be shown again); revokes one.
 * Not responsible for signing or resolving tokens (lib/server/auth/share-links.ts) nor for opening a link
 * (app/share/[token]/route.ts).
 */
import { z } from 'zod';
import { canShareExperiment } from '../../../contract/access';
import {
  createExperimentShareLink,
  createShareLink,
  getExperimentShareLink,
  getShareLink,
  listExperimentShareLinks,
  listShareLinks,
  MAX_SHARE_DAYS,
  revokeExperimentShareLink,
  revokeShareLink,
} from '../../auth/share-links';
import { signShareToken } from '../../auth/tokens';
import { emailsByUserId } from '../../auth/users';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import type { Context } from '../context';
import { runFor } from '../../auth/run-access';
import { router, signedInProcedure } from '../trpc';

export const SHARE_PATH = '/share/';

/** An experiment the caller may share (its maker, an admin, the local person); NOT_FOUND / FORBIDDEN otherwise. */
async function experimentToShare(ctx: Context, experimentId: string) {
  const experiment = await ctx.experiments.record(experimentId);
  if (!experiment) throw new NotFoundError(`no experiment ${experimentId}`);
  if (!canShareExperiment(ctx.who, experiment))
    throw new ForbiddenError('you may not share this experiment (members may share their own)');
  return experiment;
}

/** Links as the dialogs list them: with their maker's name and their URL (a token is the id signed: shown again). */
async function listed<L extends { id: string; createdBy: string }>(ctx: Context, links: readonly L[]) {
  const emails = await emailsByUserId(
    ctx.prisma,
    links.map((link) => link.createdBy),
  );
  return links.map((link) => ({
    ...link,
    createdByName: emails.get(link.createdBy) ?? (link.createdBy === 'local' ? 'you' : 'a deleted user'),
    path: `${SHARE_PATH}${signShareToken(ctx.auth.secret, link.id)}`,
  }));
}

const experimentIdInput = z.object({ experimentId: z.string().min(1).max(100) });

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
    return listed(ctx, links);
  }),

  revoke: signedInProcedure.input(z.object({ id: z.string().min(1).max(100) })).mutation(async ({ ctx, input }) => {
    const link = await getShareLink(ctx.prisma, input.id);
    if (link) {
      await runFor(ctx, link.runId, 'share');
      await revokeShareLink(ctx.prisma, input.id);
      return { ok: true as const };
    }
    const experimentLink = await getExperimentShareLink(ctx.prisma, input.id);
    if (!experimentLink) throw new NotFoundError(`no share link ${input.id}`);
    await experimentToShare(ctx, experimentLink.experimentId);
    await revokeExperimentShareLink(ctx.prisma, input.id);
    return { ok: true as const };
  }),

  /** A read-only link to an experiment: its page and the runs that are its cells (no whole prompts, no export). */
  createForExperiment: signedInProcedure
    .input(experimentIdInput.extend({ expiresInDays: z.number().int().min(1).max(MAX_SHARE_DAYS).default(7) }))
    .mutation(async ({ ctx, input }) => {
      await experimentToShare(ctx, input.experimentId);
      const createdBy = ctx.who.kind === 'user' ? ctx.who.id : 'local';
      const { token, record } = await createExperimentShareLink(ctx.prisma, ctx.auth.secret, { ...input, createdBy });
      return { ...record, path: `${SHARE_PATH}${token}` };
    }),

  listForExperiment: signedInProcedure.input(experimentIdInput).query(async ({ ctx, input }) => {
    await experimentToShare(ctx, input.experimentId);
    const links = await listExperimentShareLinks(ctx.prisma, input.experimentId);
    return listed(ctx, links);
  }),
});
