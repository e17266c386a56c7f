/**
 * `npm run explore`: one search from the terminal on the offline model. A live progress line while it runs,
 * then the best path, the answer, whether it verified, and the stats; --events writes the log as NDJSON;
 * --server streams it live to an Arborist server and takes steering from its page (remote.ts).
 * Exit codes: 0 done, 1 the search failed to run, 2 bad flags.
 * Not responsible for flag parsing (args.ts) or the search (lib/engine).
 */
import { createWriteStream } from 'node:fs';
import { describeAction, type ToTResult, type ToTStats } from '../engine/index';
import type { FinishSummary } from '../sdk/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { HELP, UsageError, parseCliArgs } from './args';
import { RemoteRun } from './remote';

function progressLine(stats: ToTStats, elapsedMs: number): string {
  return (
    `explored ${stats.exploredNodes}/${stats.totalNodes} nodes · depth ${stats.maxDepthReached} · ` +
    `backtracks ${stats.backtrackCount} · model calls ${stats.modelCalls} · ${(elapsedMs / 1000).toFixed(1)}s`
  );
}

function report(result: ToTResult): string {
  const s = result.stats;
  const lines = ['', 'Best path:'];
  for (const node of result.bestPath) {
    if (!node.branch) {
      lines.push(`  goal: ${result.tree.goal}`);
      continue;
    }
    const mark = node.verification ? (node.verification.passed ? '✓' : '✗') : '·';
    lines.push(`  ${'  '.repeat(node.depth - 1)}${mark} ${node.branch.thought}  [${node.score?.composite.toFixed(2)}]`);
    if (node.branch.proposedAction.type !== 'response') {
      lines.push(`  ${'  '.repeat(node.depth)}${describeAction(node.branch.proposedAction)}`);
    }
  }
  const verified = result.verified === null ? 'not checked by this task' : result.verified ? 'yes' : 'no';
  const source =
    result.answerSource === 'node'
      ? 'found by the search'
      : result.answerSource === 'synthesis'
        ? 'written by one synthesis call from the best path'
        : 'no answer';
  lines.push(
    '',
    `Answer:   ${result.output || '(none)'}  (${source})`,
    `Verified: ${verified}`,
    `Success:  ${result.success ? 'yes' : 'no'} (stopped: ${result.finishReason}${result.tree.finishDetail ? `, ${result.tree.finishDetail}` : ''})`,
    '',
    `Nodes:    ${s.exploredNodes} explored of ${s.totalNodes} created, ${s.prunedNodes} dropped below threshold, depth ${s.maxDepthReached}`,
    `Search:   ${s.backtrackCount} backtracks, ${s.llmCalls} executor model calls (${s.modelCalls} in all)`,
    `Tokens:   ${s.tokenUsage.inputTokens} in, ${s.tokenUsage.outputTokens} out · cost $${s.cost.toFixed(6)} (simulated model, priced as a small hosted model)`,
    `Time:     ${result.usage.duration} ms`,
  );
  return lines.join('\n');
}

function serverLine({ url, finished, stats }: FinishSummary): string {
  const where = url ?? 'the server (never reached)';
  const lost = stats.dropped > 0 ? `, ${stats.dropped} dropped` : '';
  return (
    `Server:   ${stats.sent} items to ${where}${finished ? '' : ' (not finished there)'} · ` +
    `${stats.retried} retried${lost} · ${stats.commands} commands from the page`
  );
}

async function main(argv: string[]): Promise<number> {
  let settings;
  try {
    settings = parseCliArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`explore: ${error.message}\nRun with --help to see the options.\n`);
      return 2;
    }
    throw error;
  }
  if (!settings) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }

  const entry = getTaskEntry(settings.taskId);
  const model = createSimulatedModel({ seed: settings.seed, latencyMs: settings.latencyMs });
  const events = settings.eventsFile ? createWriteStream(settings.eventsFile) : null;
  const live = process.stderr.isTTY && !settings.json;
  const started = Date.now();
  const remote = settings.server
    ? new RemoteRun({
        server: settings.server,
        apiKey: settings.apiKey ?? undefined,
        goal: settings.goal,
        taskId: settings.taskId,
        config: settings.config,
        onWarning: (w) => process.stderr.write(`${live ? '\r\x1b[2K' : ''}explore: ${w.message}\n`),
      })
    : null;
  // the address as soon as the server has the run, so a person (or a test) can open it while the search runs
  void remote?.run.ready.then((info) => {
    if (info) (settings.json ? process.stderr : process.stdout).write(`Run:      ${info.url}\n`);
  });

  let result: ToTResult;
  try {
    result = await new ThoughtTreeExecutor(settings.config).explore({ name: 'cli', model }, settings.goal, {
      task: entry.task,
      control: remote?.control,
      onEvent: (event) => {
        events?.write(`${JSON.stringify(event)}\n`);
        remote?.onEvent(event);
      },
      onProgress: (stats) => {
        if (live) process.stderr.write(`\r\x1b[2K${progressLine(stats, Date.now() - started)}`);
      },
    });
  } catch (error) {
    await remote?.finish(null, error);
    throw error;
  }
  if (live) process.stderr.write(`\r\x1b[2K${progressLine(result.stats, Date.now() - started)}\n`);
  if (events)
    await new Promise<void>((resolve, reject) => events.end((err?: Error | null) => (err ? reject(err) : resolve())));
  const delivered = remote ? await remote.finish(result) : null;

  if (settings.json) {
    const { tree: _tree, ...rest } = result;
    const bestPath = result.bestPath.map((n) => n.branch?.thought ?? null);
    process.stdout.write(
      `${JSON.stringify({ ...rest, bestPath, ...(delivered && { server: delivered }) }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `${entry.label}: ${settings.goal} · ${settings.config.explorationStrategy} · seed ${settings.seed}\n`,
    );
    process.stdout.write(`${report(result)}\n`);
    if (settings.eventsFile)
      process.stdout.write(`Events:   ${result.tree.lastSeq} written to ${settings.eventsFile}\n`);
    if (delivered) process.stdout.write(`${serverLine(delivered)}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`explore: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
