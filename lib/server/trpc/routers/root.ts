/** Every router, registered once. The browser imports `type AppRouter` only. */
import { authRouter } from './auth';
import { backendRouter } from './backend';
import { commentRouter, labelRouter } from './discussion';
import { datasetRouter, experimentRouter } from './experiment';
import { benchRouter } from './bench';
import { keysRouter } from './keys';
import { nodeRouter } from './node';
import { runRouter } from './run';
import { sharesRouter } from './shares';
import { usersRouter } from './users';
import { createCallerFactory, router } from '../trpc';

export const appRouter = router({
  run: runRouter,
  node: nodeRouter,
  backend: backendRouter,
  bench: benchRouter,
  auth: authRouter,
  users: usersRouter,
  keys: keysRouter,
  shares: sharesRouter,
  experiment: experimentRouter,
  dataset: datasetRouter,
  comment: commentRouter,
  label: labelRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
