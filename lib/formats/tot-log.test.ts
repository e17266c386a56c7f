// The Tree-of-Thoughts log importer on the paper authors' own GPT-4 log (fixtures/, 5 games): every candidate
// and value is there, every final answer's verification agrees with the log's r, each game's tokens and dollars
// are the differences of the running totals, and the events fold like any run's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { fold, pathTo, type ThoughtNode } from '../engine/index';
import { getPuzzle, isAnswerLine } from '../tasks/index';
import { buildExport, validateRunExport } from './export';
import { type ImportedRunDraft, type TotGame, describeValue, parseTotLog, valueScore } from './tot-log';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit the JSON freely
type Json = any;
const REPEAT = 'value 0 (a repeat of an earlier candidate of this step: the log does not value it again)';
const SAMPLE = new URL('./fixtures/tot-game24-gpt4-bfs-sample.json', import.meta.url);
const readSample = () => JSON.parse(readFileSync(SAMPLE, 'utf8')) as TotGame[];

function importSample(): { log: TotGame[]; runs: ImportedRunDraft[] } {
  const log = readSample();
  const parsed = parseTotLog(log, { now: Date.UTC(2025, 0, 1) });
  if (!parsed.ok) throw new Error(parsed.error);
  return { log, runs: parsed.runs };
}

/** The text a node stands for in the log: its path's lines, each with its newline (an empty one shown as such). */
const textOf = (run: ImportedRunDraft, node: ThoughtNode) =>
  pathTo(run.tree, node.id)
    .slice(1)
    .map((n) => (n.branch?.thought === '(an empty line)' ? '\n' : `${n.branch?.thought}\n`))
    .join('');

