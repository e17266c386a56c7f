/**
 * The `comment` and `label` routers: a run's discussion (issue 34). Whoever may read the run reads it (a share link's
 * holder and a viewer too); whoever may discuss it (members, admins, the local person: canOnRun 'discuss') writes; a
 * comment is edited by its author and deleted by its author or an admin, a label removed likewise (canChangeWriting).
 * Each write is announced on the run's stream (onEvents with `discussion`), so every open page reads it again.
 * The origin of a write is checked for every mutation by the HTTP handler (lib/server/http/admit.ts).
 * Not responsible for SQL (repositories/discussion.ts) nor for the rules (lib/contract/access.ts).
 */
import { canChangeWriting, type Principal } from '../../../contract/access';
import {
  addCommentInput,
  deleteCommentInput,
  type DiscussionAuthor,
  editCommentInput,
  labelChoices,
  removeLabelInput,
  runDiscussionInput,
  setLabelInput,
} from '../../../contract/discussion';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '../../core/errors';
import {
  addComment,
  deleteComment,
  editComment,
  getComment,
  getLabel,
  listComments,
  listLabels,
  removeLabel,
  setLabel,
  stepWithin,
} from '../../repositories/discussion';
import { announceDiscussed } from '../../run-log/index';
import { runFor } from '../../auth/run-access';
import type { Context } from '../context';
import { memberProcedure, router, signedInProcedure } from '../trpc';

/** Who writes: a user by id and name; the local person by the name the page sends. */
function authorOf(ctx: Context): DiscussionAuthor {
  const who: Principal = ctx.who;
  if (who.kind === 'user') return { id: who.id, name: who.name || who.email };
  return { id: null, name: ctx.actor };
}

/** A comment the caller may change, with its run checked for 'discuss'; NOT_FOUND or FORBIDDEN otherwise. */
async function commentToChange(ctx: Context, id: string, change: 'edit' | 'delete') {
  const comment = await getComment(ctx.prisma, id);
  if (!comment || comment.deleted) throw new NotFoundError(`no comment ${id}`);
  await runFor(ctx, comment.runId, 'discuss');
  if (!canChangeWriting(ctx.who, comment, change))
    throw new ForbiddenError(
      change === 'edit' ? 'only its author may edit a comment' : 'only its author or an admin may delete a comment',
    );
  return comment;
}

export const commentRouter = router({
  /** The run's comments, oldest first; a thread's replies name its first (replyTo). */
  list: signedInProcedure.input(runDiscussionInput).query(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'read');
    return listComments(ctx.prisma, input.runId);
  }),

  add: memberProcedure.input(addCommentInput).mutation(async ({ ctx, input }) => {
    const run = await runFor(ctx, input.runId, 'discuss');
    const comment = await addComment(ctx.prisma, {
      runId: input.runId,
      nodeId: input.nodeId ?? null,
      text: input.text,
      replyTo: input.replyTo ?? null,
      step: stepWithin(input.step, run.lastSeq),
      author: authorOf(ctx),
    });
    await announceDiscussed(ctx.prisma, ctx.bus, input.runId);
    return { id: comment.id, comment };
  }),

  edit: memberProcedure.input(editCommentInput).mutation(async ({ ctx, input }) => {
    const comment = await commentToChange(ctx, input.id, 'edit');
    const edited = await editComment(ctx.prisma, input.id, input.text);
    await announceDiscussed(ctx.prisma, ctx.bus, comment.runId);
    return { id: edited.id, comment: edited };
  }),

  delete: memberProcedure.input(deleteCommentInput).mutation(async ({ ctx, input }) => {
    const comment = await commentToChange(ctx, input.id, 'delete');
    await deleteComment(ctx.prisma, input.id);
    await announceDiscussed(ctx.prisma, ctx.bus, comment.runId);
    return { ok: true as const };
  }),
});

export const labelRouter = router({
  /** The labels a person may put on a node (the operator's ARBORIST_LABELS), each with its key, 1 to 9. */
  choices: signedInProcedure.query(({ ctx }) => labelChoices(ctx.labels)),

  /** The run's labels, oldest first. */
  list: signedInProcedure.input(runDiscussionInput).query(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'read');
    return listLabels(ctx.prisma, input.runId);
  }),

  /** Puts a label on a node; the same label again changes its note (its setter only: another's is theirs). */
  set: memberProcedure.input(setLabelInput).mutation(async ({ ctx, input }) => {
    if (!ctx.labels.includes(input.label))
      throw new InputError('label', `"${input.label}" is not one of this server's labels: ${ctx.labels.join(', ')}`);
    const run = await runFor(ctx, input.runId, 'discuss');
    const existing = await getLabel(ctx.prisma, input.runId, input.nodeId, input.label);
    if (existing && !canChangeWriting(ctx.who, existing, 'edit'))
      throw new ConflictError(`"${input.label}" is already on ${input.nodeId}, put there by ${existing.author.name}`);
    const label = await setLabel(ctx.prisma, {
      runId: input.runId,
      nodeId: input.nodeId,
      label: input.label,
      note: input.note || null,
      step: stepWithin(input.step, run.lastSeq),
      author: authorOf(ctx),
    });
    await announceDiscussed(ctx.prisma, ctx.bus, input.runId);
    return { id: label.id, label };
  }),

  remove: memberProcedure.input(removeLabelInput).mutation(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'discuss');
    const existing = await getLabel(ctx.prisma, input.runId, input.nodeId, input.label);
    if (!existing) throw new NotFoundError(`no label "${input.label}" on node ${input.nodeId}`);
    if (!canChangeWriting(ctx.who, existing, 'delete'))
      throw new ForbiddenError('only whoever put a label on a node, or an admin, may take it off');
    await removeLabel(ctx.prisma, input.runId, input.nodeId, input.label);
    await announceDiscussed(ctx.prisma, ctx.bus, input.runId);
    return { ok: true as const };
  }),
});
