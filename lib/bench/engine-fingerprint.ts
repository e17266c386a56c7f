/**
 * `npx tsx lib/bench/engine-fingerprint.ts`: a fingerprint of everything observable the engine produces, to prove an
 * optimization changed nothing. explore() runs beam, best-first and dfs with the offline simulated model on a few
 * Game of 24 puzzles and on the open goal, and with the InstantModel at 2k nodes; for each run it hashes every emitted
 * event (as JSON, the clock fixed through ExploreOptions.now, a call's measured latency zeroed) and every prompt the
 * model received. Run it before and after a change: the printed hashes must be identical.
 * Not a test of behaviour (the unit tests are), nor a speed figure (bench:engine).
 */
import { createHash } from 'node:crypto';
import type { ExplorationEvent } from '../contract/events';
import type { ExplorationStrategy } from '../contract/vocabulary';
import { clockless, type CompletionRequest, type LanguageModel, type ThoughtTask } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry, puzzleGoal, puzzleRange } from '../tasks/index';
import { InstantModel } from './instant-model';

const STRATEGIES: readonly ExplorationStrategy[] = ['beam', 'best-first', 'dfs'];

/** The model, with every request's messages fed to a hash before it answers. */
function recording(model: LanguageModel, prompts: ReturnType<typeof createHash>): LanguageModel {
  return {
    id: model.id,
    complete: (request: CompletionRequest) => {
      prompts.update(`${request.purpose}\n${JSON.stringify(request.messages)}\n`);
      return model.complete(request);
    },
  };
}

/** An event as the log would hold it, less what a clock decides (latency is measured; the clock is fixed anyway). */
function canonical(event: ExplorationEvent): string {
  return JSON.stringify(clockless(event));
}

async function fingerprint(
  label: string,
  model: LanguageModel,
  goal: string,
  config: ConstructorParameters<typeof ThoughtTreeExecutor>[0],
  task?: ThoughtTask,
): Promise<string> {
  const events = createHash('sha256');
  const prompts = createHash('sha256');
  let count = 0;
  await new ThoughtTreeExecutor(config).explore({ name: 'fingerprint', model: recording(model, prompts) }, goal, {
    task,
    runId: 'fingerprint',
    now: () => 1_700_000_000_000,
    onEvent: (event) => {
      count++;
      events.update(`${canonical(event)}\n`);
    },
  });
  const line = `${label.padEnd(34)} ${String(count).padStart(6)} events  events ${events.digest('hex').slice(0, 16)}  prompts ${prompts.digest('hex').slice(0, 16)}`;
  console.log(line);
  return line;
}

async function main() {
  const all = createHash('sha256');
  const game24 = getTaskEntry('game24').task;
  const openGoal = getTaskEntry('open-goal').task;
  for (const strategy of STRATEGIES) {
    for (const puzzle of puzzleRange(900, 905)) {
      const line = await fingerprint(
        `game24 #${puzzle.index} ${strategy}`,
        createSimulatedModel({ seed: 1 }),
        puzzleGoal(puzzle),
        { explorationStrategy: strategy, maxTotalNodes: 60 },
        game24,
      );
      all.update(line);
    }
    for (const goal of ['Plan a week of meals for a family of four on a budget', 'Explain why the sky is blue']) {
      const line = await fingerprint(
        `open goal "${goal.slice(0, 12)}" ${strategy}`,
        createSimulatedModel({ seed: 2 }),
        goal,
        { explorationStrategy: strategy, maxTotalNodes: 60, maxDepth: 8 },
        openGoal,
      );
      all.update(line);
    }
    const line = await fingerprint(`instant 2k ${strategy}`, new InstantModel(), 'benchmark goal', {
      explorationStrategy: strategy,
      maxTotalNodes: 2_000,
      maxDepth: 50,
      confidenceThreshold: 0,
    });
    all.update(line);
  }
  console.log(`\nall runs: ${all.digest('hex')}`);
}

void main();
