/**
 * `experiment --server URL`: the experiment procedures over HTTP, a tRPC client of `<URL>/api/trpc` with the app's
 * own transformer (superjson, as lib/trpc/client.ts), `Authorization: Bearer <key>` when a key is given and
 * `x-arborist-actor: cli` (what the run's record names in local mode). The key goes in that header only: it is never
 * printed or logged here. The server is never asked to fetch anything: goals and files travel in the request.
 * Not responsible for what the server does with them, nor for the output (experiment.ts).
 */
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
// type only (erased): the router's shape, as the browser's client takes it (lib/cli/README.md says why lib/cli may)
import type { AppRouter } from '../server/index';
import type { ExperimentApi } from './experiment-api';

export function remoteExperimentApi(server: string, apiKey: string | null): ExperimentApi {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${server}/api/trpc`,
        transformer: superjson,
        headers: () => ({
          'x-arborist-actor': 'cli',
          ...(apiKey !== null && { authorization: `Bearer ${apiKey}` }),
        }),
      }),
    ],
  });
  return {
    base: server,
    estimate: (input) => client.experiment.estimate.query(input),
    create: (input) => client.experiment.create.mutate(input),
    byId: (id) => client.experiment.byId.query({ id }),
    pause: async (id) => {
      await client.experiment.pause.mutate({ id });
    },
    resume: async (id) => {
      await client.experiment.resume.mutate({ id });
    },
    createDataset: (input) => client.dataset.create.mutate(input),
    close: async () => {},
  };
}
