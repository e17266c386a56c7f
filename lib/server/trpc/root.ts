/** Every router, registered once. The browser imports `type AppRouter` only. */
import { backendRouter } from './routers/backend';
import { nodeRouter } from './routers/node';
import { runRouter } from './routers/run';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({ run: runRouter, node: nodeRouter, backend: backendRouter });

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
