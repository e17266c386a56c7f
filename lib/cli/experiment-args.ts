/**
 * The experiment command's flags: parsing and validation into one settings object, with messages a person can act on.
 * The goals come from --items, a dataset (a shipped set or a stored one) or a file; each --config is a label and config
 * changes; the model flags apply to every configuration.
 * Not responsible for whether the server accepts the experiment (experiment.estimate says, experiment.ts prints it),
 * for talking to a server (experiment-remote.ts, experiment-local.ts) nor for the output (experiment.ts).
 */
import { parseArgs } from 'node:util';
import type { ExperimentConfiguration } from '../contract/experiments';
import type { ModelSpec } from '../contract/model-spec';
import { TASK_IDS, isTaskId, type TaskId } from '../contract/tasks';
import { toTConfigFields, type ToTConfig } from '../contract/vocabulary';
import { InvalidConfigError, MCTS_DEFAULTS, resolveConfig } from '../engine/index';
import { UsageError } from './args';

export const EXPERIMENT_HELP = `Usage: npm run experiment -- [options]

Runs an experiment: every goal x every configuration x the repetitions, each cell an ordinary run. Prints the cell
count and the cost estimate first, a progress line while it runs, then one row per configuration: success % with its
95% Wilson interval, solved/done, errors, mean cost, tokens, model calls, wall time, explored nodes and backtracks
(experiment.byId's figures, the experiment page's), and the experiment's address.

Goals (exactly one of)
  --items "<goal>"       a goal; repeat it: --items "4 9 10 13" --items "1 1 4 6"
  --dataset <id>         a shipped set (game24:900-909, game24:900-999, ...) or a stored dataset's id
  --file <path>          a dataset file: .jsonl (one JSON object or string per line) or .csv (a header with goal)
  --resume <id>          no new experiment: resume a paused one and follow it to the end

Experiment
  --task <id>            ${TASK_IDS.join(' | ')} (default game24)
  --config "<label>:<key>=<value>,..."
                         a configuration: a label and config changes (the rest is the task's defaults); repeat it:
                         --config "b1:beamWidth=1" --config "b5:beamWidth=5,branchFactor=5"
                         keys: ${Object.keys(toTConfigFields.shape).join(', ')}
                         (strategy= is short for explorationStrategy=); numbers are read as numbers;
                         the mcts* keys go with strategy=mcts (e.g. "uct:strategy=mcts,mctsIterations=80")
  --repetitions <n>      runs per goal and configuration, each with its own seed (default 1)
  --cap <usd>            the most the whole experiment may spend
  --name "<text>"        its name (default: the labels and the item count)

Model (every configuration; none given: the server's default, simulated, seed 1, 150 ms a call)
  --model simulated      the offline simulated model (the only one the CLI starts)
  --seed <n>             its seed (repetition r runs with seed + r)
  --latency <ms>         its latency per model call (default 150)

Server
  --server <url>         run it on an Arborist server (its tRPC API); without it, in this process on the local
                         SQLite database (DATABASE_URL, default ./data/arborist.db), the app's own file
  --api-key <key>        a member's API key, for a server with accounts (or ARBORIST_API_KEY)

Output
  --json                 print the final experiment (experiment.byId) as JSON instead of the table
  -h, --help             this help

Ctrl+C pauses the experiment (no more cells start) and prints how to resume it.
Exit codes: 0 it finished, 1 it failed or was aborted, 2 bad flags or an experiment the server refuses,
130 paused by Ctrl+C.`;

/** Where the goals come from. */
export type ExperimentSource =
  | { kind: 'items'; items: string[] }
  /** A shipped set's id or a stored dataset's id: which one is decided against the shipped list (experiment.ts). */
  | { kind: 'dataset'; id: string }
  | { kind: 'file'; path: string; format: 'jsonl' | 'csv' }
  | { kind: 'resume'; id: string };

