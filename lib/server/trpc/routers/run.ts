/**
 * The `run` router: create, list, read, the latest tree (snapshot), replay a range of events, steer (pause, resume, step, abort), delete,
 * and onEvents, the live subscription (SSE, tracked by seq, resumable from lastEventId).
 * Not responsible for running anything (the run manager) or SQL (repositories).
 */
import { TRPCError, tracked } from '@trpc/server';
import { z } from 'zod';
import type { SteeringCommand } from '../../../engine/server';
import { NotFoundError } from '../../errors';
import { streamRunEvents } from '../../event-stream';
import { getEvent, listEvents } from '../../repositories/events';
import { findForks, getRun, listImportTags, listRuns, summarizeRuns } from '../../repositories/runs';
import { latestTreeText } from '../../repositories/snapshots';
import { publicProcedure, router } from '../trpc';
import { configInput, createRunInput, eventsRangeInput, listRunsInput, runFilterInput, runIdInput } from '../schemas';
import { modelSpecSchema } from '../../../contract/model-spec';

const command = (type: 'pause' | 'resume' | 'step' | 'abort') =>
  publicProcedure.input(runIdInput).mutation(async ({ ctx, input }) => {
    await ctx.manager.command(input.id, { type, actor: ctx.actor } as SteeringCommand);
    return { ok: true as const };
  });

export const runRouter = router({
  create: publicProcedure.input(createRunInput).mutation(async ({ ctx, input }) => {
    const run = await ctx.manager.create({ ...input, actor: ctx.actor });
    return { id: run.id, status: run.status };
  }),

  /**
   * Start a new run from a node of this one (its path copied, the node's thought optionally edited), on the parent's
   * model unless `model` is given.
   */
  fork: publicProcedure
    .input(
      z.object({
        runId: z.string().min(1).max(100),
        nodeId: z.string().min(1).max(100),
        thought: z.string().max(4_000).nullish(),
        config: configInput.default({}),
        model: modelSpecSchema.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { run, nodeId } = await ctx.manager.fork({ ...input, actor: ctx.actor });
      // nodeId: the fork's own copy of the node, so the page opens with it selected
      return { id: run.id, status: run.status, nodeId };
    }),

  /** The runs forked from this one. */
  forks: publicProcedure.input(runIdInput).query(async ({ ctx, input }) => {
    if (!(await getRun(ctx.prisma, input.id))) throw new NotFoundError(`no run ${input.id}`);
    return findForks(ctx.prisma, input.id);
  }),

  list: publicProcedure
    .input(listRunsInput)
    .query(({ ctx, input }) => listRuns(ctx.prisma, { ...input, cursor: input.cursor ?? null })),

  /** A filter's totals over all its runs (not the page shown): runs, solved of checked, cost. */
  summary: publicProcedure.input(runFilterInput).query(({ ctx, input }) => summarizeRuns(ctx.prisma, input)),

  /** The import tags in use with their run counts, most recent import first (the list's origin filter). */
  tags: publicProcedure.query(({ ctx }) => listImportTags(ctx.prisma)),

  byId: publicProcedure.input(runIdInput).query(async ({ ctx, input }) => {
    const run = await getRun(ctx.prisma, input.id);
    if (!run) throw new NotFoundError(`no run ${input.id}`);
    return run;
  }),

  /**
   * The run's latest tree (a ThoughtTree as JSON text, parsed by the caller: a big tree is sent as stored instead
   * of walked by the transformer) and its seq: what the run page draws before the history arrives.
   */
  snapshot: publicProcedure.input(runIdInput).query(async ({ ctx, input }) => {
    const snapshot = await latestTreeText(ctx.prisma, input.id);
    if (!snapshot) throw new NotFoundError(`no run ${input.id}`);
    return snapshot;
  }),

  /** A seq range of the log, for replay and for clients that page through a long run. */
  events: publicProcedure.input(eventsRangeInput).query(async ({ ctx, input }) => {
    const run = await getRun(ctx.prisma, input.id);
    if (!run) throw new NotFoundError(`no run ${input.id}`);
    const events = await listEvents(ctx.prisma, input.id, {
      afterSeq: input.afterSeq,
      untilSeq: input.untilSeq,
      limit: input.limit,
      light: input.light,
    });
    return { events, lastSeq: run.lastSeq };
  }),

  /** One event whole: the inspector fetches a model call's prompt when someone opens it (history is light). */
  event: publicProcedure
    .input(z.object({ id: z.string().min(1).max(100), seq: z.number().int().min(1) }))
    .query(async ({ ctx, input }) => {
      const event = await getEvent(ctx.prisma, input.id, input.seq);
      if (!event) throw new NotFoundError(`no event ${input.seq} in run ${input.id}`);
      return event;
    }),

  pause: command('pause'),
  resume: command('resume'),
  step: command('step'),
  abort: command('abort'),

  delete: publicProcedure.input(runIdInput).mutation(async ({ ctx, input }) => {
    await ctx.manager.delete(input.id);
    return { ok: true as const };
  }),

  onEvents: publicProcedure
    .input(z.object({ runId: z.string().min(1).max(100), lastEventId: z.string().regex(/^\d+$/).nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      const run = await getRun(ctx.prisma, input.runId);
      if (!run) throw new TRPCError({ code: 'NOT_FOUND', message: `no run ${input.runId}` });
      const events = streamRunEvents({
        prisma: ctx.prisma,
        bus: ctx.bus,
        runId: input.runId,
        afterSeq: input.lastEventId ? Number(input.lastEventId) : 0,
        follow: true,
        signal,
      });
      for await (const event of events) yield tracked(String(event.seq), event);
    }),
});
