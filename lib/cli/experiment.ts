/**
 * `npm run experiment`: an experiment from the terminal, goals x configurations x repetitions, every cell an ordinary
 * run. Prints the cell count and the cost estimate (experiment.estimate; a refusal is printed with its field and the
 * command exits 2), creates the experiment, follows it with a progress line (redrawn in place on a TTY, a plain line
 * every few seconds otherwise), then prints each configuration's figures from experiment.byId and the experiment's
 * address. Ctrl+C pauses it (experiment.pause) and says how to resume; locally it then waits for the cells in flight
 * (a second Ctrl+C stops them at once: the app's next start resumes them).
 * On a server with --server (experiment-remote.ts), else in this process on the local database (experiment-local.ts):
 * both through the same procedures (experiment-api.ts).
 * Exit codes: 0 finished, 1 failed or aborted, 2 bad flags or refused, 130 paused by Ctrl+C.
 * Not responsible for flag parsing (experiment-args.ts), the figures (lib/server, lib/experiments) nor their layout
 * (experiment-table.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { DATASET_MAX_BYTES, type CreateExperimentInput, type ExperimentView } from '../contract/experiments';
import { shippedDataset } from '../experiments/index';
import { UsageError } from './args';
import type { ExperimentApi } from './experiment-api';
import { EXPERIMENT_HELP, parseExperimentArgs, type ExperimentSettings } from './experiment-args';
import { LocalModeError, localExperimentApi } from './experiment-local';
import { remoteExperimentApi } from './experiment-remote';
import { estimateLine, formatTable, labelLines, progressLine, summaryLines } from './experiment-table';

/** How often the experiment is read while it runs: locally it is a few queries; a server is asked less often. */
const POLL_LOCAL_MS = 300;
const POLL_REMOTE_MS = 1_000;
/** Without a TTY, a plain progress line this often (and at the end). */
const PLAIN_EVERY_MS = 5_000;

/** A refusal the person can act on (exit 2), as opposed to a failure (exit 1). */
class Refused extends Error {}

const REFUSAL_CODES = new Set(['BAD_REQUEST', 'FORBIDDEN', 'UNAUTHORIZED', 'NOT_FOUND', 'CONFLICT']);

/** The tRPC code of an error from either mode: TRPCError (createCaller) or TRPCClientError (HTTP). */
function trpcCode(error: unknown): string | null {
  const e = error as { code?: unknown; data?: { code?: unknown } } | null;
  const code = e?.data?.code ?? e?.code;
  return typeof code === 'string' ? code : null;
}

/** Calls a procedure; a refusal becomes Refused with the server's words. */
async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = trpcCode(error);
    if (code && REFUSAL_CODES.has(code)) throw new Refused(`${what}: ${(error as Error).message}`);
    throw error;
  }
}

/** The experiment's input: the goals as typed, or a dataset (a shipped set and a file become one first). */
async function experimentInput(api: ExperimentApi, settings: ExperimentSettings): Promise<CreateExperimentInput> {
  const common = {
    taskId: settings.taskId,
    configurations: settings.configurations,
    repetitions: settings.repetitions,
    ...(settings.name !== null && { name: settings.name }),
    ...(settings.costCapUsd !== null && { costCapUsd: settings.costCapUsd }),
  };
  const source = settings.source;
  if (source.kind === 'items') return { ...common, items: source.items };
  if (source.kind === 'resume') throw new Error('a resumed experiment has no input');
  const shipped = source.kind === 'dataset' ? shippedDataset(source.id) : null;
  if (source.kind === 'dataset' && !shipped) return { ...common, datasetId: source.id };
  let dataset;
  if (shipped) {
    if (shipped.taskId !== settings.taskId)
      throw new Refused(`--dataset ${shipped.id} is a set of the ${shipped.taskId} task: add --task ${shipped.taskId}`);
    // the shipped set becomes a stored dataset, as the page's "shipped" choice makes it
    dataset = await ask(`--dataset ${shipped.id}`, () =>
      api.createDataset({ name: shipped.name, taskId: shipped.taskId, shipped: shipped.id }),
    );
  } else {
    if (source.kind !== 'file') throw new Error('unreachable: a stored dataset is used as it is');
    let text: string;
    try {
      if (statSync(source.path).size > DATASET_MAX_BYTES)
        throw new Refused(`--file ${source.path}: more than ${DATASET_MAX_BYTES / 1024 / 1024} MB`);
      text = readFileSync(source.path, 'utf8');
    } catch (error) {
      if (error instanceof Refused) throw error;
      throw new Refused(`--file ${source.path}: ${(error as Error).message}`);
    }
    dataset = await ask(`--file ${source.path}`, () =>
      api.createDataset({
        name: basename(source.path),
        taskId: settings.taskId,
        file: { format: source.format, text },
      }),
    );
  }
  process.stderr.write(`Dataset:    ${dataset.id} (version ${dataset.version}, ${dataset.itemCount} items)\n`);
  return { ...common, datasetId: dataset.id };
}