describe('parseTotLog on the GPT-4 sample', () => {
  const { log, runs } = importSample();

  it('makes one game24 run per game, on the puzzle of `x` (the same as the paper row idx)', () => {
    expect(runs).toHaveLength(5);
    expect(runs.map((r) => r.goal)).toEqual(['4 5 6 10', '1 2 4 7', '2 5 8 11', '3 4 4 13', '6 7 8 9']);
    runs.forEach((run, g) => {
      const game = log[g] as TotGame;
      expect(run.goal).toBe(getPuzzle(game.idx).numbers.join(' '));
      expect(run).toMatchObject({ taskId: 'game24', modelId: 'gpt-4', modelLabel: 'gpt-4 (imported log)', seed: null });
      expect(run.config).toMatchObject({ explorationStrategy: 'beam', beamWidth: 5, maxDepth: 4 });
      expect(run.tree.status).toBe('finished');
      expect(run.tree.stats.exploredNodes).toBe(20); // 5 kept and run per step, 4 steps
    });
    // the most candidates one state got (12 from the root of game 900); game 901's 23 is capped at the engine's 20
    expect(runs.map((r) => r.config.branchFactor)).toEqual([12, 20, 15, 8, 12]);
  });

  it('holds every candidate of every step as a node, with its value, and runs exactly the selected ones', () => {
    runs.forEach((run, g) => {
      const game = log[g] as TotGame;
      const nodes = run.tree.nodeOrder.map((id) => run.tree.nodes[id] as ThoughtNode).filter((n) => n.branch);
      expect(nodes).toHaveLength(game.steps.reduce((sum, s) => sum + s.new_ys.length, 0));
      for (const step of game.steps) {
        const atDepth = nodes.filter((n) => n.depth === step.step + 1);
        // the same candidates (as texts, duplicates included) with the same values, in the log's order
        expect(atDepth.map((n) => textOf(run, n)).sort()).toEqual([...step.new_ys].sort());
        for (const [j, text] of step.new_ys.entries()) {
          // a text repeated in a step is one node per occurrence, in the log's order
          const occurrence = step.new_ys.slice(0, j).filter((t) => t === text).length;
          const node = atDepth.filter((n) => textOf(run, n) === text)[occurrence];
          const value = step.values[j] as number;
          expect(node?.score?.reasoning).toBe(occurrence > 0 && value === 0 ? REPEAT : describeValue(value));
          // the log's own value, and no number of ours: confidence, progress and novelty were never measured
          expect(node?.score).toMatchObject({
            logValue: { value, max: 60 },
            confidence: null,
            progress: null,
            novelty: null,
            composite: Math.min(1, value / 60),
          });
        }
        const run_ = atDepth.filter((n) => n.status === 'completed');
        expect(run_.map((n) => textOf(run, n)).sort()).toEqual([...step.select_new_ys].sort());
        expect(atDepth.filter((n) => n.status === 'pending')).toHaveLength(
          step.new_ys.length - step.select_new_ys.length,
        );
      }
    });
  });

  it("gives every final candidate a verdict equal to the log's r, and counts a game solved when any r is 1", () => {
    let compared = 0;
    runs.forEach((run, g) => {
      const game = log[g] as TotGame;
      expect(run.source.finals).toHaveLength(game.ys.length);
      run.source.finals.forEach((final, i) => {
        const node = run.tree.nodes[final.nodeId] as ThoughtNode;
        expect(textOf(run, node)).toBe(game.ys[i]);
        expect(final.r).toBe(game.infos[i]?.r);
        // the verdict is our own check, from the puzzle: an answer line that verifies at its node
        expect({ game: g, final: i, solved: final.solved }).toEqual({
          game: g,
          final: i,
          solved: Boolean(node.result?.isAnswer && node.verification?.passed),
        });
        expect({ game: g, final: i, solved: final.solved }).toEqual({ game: g, final: i, solved: final.r === 1 });
        // and no final candidate the log calls wrong passes its node's check (a move line included)
        if (final.r === 0)
          expect({ game: g, final: i, passed: node.verification?.passed }).toMatchObject({ passed: false });
        compared++;
      });
    });
    expect(compared).toBe(25);
    const solvedInLog = log.filter((game) => game.infos.some((info) => info.r === 1)).length;
    expect(solvedInLog).toBe(4);
    expect(runs.filter((run) => run.tree.verified === true && run.tree.success === true)).toHaveLength(solvedInLog);
  });

  it('ends with the best verified final answer as the output, and never names a failed node best', () => {
    expect(runs.map((r) => [r.tree.output, r.tree.verified, r.tree.success, r.tree.answerSource])).toEqual([
      ['Answer: (4 * 5) + (10 - 6) = 24', true, true, 'node'],
      ['Answer: 4 * (1 + 7 - 2) = 24', true, true, 'node'],
      // every final candidate fails its check (the log's highest-valued one leaves out 2, 5 and 11): no output
      ['', false, false, 'none'],
      ['Answer: 4 * (13 - (3 + 4)) = 24', true, true, 'node'],
      ['Answer: (6 / (9 - 7)) * 8 = 24', true, true, 'node'],
    ]);
    for (const run of runs) {
      expect(run.tree.finishReason).toBe('frontier-empty');
      expect(run.tree.finishDetail).toContain(`puzzle idx ${run.source.idx}`);
      const best = run.tree.bestNodeId ? run.tree.nodes[run.tree.bestNodeId] : null;
      expect(best?.verification?.passed ?? true).toBe(true);
    }
    expect(runs.map((r) => r.tree.bestNodeId)).toEqual(
      runs.map((r) => r.source.finals.find((f) => f.solved)?.nodeId ?? null),
    );
    expect(runs[2]?.tree.finishDetail).toContain('Answer: 3 * 8 = 24');
  });

  it('prefers a verified answer to a higher-valued wrong one', () => {
    const edited = readSample();
    const game = edited[0] as TotGame;
    const last = game.steps[3] as TotGame['steps'][number];
    // the two right answers lose their lead: a dead end gets the top value (the greedy order is kept by text)
    const deadEnd = game.ys[2] as string;
    last.values = last.values.map((v, j) => (last.new_ys[j] === deadEnd ? 90 : v));
    last.select_new_ys = [deadEnd, ...last.select_new_ys.filter((y) => y !== deadEnd)];
    game.ys = last.select_new_ys;
    game.infos = game.ys.map((y) => ({ r: y.includes('Answer:') ? 1 : 0 }));
    const parsed = parseTotLog(edited);
    if (!parsed.ok) throw new Error(parsed.error);
    const run = parsed.runs[0] as ImportedRunDraft;
    expect(run.tree.output).toBe('Answer: (4 * 5) + (10 - 6) = 24');
    expect(run.tree.verified).toBe(true);
  });

  it("gives each game its share of the log's running token and dollar totals", () => {
    let previous = { prompt_tokens: 0, completion_tokens: 0, cost: 0 };
    runs.forEach((run, g) => {
      const total = (log[g] as TotGame).usage_so_far as typeof previous;
      const stats = run.tree.stats;
      expect(stats.tokenUsage.inputTokens).toBe(total.prompt_tokens - previous.prompt_tokens);
      expect(stats.tokenUsage.outputTokens).toBe(total.completion_tokens - previous.completion_tokens);
      expect(stats.cost).toBeCloseTo(total.cost - previous.cost, 9);
      expect(stats.unpricedCalls).toBe(0);
      expect(stats.modelCalls).toBe(1);
      previous = total;
    });
    expect(runs[0]?.tree.stats).toMatchObject({
      tokenUsage: { inputTokens: 28451, outputTokens: 9161 },
      cost: 1.40319,
    });
    // the sum over the file is the last running total
    const sum = runs.reduce((s, r) => s + r.tree.stats.cost, 0);
    expect(sum).toBeCloseTo(7.03659, 9);
  });

  it('emits events that fold from scratch into the same tree, and pass as an Arborist export', () => {
    for (const run of runs) {
      expect(fold(run.events)).toEqual(run.tree);
      const file = buildExport(
        {
          id: run.events[0]?.runId as string,
          taskId: run.taskId,
          goal: run.goal,
          modelId: run.modelId,
          modelLabel: run.modelLabel,
          modelSettings: run.modelSettings,
          config: run.config,
          seed: run.seed,
          status: 'finished',
          finishReason: 'frontier-empty',
          createdAt: run.createdAt,
          startedAt: run.createdAt,
          finishedAt: run.createdAt,
          importTag: 'tot-log:test',
          parentRunId: null,
          parentNodeId: null,
        },
        run.events,
      );
      const checked = validateRunExport(JSON.parse(JSON.stringify(file)));
      expect(checked.ok ? 'ok' : checked.error).toBe('ok');
    }
  });

  it('keeps the raw value and its words in the reasoning, and scores on the 0..60 scale', () => {
    expect(describeValue(21.001)).toBe('value 21.001 (sure ×1, likely ×1, impossible ×1)');
    expect(describeValue(60)).toBe('value 60 (sure ×3)');
    expect(describeValue(2.001)).toBe('value 2.001 (likely ×2, impossible ×1)');
    expect(describeValue(0.003)).toBe('value 0.003 (impossible ×3)');
    expect(describeValue(0)).toBe('value 0 (no sample gave a verdict)');
    expect(describeValue(0.5)).toBe('value 0.5');
    expect(valueScore(60)).toEqual({
      confidence: null,
      progress: null,
      novelty: null,
      composite: 1,
      reasoning: 'value 60 (sure ×3)',
      fallback: false,
      logValue: { value: 60, max: 60 },
    });
    expect(valueScore(21.001)).toMatchObject({ composite: 21.001 / 60, logValue: { value: 21.001, max: 60 } });
    expect(valueScore(90).composite).toBe(1);
    const events = runs[0]?.events ?? [];
    const scored = events.filter(
      (e): e is Extract<ExplorationEvent, { type: 'branch.scored' }> => e.type === 'branch.scored',
    );
    expect(scored.length).toBe(80);
    expect(scored.every((e) => /^value [\d.]+/.test(e.payload.score.reasoning))).toBe(true);
  });

  it('runs the answers it keeps as answers (isAnswer) and the moves as moves', () => {
    for (const run of runs) {
      for (const node of Object.values(run.tree.nodes)) {
        if (node.result) expect(node.result.isAnswer).toBe(isAnswerLine(node.result.response));
      }
    }
  });

  it('names the model from the option', () => {
    const parsed = parseTotLog(readSample(), { modelId: 'gpt-4-0613' });
    expect(parsed.ok && parsed.runs[0]).toMatchObject({
      modelId: 'gpt-4-0613',
      modelLabel: 'gpt-4-0613 (imported log)',
    });
  });
});

