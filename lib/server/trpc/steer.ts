/**
 * Where a person's command for a run goes: an external run's (the ingest API) to its client, which applies and
 * acknowledges it (ingest/service.ts `request`); any other to the run manager, which applies it to the engine here
 * or forwards it to the instance running the search. The one place that knows both kinds of run.
 * Not responsible for who may steer (auth/run-access.ts) nor for the command's checks (each side makes its own).
 */
import type { SteeringCommand } from '../../engine/server';
import type { Context } from './context';

export async function steer(ctx: Context, runId: string, command: SteeringCommand): Promise<void> {
  if (await ctx.ingest.isExternal(runId)) return ctx.ingest.request(runId, command);
  return ctx.manager.command(runId, command);
}
