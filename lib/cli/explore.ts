/**
 * `npm run explore`: one search from the terminal on the offline model. A live progress line while it runs,
 * then the best path, the answer, whether it verified, and the stats; --events writes the log as NDJSON.
 * Exit codes: 0 done, 1 the search failed to run, 2 bad flags.
 * Not responsible for flag parsing (args.ts) or the search (lib/engine).
 */
import { createWriteStream } from 'node:fs';
import { describeAction, type ToTResult, type ToTStats } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { HELP, UsageError, parseCliArgs } from './args';

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

  const result = await new ThoughtTreeExecutor(settings.config).explore({ name: 'cli', model }, settings.goal, {
    task: entry.task,
    onEvent: (event) => events?.write(`${JSON.stringify(event)}\n`),
    onProgress: (stats) => {
      if (live) process.stderr.write(`\r\x1b[2K${progressLine(stats, Date.now() - started)}`);
    },
  });
  if (live) process.stderr.write(`\r\x1b[2K${progressLine(result.stats, Date.now() - started)}\n`);
  if (events)
    await new Promise<void>((resolve, reject) => events.end((err?: Error | null) => (err ? reject(err) : resolve())));

  if (settings.json) {
    const { tree: _tree, ...rest } = result;
    process.stdout.write(
      `${JSON.stringify({ ...rest, bestPath: result.bestPath.map((n) => n.branch?.thought ?? null) }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `${entry.label}: ${settings.goal} · ${settings.config.explorationStrategy} · seed ${settings.seed}\n`,
    );
    process.stdout.write(`${report(result)}\n`);
    if (settings.eventsFile)
      process.stdout.write(`Events:   ${result.tree.lastSeq} written to ${settings.eventsFile}\n`);
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
