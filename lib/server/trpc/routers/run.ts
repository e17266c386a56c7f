/**
 * The `run` router: create, list, read, the latest tree (snapshot), replay a range of events, steer (pause, resume, step, abort), delete,
 * and onEvents, the live subscription (SSE, tracked by seq, resumable from lastEventId; with `live`, also the running
 * run's calls in flight between the events, never stored; with `discussion`, a signal when its comments or labels
 * change, on after the log's end).
 * Every procedure says who may call it: reads need a principal allowed to read the run (a share link's holder reads
 * its one run), whole prompts need readPrompts, commands need steer, delete needs delete (run-access.ts).
 * Not responsible for running anything (the run manager) or SQL (repositories).
 */
import { tracked } from '@trpc/server';
import { z } from 'zod';
import type { SteeringCommand } from '../../../engine/server';
import { canListRuns, canOnRun, ownerIdOf } from '../../../contract/access';
import { callerOf, checkResumeAllowed } from '../../runs/policy';
import { steer } from '../steer';
import { NotFoundError } from '../../core/errors';
import { streamRunItems } from '../../streaming/event-stream';
import { getEvent, listEvents, withoutPrompt } from '../../run-log/index';
import { findForks, listImportTags, listRuns, summarizeRuns } from '../../repositories/runs';
import { listProcedure, memberProcedure, signedInProcedure, router } from '../trpc';
import { runFor } from '../../auth/run-access';
import {
  configInput,
  createRunInput,
  eventsRangeInput,
  listRunsInput,
  runFilterInput,
  runIdInput,
  setBreakpointsInput,
} from '../schemas';
import { modelSpecSchema } from '../../../contract/model-spec';

const command = (type: 'pause' | 'resume' | 'step' | 'abort') =>
  memberProcedure.input(runIdInput).mutation(async ({ ctx, input }) => {
    const run = await runFor(ctx, input.id, 'steer');
    if (type === 'resume') await checkResumeAllowed(ctx.prisma, run);
    await steer(ctx, input.id, { type, actor: ctx.actor } as SteeringCommand);
    return { ok: true as const };
  });

/** The runs list: users and the local person (a share link's holder sees its one run, not the list). */

