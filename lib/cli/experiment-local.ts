/**
 * `experiment` without --server: the server's services in this process on the local SQLite file (DATABASE_URL, default
 * ./data/arborist.db, as the app), and the same router procedures the HTTP API serves, called through createCaller with
 * the local person's context, so both modes go through one API. Another Arborist process may be using the file: this
 * one migrates it (idempotent) and wires the services, but recovers no run, sweeps no staged import and seeds no demo
 * run; it only starts the experiment service's feeding (experiments.start()), so this experiment's cells keep
 * starting as runs stop.
 * A team server's database (ARBORIST_AUTH=1) or PostgreSQL is refused: run the command against that server (--server).
 * Not responsible for what the procedures do (lib/server), nor for the output (experiment.ts).
 */
import {
  actorFromHeader,
  authSettings,
  createCaller,
  createContextInner,
  createPrismaClient,
  EventBus,
  migrate,
  principalFor,
  readEnv,
  resolveDatabase,
  wireServices,
} from '../server/index';
import { configureSandbox } from '../tasks/index';
import type { ExperimentApi } from './experiment-api';

type WireLog = Exclude<NonNullable<Parameters<typeof wireServices>[0]['log']>, (message: string) => void>;

/** The services' log: warnings and errors to stderr (the terminal's lines are the command's own), the rest dropped. */
function quietLogger(write: (line: string) => void): WireLog {
  const drop = () => {};
  const warn = (message: string, fields?: Record<string, unknown>) => {
    const error = fields?.error instanceof Error ? `: ${fields.error.message}` : '';
    write(`arborist: ${message}${error}\n`);
  };
  const logger: WireLog = { debug: drop, info: drop, warn, error: warn, child: () => logger };
  return logger;
}

export class LocalModeError extends Error {}

export interface LocalOptions {
  /** The environment to read (DATABASE_URL, the run limits); default process.env. */
  env?: Record<string, string | undefined>;
  /** Where the services' warnings go; default stderr. */
  warn?: (line: string) => void;
}

/** Where the app serves its pages on this machine (npm start's HOST and PORT), for the experiment's address. */
function localBase(env: Record<string, string | undefined>): string {
  const host = env.HOST && env.HOST !== '0.0.0.0' ? env.HOST : '127.0.0.1';
  return `http://${host}:${env.PORT ?? 3000}`;
}

export async function localExperimentApi(options: LocalOptions = {}): Promise<ExperimentApi & { file: string }> {
  const source = options.env ?? process.env;
  const env = readEnv(source);
  const database = resolveDatabase(source.DATABASE_URL);
  if (database.kind !== 'sqlite')
    throw new LocalModeError(
      `DATABASE_URL names PostgreSQL (${database.display}): run the experiment on that server with --server <url>`,
    );
  const auth = authSettings(env);
  if (auth.team)
    throw new LocalModeError(
      'ARBORIST_AUTH=1: this database is a team server’s; run the experiment on it with --server <url> --api-key <key>',
    );
  configureSandbox({ concurrency: env.ARBORIST_VERIFY_CONCURRENCY });
  migrate(database.location);
  const prisma = createPrismaClient(database.location);
  const services = wireServices({
    prisma,
    bus: new EventBus(),
    maxConcurrentRuns: env.ARBORIST_MAX_CONCURRENT_RUNS,
    resumeMode: env.ARBORIST_RESUME,
    ...(env.ARBORIST_EXPERIMENT_CELLS_IN_FLIGHT && {
      experimentCellsInFlight: env.ARBORIST_EXPERIMENT_CELLS_IN_FLIGHT,
    }),
    log: quietLogger(options.warn ?? ((line) => process.stderr.write(line))),
  });
  services.experiments.start();
  // who a request with no credentials is, by the server's own rule: in local mode, the local person
  const who = await principalFor(prisma, auth, new Headers());
  const caller = createCaller(createContextInner(services, { who, auth, actor: actorFromHeader('cli') }));
  let closed = false;
  return {
    base: localBase(source),
    file: database.location,
    estimate: (input) => caller.experiment.estimate(input),
    create: (input) => caller.experiment.create(input),
    byId: (id) => caller.experiment.byId({ id }),
    pause: async (id) => {
      await caller.experiment.pause({ id });
    },
    resume: async (id) => {
      await caller.experiment.resume({ id });
    },
    createDataset: (input) => caller.dataset.create(input),
    async close() {
      if (closed) return;
      closed = true;
      services.experiments.stop();
      await services.experiments.settled();
      // runs still live here stop unwritten: the app's next start recovers them, as after its own shutdown
      await services.manager.shutdown();
      await prisma.$disconnect();
    },
  };
}
