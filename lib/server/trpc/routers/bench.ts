/**
 * The `bench` router: the code task's bundled benchmark projects, for the run form's picker (id, title, the change
 * request, its kind, how many steps its reference solution takes). Not responsible for the projects themselves
 * (lib/tasks/code/bench.ts) nor for who may start a run on a folder instead (run.create checks that).
 */
import { benchProjects } from '../../../tasks/index';
import { router, signedInProcedure } from '../trpc';

export const benchRouter = router({
  list: signedInProcedure.query(() => benchProjects()),
});
