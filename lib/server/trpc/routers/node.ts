/**
 * The `node` router: a person prunes a node (with its subtree) or asks for it to be expanded again, and the node
 * projection is queried. Not responsible for applying commands (the engine, through the run manager).
 */
import { z } from 'zod';
import { NotFoundError } from '../../errors';
import { listNodes } from '../../repositories/nodes';
import { getRun } from '../../repositories/runs';
import { nodeInput } from '../schemas';
import { publicProcedure, router } from '../trpc';

export const nodeRouter = router({
  prune: publicProcedure.input(nodeInput).mutation(async ({ ctx, input }) => {
    await ctx.manager.command(input.runId, { type: 'prune', nodeId: input.nodeId, actor: ctx.actor });
    return { ok: true as const };
  }),

  expand: publicProcedure.input(nodeInput).mutation(async ({ ctx, input }) => {
    await ctx.manager.command(input.runId, { type: 'expand', nodeId: input.nodeId, actor: ctx.actor });
    return { ok: true as const };
  }),

  list: publicProcedure
    .input(
      z.object({
        runId: z.string().min(1).max(100),
        status: z.enum(['pending', 'running', 'completed', 'failed', 'pruned']).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (!(await getRun(ctx.prisma, input.runId))) throw new NotFoundError(`no run ${input.runId}`);
      return listNodes(ctx.prisma, input.runId, { status: input.status });
    }),
});