describe('parseTotLog refuses a log it cannot read, saying where', () => {
  const broken = (change: (log: Json[]) => void) => {
    const log = readSample() as Json[];
    change(log);
    const parsed = parseTotLog(log);
    return parsed.ok ? 'accepted' : parsed.error;
  };

  it('for shapes and cross-checks', () => {
    expect(parseTotLog([])).toEqual({ ok: false, error: 'not a Tree-of-Thoughts log: the log has no games' });
    expect(broken((l) => delete l[1].steps)).toBe(
      'not a Tree-of-Thoughts log: [1].steps: Invalid input: expected array, received undefined',
    );
    expect(broken((l) => l[0].steps[2].values.pop())).toBe(
      'not a usable Tree-of-Thoughts log: [0].steps[2].values: 18 values for 19 candidates',
    );
    expect(broken((l) => (l[0].steps[1].new_ys[3] = 'nonsense'))).toBe(
      "not a usable Tree-of-Thoughts log: [0].steps[1].new_ys[3] extends none of the step's states (ys)",
    );
    expect(broken((l) => (l[2].steps[2].ys[0] = 'x'))).toMatch(
      /^not a usable Tree-of-Thoughts log: \[2\]\.steps\[2\]\.ys: expected the states kept by step 1/,
    );
    expect(broken((l) => l.forEach((g) => g.steps.forEach((s: { x: string }) => (s.x = '1 2 3'))))).toMatch(
      /^not a usable Tree-of-Thoughts log: \[0\]\.steps\[0\]\.x: a Game of 24 puzzle is four whole numbers/,
    );
    expect(broken((l) => (l[3].usage_so_far.cost = 1))).toBe(
      "not a usable Tree-of-Thoughts log: [3].usage_so_far: the running total is lower than the previous game's",
    );
    expect(broken((l) => l[4].infos.pop())).toBe(
      'not a usable Tree-of-Thoughts log: [4].infos: 4 entries for 5 final candidates',
    );
  });

  it('takes a selection that is not greedy by matching texts, and a log without usage', () => {
    const log = readSample();
    const step = log[0]?.steps[0] as TotGame['steps'][number];
    step.values = step.values.map(() => 1); // every candidate ties: the greedy replay still picks the first five
    const swapped = [...step.select_new_ys].reverse();
    step.select_new_ys = swapped;
    (log[0]?.steps[1] as TotGame['steps'][number]).ys = swapped;
    // the next step's candidates keep their block order, so their states must follow the new order too
    const next = log[0]?.steps[1] as TotGame['steps'][number];
    const order = (y: string) => swapped.findIndex((s) => y.startsWith(s));
    const sorted = next.new_ys
      .map((y, i) => ({ y, v: next.values[i] as number }))
      .sort((a, b) => order(a.y) - order(b.y));
    next.new_ys = sorted.map((s) => s.y);
    next.values = sorted.map((s) => s.v);
    for (const game of log) delete game.usage_so_far;
    const parsed = parseTotLog(log);
    expect(parsed.ok ? 'ok' : parsed.error).toBe('ok');
    if (!parsed.ok) return;
    const run = parsed.runs[0] as ImportedRunDraft;
    const ran = Object.values(run.tree.nodes).filter((n) => n.depth === 1 && n.status === 'completed');
    expect(ran.map((n) => `${n.branch?.thought}\n`).sort()).toEqual([...swapped].sort());
    expect(run.tree.stats.modelCalls).toBe(0);
    expect(run.tree.stats.cost).toBe(0);
  });
});