export interface ExperimentSettings {
  taskId: TaskId;
  source: ExperimentSource;
  configurations: ExperimentConfiguration[];
  repetitions: number;
  costCapUsd: number | null;
  name: string | null;
  /** Run on this Arborist server, or null: in this process on the local database. */
  server: string | null;
  apiKey: string | null;
  json: boolean;
}

type ConfigKey = keyof ToTConfig;
const CONFIG_KEYS = new Set<string>(Object.keys(toTConfigFields.shape));
const KEY_ALIASES: Record<string, ConfigKey> = { strategy: 'explorationStrategy' };

function number(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${flag} must be ${integer ? 'a whole number' : 'a number'}, got "${raw}"`);
  }
  return value;
}

/** A config value as typed: a number when it reads as one, true/false, null/none, else the text (a strategy's name). */
function configValue(raw: string): unknown {
  const text = raw.trim();
  if (text !== '' && Number.isFinite(Number(text))) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === 'none') return null;
  return text;
}

/**
 * One --config "label:key=value,key=value": the label and its config changes, each checked by the config's own schema,
 * then the whole config over the defaults (resolveConfig, as the server does), so a rule between fields is refused here.
 */
export function parseConfiguration(raw: string): ExperimentConfiguration {
  const colon = raw.indexOf(':');
  const label = (colon < 0 ? raw : raw.slice(0, colon)).trim();
  if (!label) throw new UsageError(`--config "${raw}" needs a label before the colon, like "b1:beamWidth=1"`);
  const config: Record<string, unknown> = {};
  const body = colon < 0 ? '' : raw.slice(colon + 1).trim();
  for (const pair of body ? body.split(',') : []) {
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (eq < 0 || !name)
      throw new UsageError(`--config "${raw}": "${pair.trim()}" is not key=value (like beamWidth=5)`);
    const key = KEY_ALIASES[name] ?? name;
    if (!CONFIG_KEYS.has(key))
      throw new UsageError(`--config "${raw}": unknown key "${name}"; the keys are ${[...CONFIG_KEYS].join(', ')}`);
    if (key in config) throw new UsageError(`--config "${raw}": ${key} is given twice`);
    config[key] = configValue(pair.slice(eq + 1));
  }
  const checked = toTConfigFields.partial().safeParse(config);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new UsageError(`--config "${raw}": ${issue.path.join('.') || 'config'}: ${issue.message}`);
  }
  // another strategy drops the mcts* fields (resolveConfig): refused here rather than run without them
  const mctsKey = Object.keys(checked.data).find((key) => key in MCTS_DEFAULTS);
  if (mctsKey && checked.data.explorationStrategy !== 'mcts')
    throw new UsageError(`--config "${raw}": ${mctsKey} is for strategy=mcts`);
  // the rules between fields (a rollout deeper than maxDepth) as the server will check them, over the same defaults
  try {
    resolveConfig(checked.data);
  } catch (error) {
    if (!(error instanceof InvalidConfigError)) throw error;
    const issue = error.issues[0]!;
    throw new UsageError(`--config "${raw}": ${issue.path}: ${issue.message}`);
  }
  return { label, config: checked.data };
}

function formatOf(path: string): 'jsonl' | 'csv' {
  if (/\.jsonl$|\.ndjson$/i.test(path)) return 'jsonl';
  if (/\.csv$/i.test(path)) return 'csv';
  throw new UsageError(`--file "${path}": name a .jsonl or a .csv file`);
}

/** Parses argv (without node and the script); returns null when help was asked for. */
export function parseExperimentArgs(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): ExperimentSettings | null {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        task: { type: 'string' },
        items: { type: 'string', multiple: true },
        dataset: { type: 'string' },
        file: { type: 'string' },
        resume: { type: 'string' },
        config: { type: 'string', multiple: true },
        repetitions: { type: 'string' },
        cap: { type: 'string' },
        name: { type: 'string' },
        model: { type: 'string' },
        seed: { type: 'string' },
        latency: { type: 'string' },
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
  const list = (key: string) => (values[key] as string[] | undefined) ?? [];

  const taskId = str('task') ?? 'game24';
  if (!isTaskId(taskId)) throw new UsageError(`unknown task "${taskId}": use one of ${TASK_IDS.join(', ')}`);

  const given = [
    list('items').length > 0 && '--items',
    str('dataset') !== undefined && '--dataset',
    str('file') !== undefined && '--file',
    str('resume') !== undefined && '--resume',
  ].filter((x): x is string => Boolean(x));
  if (given.length === 0)
    throw new UsageError('give the goals: --items "<goal>" (repeated), --dataset <id> or --file <path>');
  if (given.length > 1)
    throw new UsageError(`give one of --items, --dataset, --file or --resume, not ${given.join(' and ')}`);

  let source: ExperimentSource;
  if (list('items').length > 0) {
    const items = list('items').map((item) => item.trim());
    if (items.some((item) => item === '')) throw new UsageError('--items cannot be empty');
    source = { kind: 'items', items };
  } else if (str('dataset') !== undefined) {
    const id = str('dataset')!.trim();
    if (!id) throw new UsageError('--dataset needs an id, like game24:900-909');
    source = { kind: 'dataset', id };
  } else if (str('file') !== undefined) {
    const path = str('file')!.trim();
    source = { kind: 'file', path, format: formatOf(path) };
  } else {
    const id = str('resume')!.trim();
    if (!id) throw new UsageError("--resume needs the experiment's id");
    source = { kind: 'resume', id };
  }

  const resuming = source.kind === 'resume';
  const experimentFlags = ['config', 'repetitions', 'cap', 'name', 'model', 'seed', 'latency'].filter(
    (flag) => values[flag] !== undefined,
  );
  if (resuming && experimentFlags.length > 0)
    throw new UsageError(`--resume follows an experiment as it was made: drop --${experimentFlags.join(', --')}`);

  const modelName = str('model');
  if (modelName !== undefined && modelName !== 'simulated')
    throw new UsageError(`--model "${modelName}": the CLI starts the simulated model only (other models: the page)`);
  const seed = number('seed', str('seed'), true);
  if (seed !== undefined && seed < 0) throw new UsageError('--seed cannot be negative');
  const latencyMs = number('latency', str('latency'), true);
  if (latencyMs !== undefined && latencyMs < 0) throw new UsageError('--latency cannot be negative');
  const model: ModelSpec | undefined =
    modelName !== undefined || seed !== undefined || latencyMs !== undefined
      ? { provider: 'simulated', seed: seed ?? 1, latencyMs: latencyMs ?? 150 }
      : undefined;

  const configurations = list('config').map((raw) => ({ ...parseConfiguration(raw), ...(model && { model }) }));
  if (!resuming && configurations.length === 0)
    throw new UsageError(
      'give at least one configuration: --config "<label>:<key>=<value>,..." (e.g. "b1:beamWidth=1")',
    );
  const labels = new Set<string>();
  for (const { label } of configurations) {
    if (labels.has(label)) throw new UsageError(`two configurations are labelled "${label}"`);
    labels.add(label);
  }

  const repetitions = number('repetitions', str('repetitions'), true) ?? 1;
  if (repetitions < 1) throw new UsageError('--repetitions must be at least 1');
  const costCapUsd = number('cap', str('cap'), false) ?? null;
  if (costCapUsd !== null && costCapUsd <= 0) throw new UsageError('--cap must be more than 0 (USD)');
  const name = str('name')?.trim() || null;

  const server = str('server')?.replace(/\/+$/, '') ?? null;
  if (server !== null && !/^https?:\/\/[^/]/.test(server)) {
    throw new UsageError(`--server must be the server's address, like http://127.0.0.1:3000, got "${server}"`);
  }
  if (str('api-key') !== undefined && server === null) throw new UsageError('--api-key goes with --server');

  return {
    taskId,
    source,
    configurations,
    repetitions,
    costCapUsd,
    name,
    server,
    apiKey: str('api-key') ?? (server !== null ? env.ARBORIST_API_KEY || null : null),
    json: Boolean(values.json),
  };
}
