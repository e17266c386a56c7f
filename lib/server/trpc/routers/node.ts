/**
 * The `node` router: a person prunes a node (with its subtree) or asks for it to be expanded again, and the node
 * projection is queried. Not responsible for applying commands (the engine, through the run manager).
 */
import { z } from 'zod';
import { listNodes } from '../../run-log/index';
import { runFor } from '../../auth/run-access';
import { steer } from '../steer';
import { nodeInput } from '../schemas';
import { memberProcedure, router, signedInProcedure } from '../trpc';

export const nodeRouter = router({
  prune: memberProcedure.input(nodeInput).mutation(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'steer');
    await steer(ctx, input.runId, { type: 'prune', nodeId: input.nodeId, actor: ctx.actor });
    return { ok: true as const };
  }),

  expand: memberProcedure.input(nodeInput).mutation(async ({ ctx, input }) => {
    await runFor(ctx, input.runId, 'steer');
    await steer(ctx, input.runId, { type: 'expand', nodeId: input.nodeId, actor: ctx.actor });
    return { ok: true as const };
  }),

  list: signedInProcedure
    .input(
      z.object({
        runId: z.string().min(1).max(100),
        status: z.enum(['pending', 'running', 'completed', 'failed', 'pruned']).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      await runFor(ctx, input.runId, 'read');
      return listNodes(ctx.prisma, input.runId, { status: input.status });
    }),
});
