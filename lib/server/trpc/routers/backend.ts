/**
 * The `backend` router: which model backends this server offers the run form (the key itself never leaves the
 * server: only whether one is configured). Not responsible for building models (model-factory.ts).
 */
import { readEnv } from '../../env';
import { listBackends } from '../../model-factory';
import { router, signedInProcedure } from '../trpc';

export const backendRouter = router({
  list: signedInProcedure.query(() => listBackends(readEnv())),
});