export const runRouter = router({
  create: memberProcedure.input(createRunInput).mutation(async ({ ctx, input }) => {
    // what the run may contain (goal, model, budget) is the policy's, applied by the manager (runs/policy.ts)
    const run = await ctx.manager.create({
      ...input,
      actor: ctx.actor,
      ownerId: ownerIdOf(ctx.who),
      caller: callerOf(ctx.who, ctx.auth.team),
    });
    return { id: run.id, status: run.status };
  }),

  /**
   * Start a new run from a node of this one (its path copied, the node's thought optionally edited), on the parent's
   * model unless `model` is given.
   */
  fork: memberProcedure
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
      await runFor(ctx, input.runId, 'fork');
      const { run, nodeId } = await ctx.manager.fork({
        ...input,
        actor: ctx.actor,
        ownerId: ownerIdOf(ctx.who),
        caller: callerOf(ctx.who, ctx.auth.team),
      });
      // nodeId: the fork's own copy of the node, so the page opens with it selected
      return { id: run.id, status: run.status, nodeId };
    }),

  /** The runs forked from this one. */
  forks: signedInProcedure.input(runIdInput).query(async ({ ctx, input }) => {
    await runFor(ctx, input.id, 'read');
    // a share link shows its one run: the forks are other runs
    if (!canListRuns(ctx.who)) return [];
    return findForks(ctx.prisma, input.id);
  }),

  list: listProcedure
    .input(listRunsInput)
    .query(({ ctx, input }) => listRuns(ctx.prisma, { ...input, cursor: input.cursor ?? null })),

  /** A filter's totals over all its runs (not the page shown): runs, solved of checked, cost. */
  summary: listProcedure.input(runFilterInput).query(({ ctx, input }) => summarizeRuns(ctx.prisma, input)),

  /** The import tags in use with their run counts, most recent import first (the list's origin filter). */
  tags: listProcedure.query(({ ctx }) => listImportTags(ctx.prisma)),

  byId: signedInProcedure.input(runIdInput).query(({ ctx, input }) => runFor(ctx, input.id, 'read')),

  /** A seq range of the log, for replay and for clients that page through a long run. */
  events: signedInProcedure.input(eventsRangeInput).query(async ({ ctx, input }) => {
    const run = await runFor(ctx, input.id, 'read');
    const events = await listEvents(ctx.prisma, input.id, {
      afterSeq: input.afterSeq,
      untilSeq: input.untilSeq,
      limit: input.limit,
      // a reader without prompts gets the light log whatever they ask for
      light: input.light || !canOnRun(ctx.who, 'readPrompts', run),
    });
    return { events, lastSeq: run.lastSeq };
  }),

  /** One event whole: the inspector fetches a model call's prompt when someone opens it (history is light). */
  event: signedInProcedure
    .input(z.object({ id: z.string().min(1).max(100), seq: z.number().int().min(1) }))
    .query(async ({ ctx, input }) => {
      await runFor(ctx, input.id, 'readPrompts');
      const event = await getEvent(ctx.prisma, input.id, input.seq);
      if (!event) throw new NotFoundError(`no event ${input.seq} in run ${input.id}`);
      return event;
    }),

  /**
   * The run's whole breakpoint list from its next step boundary on (a breakpoints.set in its log): who may steer
   * sets them; CONFLICT when the run cannot take them now (finished, queued, a node-runs on a node it lacks).
   */
  setBreakpoints: memberProcedure.input(setBreakpointsInput).mutation(async ({ ctx, input }) => {
    await runFor(ctx, input.id, 'steer');
    await steer(ctx, input.id, { type: 'breakpoints', breakpoints: input.breakpoints, actor: ctx.actor });
    return { ok: true as const };
  }),
  pause: command('pause'),
  resume: command('resume'),
  step: command('step'),
  abort: command('abort'),

  delete: memberProcedure.input(runIdInput).mutation(async ({ ctx, input }) => {
    await runFor(ctx, input.id, 'delete');
    await ctx.manager.delete(input.id);
    return { ok: true as const };
  }),

  onEvents: signedInProcedure
    .input(
      z.object({
        runId: z.string().min(1).max(100),
        lastEventId: z.string().regex(/^\d+$/).nullish(),
        /** Also the running run's transient figures ({ live: { callsInFlight } }) between its events. */
        live: z.boolean().optional(),
        /**
         * Also `{ discussed: true }` whenever the run's comments or labels change (read them with comment.list and
         * label.list), and the stream stays open after the log's end for them.
         */
        discussion: z.boolean().optional(),
      }),
    )
    // access is checked before the stream is returned, so a refusal goes through the middleware as FORBIDDEN or
    // NOT_FOUND (an error thrown inside the generator would reach the client as a 500)
    .subscription(async ({ ctx, input, signal }) => {
      const run = await runFor(ctx, input.runId, 'read');
      const light = !canOnRun(ctx.who, 'readPrompts', run);
      const afterSeq = input.lastEventId ? Number(input.lastEventId) : 0;
      const items = streamRunItems({
        prisma: ctx.prisma,
        bus: ctx.bus,
        runId: input.runId,
        afterSeq,
        follow: true,
        signal,
        live: input.live ?? false,
        discussion: input.discussion ?? false,
      });
      return (async function* () {
        let last = afterSeq;
        for await (const item of items) {
          if (item.kind === 'live') {
            // tracked with the last seq sent, so a reconnect resumes after the events, never after a figure (a
            // browser's EventSource would give an untracked message the previous id all the same)
            yield tracked(String(last), { live: item.live });
            continue;
          }
          if (item.kind === 'discussed') {
            yield tracked(String(last), { discussed: true as const });
            continue;
          }
          for (const event of item.events) {
            last = event.seq;
            yield tracked(String(event.seq), light ? withoutPrompt(event) : event);
          }
        }
      })();
    }),
});