describe('parseTotLog checks a chain of moves from the puzzle, not from its own claims', () => {
  // hand-made in the log's format (fixtures/README.md): its third move uses a 3 that is not left, the fourth line
  // then reaches 24 from the numbers that move claims; the log says both final candidates are wrong (r = 0)
  const FAILED = new URL('./fixtures/tot-game24-failed-move.json', import.meta.url);
  const log = JSON.parse(readFileSync(FAILED, 'utf8')) as TotGame[];
  const parsed = parseTotLog(log, { now: Date.UTC(2025, 0, 1) });
  if (!parsed.ok) throw new Error(parsed.error);
  const run = parsed.runs[0] as ImportedRunDraft;

  it("fails every node reached through the failed move, so the verdicts equal the log's r", () => {
    const [bad, ...below] = pathTo(run.tree, run.source.finals[0]?.nodeId as string).slice(3);
    expect(bad?.verification).toEqual({
      passed: false,
      trace: 'uses 3, which is not among the numbers left (4 6)',
    });
    for (const final of run.source.finals) {
      const node = run.tree.nodes[final.nodeId] as ThoughtNode;
      expect(node.verification?.passed).toBe(false);
      expect(node.verification?.trace).toMatch(/^reached through a failed move: step 3 "4 \* 3 = 12/);
      expect(final).toMatchObject({ r: 0, solved: false });
    }
    expect(below).toHaveLength(1);
    expect(run.tree).toMatchObject({ verified: false, success: false, output: '', bestNodeId: null });
  });
});
