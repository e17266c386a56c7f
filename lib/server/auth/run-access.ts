/**
 * A run, fetched for what the caller is about to do with it: NOT_FOUND when there is no such run, UNAUTHORIZED for
 * nobody, FORBIDDEN when the caller's role or link does not allow it (lib/contract/access.ts holds the rules). A
 * share link's holder asking for another run is refused before the run is looked up (an experiment's link: unless
 * it is one of that experiment's cells), so the answer says nothing about whether that run exists.
 * Not responsible for the rules themselves (lib/contract/access.ts).
 */
import { canOnRun, type Principal, type RunAction } from '../../contract/access';
import type { RunRecord } from '../../contract/run';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../core/errors';
import { cellOfRun } from '../repositories/experiments';
import { getRun } from '../repositories/runs';
import type { PrismaClient } from '../db/client';

const VERBS: Record<RunAction, string> = {
  read: 'open',
  readPrompts: 'read the whole prompts of',
  steer: 'steer',
  fork: 'fork',
  discuss: 'comment on or label',
  share: 'share',
  delete: 'delete',
};

export async function runFor(
  ctx: { prisma: PrismaClient; who: Principal },
  runId: string,
  action: RunAction,
): Promise<RunRecord> {
  const who = ctx.who;
  if (who.kind === 'anonymous') throw new UnauthorizedError();
  // a run's link opens that run; an experiment's, the runs that are its cells
  let experimentId: string | null = null;
  if (who.kind === 'share' && who.runId !== runId) {
    experimentId = who.experimentId ? ((await cellOfRun(ctx.prisma, runId))?.experimentId ?? null) : null;
    if (!experimentId || experimentId !== who.experimentId)
      throw new ForbiddenError(
        who.experimentId ? 'this share link opens one experiment only' : 'this share link opens one run only',
      );
  }
  const run = await getRun(ctx.prisma, runId);
  if (!run) throw new NotFoundError(`no run ${runId}`);
  if (!canOnRun(who, action, { ...run, experimentId })) {
    const whose = action === 'delete' || action === 'share' ? ' (members may do this to their own runs only)' : '';
    throw new ForbiddenError(`you may not ${VERBS[action]} this run${whose}`);
  }
  return run;
}
