/**
 * The explore CLI's flags: parsing and validation into one settings object, with messages a person can act on.
 * Not responsible for running the search or printing results (explore.ts).
 */
import { parseArgs } from 'node:util';
import {
  DEFAULT_MAX_CONCURRENT_CALLS,
  explorationStrategySchema,
  toTConfigFields,
  type ToTConfig,
} from '../contract/vocabulary';
import { MCTS_DEFAULTS, resolveConfig } from '../engine/index';
import { normalizePuzzle } from '../contract/game24-goal';
import { getPuzzle } from '../tasks/index';
import { TASK_IDS, isTaskId, type TaskId } from '../contract/tasks';

export const HELP = `Usage: npm run explore -- [options]

Runs one Tree-of-Thought search on the offline simulated model and prints the best path.

Task
  --task <id>            ${TASK_IDS.join(' | ')} (default game24)
  --puzzle "<a b c d>"   Game of 24 numbers, e.g. "4 9 10 13"
  --puzzle-index <n>     a row of the shipped puzzle list (0-1361; the ToT paper uses 900-999)
  --goal "<text>"        the goal of an open-goal search

Search (defaults from DEFAULT_TOT_CONFIG)
  --strategy <s>         ${explorationStrategySchema.options.join(' | ')}
  --max-depth <n>        --branch-factor <n>     --beam-width <n>
  --threshold <x>        confidenceThreshold, 0..1
  --terminate-at <x>     terminationConfidence, 0..1
  --max-nodes <n>        maxTotalNodes
  --timeout <ms>         time limit of the search; 0 (or none given) means no limit
  --max-concurrent-calls <n>
                         model calls in flight at once, 1..64 (default ${DEFAULT_MAX_CONCURRENT_CALLS});
                         beam runs a level's independent calls together, the log is the same at any limit

Monte Carlo tree search (with --strategy mcts only; defaults from MCTS_DEFAULTS)
  --mcts-iterations <n>  iterations (select, grow, evaluate, back up), at least 1 (default ${MCTS_DEFAULTS.mctsIterations});
                         --max-nodes still caps the nodes run
  --mcts-c <x>           exploration constant c of UCT = Q + c * sqrt(ln N(parent) / N(child)), 0 or more
                         (default ${MCTS_DEFAULTS.mctsExploration.toFixed(3)}, sqrt 2); 0 only exploits
  --mcts-rollout-depth <n>
                         greedy steps after a leaf before its value is taken, 0 to --max-depth
                         (default ${MCTS_DEFAULTS.mctsRolloutDepth}: the leaf's own score)
  --mcts-backup <b>      ${toTConfigFields.shape.mctsBackup.unwrap().options.join(' | ')}: a node's Q is the mean or the best of the values backed up (default ${MCTS_DEFAULTS.mctsBackup})
  --mcts-best-by <b>     ${toTConfigFields.shape.mctsBestBy.unwrap().options.join(' | ')}: the best path follows the most visits or the highest Q when no
                         answer was verified (default ${MCTS_DEFAULTS.mctsBestBy})

Model
  --seed <n>             the simulated model's seed (default 1)
  --latency <ms>         simulated latency per model call (default 0)

Server
  --server <url>         stream the search live to an Arborist server (its ingest API) and take steering
                         (prune, expand, pause, resume, step, abort) from its page; prints the run's address
  --api-key <key>        a member's API key, for a server with accounts (or ARBORIST_API_KEY)

Output
  --events <file>        write the event log as NDJSON (one event per line)
  --json                 print the result as JSON instead of text
  -h, --help             this help`;

export interface CliSettings {
  taskId: TaskId;
  goal: string;
  config: ToTConfig;
  seed: number;
  latencyMs: number;
  eventsFile: string | null;
  json: boolean;
  /** Stream to this Arborist server (lib/cli/remote.ts), or null: run offline only. */
  server: string | null;
  apiKey: string | null;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The flags of MCTS's own settings (the config's mcts* fields). */
const MCTS_FLAGS = ['mcts-iterations', 'mcts-c', 'mcts-rollout-depth', 'mcts-backup', 'mcts-best-by'] as const;

