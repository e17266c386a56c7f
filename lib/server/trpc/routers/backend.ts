/**
 * The `backend` router: which model backends this server offers the run form (the key itself never leaves the
 * server: only whether one is configured). Not responsible for building models (model-factory.ts).
 */
import { readEnv } from '../../core/env';
import { listBackends } from '../../runs/model-factory';
import { isAdmin } from '../../../contract/access';
import { router, signedInProcedure } from '../trpc';

export const backendRouter = router({
  list: signedInProcedure.query(({ ctx }) => ({
    ...listBackends(readEnv()),
    /**
     * Which base URLs this person may type (model-servers.ts holds the rule the server enforces): any in local mode,
     * public addresses only for a team's admins (so no localhost preset), none for anyone else.
     */
    customURLs: !ctx.auth.team ? ('any' as const) : isAdmin(ctx.who) ? ('public' as const) : ('none' as const),
  })),
});