const ended = (view: ExperimentView) => view.status === 'finished' || view.status === 'aborted';
/** Cells whose run exists and has not ended: what a pause lets finish. */
const inFlight = (view: ExperimentView) =>
  view.cells.filter((c) => c.runId !== null && (c.outcome === 'queued' || c.outcome === 'running')).length;

interface Follow {
  view: ExperimentView;
  /** Paused by Ctrl+C here. */
  paused: boolean;
}

/** Reads the experiment until it ends (or Ctrl+C pauses it), drawing the progress line. */
async function follow(
  api: ExperimentApi,
  id: string,
  settings: ExperimentSettings,
  resumeHint: string,
): Promise<Follow> {
  const tty = Boolean(process.stderr.isTTY);
  const pollMs = settings.server ? POLL_REMOTE_MS : POLL_LOCAL_MS;
  let interrupts = 0;
  let wake = () => {};
  const onSigint = () => {
    interrupts += 1;
    wake();
  };
  process.on('SIGINT', onSigint);
  let lastPlain = 0;
  let paused = false;
  const draw = (view: ExperimentView, final = false) => {
    if (tty) process.stderr.write(`\r\x1b[2K${progressLine(view)}${final ? '\n' : ''}`);
    else if (final || Date.now() - lastPlain >= PLAIN_EVERY_MS) {
      lastPlain = Date.now();
      process.stderr.write(`${progressLine(view)}\n`);
    }
  };
  const say = (line: string) => process.stderr.write(`${tty ? '\r\x1b[2K' : ''}${line}\n`);
  try {
    for (;;) {
      const view = await api.byId(id);
      if (ended(view)) {
        draw(view, true);
        return { view, paused };
      }
      if (interrupts > 0 && !paused) {
        paused = true;
        if (view.status === 'running') await ask('pause', () => api.pause(id));
        const left = inFlight(view);
        say(`Paused: no more cells start. Resume with ${resumeHint} or on its page.`);
        if (settings.server) {
          draw(view, true);
          return { view: await api.byId(id), paused };
        }
        if (left > 0)
          say(`Waiting for the ${left} cell(s) in flight; Ctrl+C again stops them now (the app resumes them).`);
      }
      if (paused && (inFlight(view) === 0 || interrupts > 1)) {
        draw(view, true);
        return { view, paused };
      }
      draw(view);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function run(api: ExperimentApi, settings: ExperimentSettings): Promise<number> {
  const serverFlag = settings.server ? ` --server ${settings.server}` : '';
  let id: string;
  if (settings.source.kind === 'resume') {
    id = settings.source.id;
    const view = await ask(`experiment ${id}`, () => api.byId(id));
    if (view.status === 'paused') await ask('resume', () => api.resume(id));
    process.stderr.write(`Resumed:    ${view.name} (${view.progress.done}/${view.progress.total} cells done)\n`);
  } else {
    const input = await experimentInput(api, settings);
    const estimate = await ask('estimate', () => api.estimate(input));
    if (estimate.problems.length > 0) {
      for (const p of estimate.problems) process.stderr.write(`experiment: ${p.field}: ${p.message}\n`);
      return 2;
    }
    process.stderr.write(
      `${estimateLine(estimate, { configurations: settings.configurations.length, repetitions: settings.repetitions })}\n`,
    );
    ({ id } = await ask('create', () => api.create(input)));
  }
  const address = `${api.base}/experiments/${id}`;
  process.stderr.write(`Experiment: ${id} · ${address}\n`);
  const { view, paused } = await follow(api, id, settings, `npm run experiment -- --resume ${id}${serverFlag}`);
  if (settings.json) process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
  else {
    const under = [...labelLines(view.configurations), ...summaryLines(view, address)];
    process.stdout.write(`\n${formatTable(view)}\n\n${under.join('\n')}\n`);
  }
  if (paused) return 130;
  return view.status === 'finished' ? 0 : 1;
}

async function main(argv: string[]): Promise<number> {
  let settings;
  try {
    settings = parseExperimentArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`experiment: ${error.message}\nRun with --help to see the options.\n`);
      return 2;
    }
    throw error;
  }
  if (!settings) {
    process.stdout.write(`${EXPERIMENT_HELP}\n`);
    return 0;
  }
  let api: ExperimentApi;
  try {
    api = settings.server ? remoteExperimentApi(settings.server, settings.apiKey) : await localExperimentApi();
  } catch (error) {
    if (error instanceof LocalModeError) {
      process.stderr.write(`experiment: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  try {
    return await run(api, settings);
  } catch (error) {
    if (error instanceof Refused) {
      process.stderr.write(`experiment: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await api.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`experiment: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
