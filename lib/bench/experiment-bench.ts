/**
 * What the experiment benches share: the server's services on a fresh SQLite file, called through the router
 * procedures the page and the CLI use (createCaller, the local person), and one experiment run to its end.
 * Not a bench itself (bench:experiments, bench:mcts), and measures nothing.
 */
import type { CreateExperimentInput, ExperimentView } from '../contract/experiments';
import { sleep } from '../contract/sleep';
import {
  authSettings,
  createCaller,
  createContextInner,
  createPrismaClient,
  EventBus,
  migrate,
  readEnv,
  wireServices,
} from '../server/index';

/** The services on `file` (migrated), running experiments with at most `concurrency` runs at once. */
export function openExperimentBench(file: string, concurrency: number) {
  migrate(file);
  const prisma = createPrismaClient(file);
  const services = wireServices({
    prisma,
    bus: new EventBus(),
    maxConcurrentRuns: concurrency,
    resumeMode: 'manual',
    log: () => {},
  });
  services.experiments.start();
  // the defaults of an empty environment: local mode, whatever this shell's ARBORIST_AUTH says
  const caller = createCaller(
    createContextInner(services, { who: { kind: 'local' }, auth: authSettings(readEnv({})) }),
  );
  return {
    caller,
    services,
    async close() {
      services.experiments.stop();
      await services.experiments.settled();
      await services.manager.stopAll();
      await prisma.$disconnect();
    },
  };
}

export type ExperimentBench = ReturnType<typeof openExperimentBench>;

/** Creates the experiment and waits for it to end; the time from create's call to its finished status. */
export async function runExperiment(
  bench: ExperimentBench,
  input: CreateExperimentInput,
): Promise<{ view: ExperimentView; ms: number }> {
  const started = performance.now();
  const { id } = await bench.caller.experiment.create(input);
  for (;;) {
    const record = await bench.services.experiments.record(id);
    if (record && (record.status === 'finished' || record.status === 'aborted')) break;
    await sleep(20);
  }
  const ms = performance.now() - started;
  return { view: await bench.caller.experiment.byId({ id }), ms };
}
