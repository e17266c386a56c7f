/** Every router, registered once. The browser imports `type AppRouter` only. */
import { authRouter } from './routers/auth';
import { backendRouter } from './routers/backend';
import { benchRouter } from './routers/bench';
import { keysRouter } from './routers/keys';
import { nodeRouter } from './routers/node';
import { runRouter } from './routers/run';
import { sharesRouter } from './routers/shares';
import { usersRouter } from './routers/users';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  run: runRouter,
  node: nodeRouter,
  backend: backendRouter,
  bench: benchRouter,
  auth: authRouter,
  users: usersRouter,
  keys: keysRouter,
  shares: sharesRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