function number(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} must be ${integer ? 'a whole number' : 'a number'}, got "${raw}"`);
  }
  return value;
}

/** Parses argv (without node and the script); returns null when help was asked for. */
export function parseCliArgs(argv: string[]): CliSettings | null {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        task: { type: 'string' },
        puzzle: { type: 'string' },
        'puzzle-index': { type: 'string' },
        goal: { type: 'string' },
        strategy: { type: 'string' },
        'max-depth': { type: 'string' },
        'branch-factor': { type: 'string' },
        'beam-width': { type: 'string' },
        threshold: { type: 'string' },
        'terminate-at': { type: 'string' },
        'max-nodes': { type: 'string' },
        timeout: { type: 'string' },
        'max-concurrent-calls': { type: 'string' },
        'mcts-iterations': { type: 'string' },
        'mcts-c': { type: 'string' },
        'mcts-rollout-depth': { type: 'string' },
        'mcts-backup': { type: 'string' },
        'mcts-best-by': { type: 'string' },
        seed: { type: 'string' },
        latency: { type: 'string' },
        events: { type: 'string' },
        server: { type: 'string' },
        'api-key': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  if (values.help) return null;
  const str = (key: string) => values[key] as string | undefined;

  const taskId = str('task') ?? 'game24';
  if (!isTaskId(taskId)) throw new UsageError(`unknown task "${taskId}": use one of ${TASK_IDS.join(', ')}`);

  let goal: string;
  if (taskId === 'game24') {
    if (str('goal')) throw new UsageError('--goal is for open-goal searches; give a Game of 24 with --puzzle');
    const index = number('puzzle-index', str('puzzle-index'), true);
    if (str('puzzle') && index !== undefined) throw new UsageError('give either --puzzle or --puzzle-index, not both');
    try {
      goal = index !== undefined ? getPuzzle(index).numbers.join(' ') : normalizePuzzle(str('puzzle') ?? '4 9 10 13');
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  } else {
    if (str('puzzle') || str('puzzle-index')) throw new UsageError('--puzzle is for the game24 task; use --goal');
    goal = (str('goal') ?? '').trim();
    if (!goal) throw new UsageError('an open-goal search needs --goal "<what to achieve>"');
  }

  const partial: Partial<ToTConfig> = {};
  const strategy = str('strategy');
  if (strategy !== undefined) partial.explorationStrategy = strategy as ToTConfig['explorationStrategy'];
  const set = <K extends keyof ToTConfig>(key: K, flag: string, integer: boolean) => {
    const value = number(flag, str(flag), integer);
    if (value !== undefined) partial[key] = value as ToTConfig[K];
  };
  set('maxDepth', 'max-depth', true);
  set('branchFactor', 'branch-factor', true);
  set('beamWidth', 'beam-width', true);
  set('confidenceThreshold', 'threshold', false);
  set('terminationConfidence', 'terminate-at', false);
  set('maxTotalNodes', 'max-nodes', true);
  set('timeout', 'timeout', true);
  set('maxConcurrentCalls', 'max-concurrent-calls', true);
  // MCTS's own settings: refused for another strategy, which would drop them (resolveConfig) and run without them
  const mctsFlags = MCTS_FLAGS.filter((flag) => str(flag) !== undefined);
  if (mctsFlags.length > 0 && partial.explorationStrategy !== 'mcts')
    throw new UsageError(`--${mctsFlags[0]} is for --strategy mcts`);
  set('mctsIterations', 'mcts-iterations', true);
  set('mctsExploration', 'mcts-c', false);
  set('mctsRolloutDepth', 'mcts-rollout-depth', true);
  const backup = str('mcts-backup');
  if (backup !== undefined) partial.mctsBackup = backup as ToTConfig['mctsBackup'];
  const bestBy = str('mcts-best-by');
  if (bestBy !== undefined) partial.mctsBestBy = bestBy as ToTConfig['mctsBestBy'];

  let config: ToTConfig;
  try {
    config = resolveConfig(partial);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const latencyMs = number('latency', str('latency'), false) ?? 0;
  if (latencyMs < 0) throw new UsageError('--latency cannot be negative');

  const server = str('server') ?? null;
  if (server !== null && !/^https?:\/\/[^/]/.test(server)) {
    throw new UsageError(`--server must be the server's address, like http://127.0.0.1:3000, got "${server}"`);
  }
  if (str('api-key') !== undefined && server === null) throw new UsageError('--api-key goes with --server');

  return {
    taskId,
    goal,
    config,
    seed: number('seed', str('seed'), true) ?? 1,
    latencyMs,
    eventsFile: str('events') ?? null,
    json: Boolean(values.json),
    server,
    apiKey: str('api-key') ?? (server !== null ? process.env.ARBORIST_API_KEY || null : null),
  };
}
