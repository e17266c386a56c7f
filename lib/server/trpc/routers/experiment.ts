/**
 * The `experiment` and `dataset` routers: datasets made from items, a file or a shipped set, and listed; experiments
 * estimated, created, listed, read whole (experiment.byId: every cell with its run's figures, every configuration's
 * aggregate), paused, resumed and aborted. Members create and steer; anyone who may list runs reads (a share link
 * opens one run, not an experiment).
 * Not responsible for what an experiment does (lib/server/experiments) nor for the figures' definitions
 * (lib/experiments).
 */
import { z } from 'zod';
import { canReadExperiment, ownerIdOf } from '../../../contract/access';
import { createDatasetInput, createExperimentInput, updateDatasetInput } from '../../../contract/experiments';
import { SHIPPED_DATASETS } from '../../../experiments/index';
import { shippedDatasetItems } from '../../../experiments/server';
import { ForbiddenError } from '../../core/errors';
import { editDataset, makeDataset } from '../../experiments/index';
import { cellOfRun, listDatasets } from '../../repositories/experiments';
import { runFor } from '../../auth/run-access';
import { callerOf } from '../../runs/policy';
import { listProcedure, memberProcedure, router, signedInProcedure } from '../trpc';
import type { Context } from '../context';

const idInput = z.strictObject({ id: z.string().min(1).max(100) });

/** Who asks, for the experiment service: the record's actor and owner, and the policy's caller. */
function requester(ctx: Context) {
  return { actor: ctx.actor, ownerId: ownerIdOf(ctx.who), caller: callerOf(ctx.who, ctx.auth.team) };
}

export const datasetRouter = router({
  create: memberProcedure.input(createDatasetInput).mutation(async ({ ctx, input }) => {
    const { dataset, version } = await makeDataset(ctx.prisma, input, ownerIdOf(ctx.who));
    return { id: dataset.id, version: version.version, itemCount: version.itemCount };
  }),
  /** A new version of a dataset; experiments that ran the old one keep it. */
  update: memberProcedure.input(updateDatasetInput).mutation(async ({ ctx, input }) => {
    const version = await editDataset(ctx.prisma, input);
    return { id: input.id, version: version.version, itemCount: version.itemCount };
  }),
  list: listProcedure
    .input(z.strictObject({ taskId: z.string().max(40).optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const datasets = await listDatasets(ctx.prisma, input);
      const versions = await ctx.prisma.datasetVersion.findMany({
        where: { OR: datasets.map((d) => ({ datasetId: d.id, version: d.latestVersion })) },
        select: { datasetId: true, itemCount: true },
      });
      const counts = new Map(versions.map((v) => [v.datasetId, v.itemCount]));
      return datasets.map((d) => ({
        id: d.id,
        name: d.name,
        taskId: d.taskId,
        version: d.latestVersion,
        itemCount: counts.get(d.id) ?? 0,
        createdAt: d.createdAt.toISOString(),
      }));
    }),
  /** The sets that ship with Arborist (Game of 24 ranges, the code benchmark's projects). */
  shipped: listProcedure.query(() =>
    SHIPPED_DATASETS.map((d) => ({ ...d, itemCount: shippedDatasetItems(d.id)?.length ?? 0 })),
  ),
});

export const experimentRouter = router({
  /** The cell count and the cost estimate, and what create would refuse; nothing is stored. */
  estimate: memberProcedure
    .input(createExperimentInput)
    .query(({ ctx, input }) => ctx.experiments.estimate(input, requester(ctx))),
  create: memberProcedure
    .input(createExperimentInput)
    .mutation(({ ctx, input }) => ctx.experiments.create(input, requester(ctx))),
  list: listProcedure.query(({ ctx }) => ctx.experiments.list()),
  /** Whoever may list runs, and the holder of a link to this experiment. */
  byId: signedInProcedure.input(idInput).query(({ ctx, input }) => {
    if (!canReadExperiment(ctx.who, input)) throw new ForbiddenError('this share link opens another page');
    return ctx.experiments.view(input.id);
  }),
  /**
   * The experiment cell a run is (its experiment's id and name, the item, configuration and repetition), for the run
   * page's way back; null for a run of no experiment, and for a run link's holder (who sees the run only).
   */
  ofRun: signedInProcedure
    .input(z.strictObject({ runId: z.string().min(1).max(100) }))
    .query(async ({ ctx, input }) => {
      await runFor(ctx, input.runId, 'read');
      const cell = await cellOfRun(ctx.prisma, input.runId);
      if (!cell || !canReadExperiment(ctx.who, { id: cell.experimentId })) return null;
      const experiment = await ctx.experiments.record(cell.experimentId);
      const configurations = (experiment?.configurations ?? []) as { label: string }[];
      return { ...cell, configurationLabel: configurations[cell.configuration]?.label ?? '' };
    }),
  pause: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await ctx.experiments.pause(input.id);
    return { ok: true as const };
  }),
  resume: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await ctx.experiments.resume(input.id);
    return { ok: true as const };
  }),
  abort: memberProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await ctx.experiments.abort(input.id, ctx.actor);
    return { ok: true as const };
  }),
});
