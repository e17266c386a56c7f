/**
 * The Tree-of-Thoughts log format (princeton-nlp/tree-of-thought-llm, Game of 24 BFS runs; shared/data/README.md):
 * a JSON array, one entry per game, each with its search steps (`ys` kept states, `new_ys` every candidate,
 * `values`, `select_new_ys` the kept ones), the final candidates `ys` with the log's own check `infos[i].r`, and a
 * running total `usage_so_far` of tokens and dollars.
 *
 * parseTotLog turns each game into one run: a small replayer emits real ExplorationEvents and folds each one with
 * reduce as it goes, so the run is stored, drawn, exported and forked like any other. Per game:
 * - run.started (task game24, goal = the puzzle from `x`, config: beam, beamWidth = the log's 5 kept per step,
 *   branchFactor = the most candidates one state got, capped at the engine's 20 so a fork's config validates,
 *   maxDepth = the steps, confidenceThreshold 0 (the log drops nothing), terminationConfidence 1 (BFS never stops
 *   early)); the root node, queued to grow.
 * - Each step, each kept state grows: node.started (expand), branches.generated with every candidate that extends
 *   the state's text (candidates are matched to states by prefix, in the log's block order; a candidate's thought
 *   is the line it adds, "(an empty line)" when the model added an empty one), branch.scored and node.created for
 *   each (every candidate is a node: the log keeps them all), node.expanded. Two kept states with the same text
 *   cannot be told apart: their candidates all go to the first.
 *   A score is the log's own value, kept as such (score.logValue: the value and the top of its scale, 60: a value
 *   sums 20 sure / 1 likely / 0.001 impossible over 3 samples); nothing here measured a confidence, progress or
 *   novelty, so they are null, and composite (what orders and draws nodes) is value / 60 clipped to [0, 1].
 *   `reasoning` keeps the raw value and its words, e.g. "value 21.001 (sure ×1, likely ×1, impossible ×1)" (a
 *   candidate repeated within a step has value 0 in the log, which values each text once per step: its reasoning
 *   says so).
 * - The step's select_new_ys are queued and run (node.started / node.completed with the move line as result) and
 *   checked with the game24 verifier (node.verified), which replays the path from the puzzle: a move that fails, and
 *   every node below it, does not verify. A failed check does NOT fail the node: the logged search went on from it,
 *   so the replay does too, and the verdict stays visible. Candidates not selected stay pending alternatives (never
 *   run, never verified, like the engine's).
 * - Tokens and dollars: the log has only a running total per game, so each game gets ONE model.called (nodeId null,
 *   purpose generate, no messages) carrying that game's share (its total minus the previous entry's) with the cost
 *   from the log, not from our price table: the run's stats.tokenUsage and cost equal the log's numbers.
 * - run.finished: every final candidate keeps its verdict (source.finals: the log's r and ours, an answer line that
 *   verifies). The game is solved when any final answer is right, as the paper counts it: the output is the
 *   highest-valued verified answer (the earlier one on a tie), else the highest-valued final candidate that did not
 *   fail its check, else nothing; a failed node is never the best (the engine's findBestNode rule: the best
 *   completed node, verified first, never a failed one). success = verified = a verified answer is the output;
 *   answerSource 'node' when the output is an answer line, 'none' otherwise. The detail keeps the puzzle's idx,
 *   both verdicts of every final candidate and, when unsolved, why the highest-valued one fails.
 * The log has no times: every event of game i gets the import time plus i milliseconds (so the runs keep the file's
 * order in a list sorted by creation time).
 * Pure: no I/O. Not responsible for storing (lib/server/imports.ts).
 */
import { z } from 'zod';
import type { ExplorationEvent } from '../contract/events';
import { type BranchScore, type ThoughtBranch, type ToTConfig, toTConfigSchema } from '../contract/vocabulary';
import {
  foldingLog,
  DEFAULT_TOT_CONFIG,
  nextNodeId,
  pathTo,
  type ThoughtNode,
  type ThoughtTree,
} from '../engine/index';
import { InvalidPuzzleError, normalizePuzzle } from '../contract/game24-goal';
import { game24Task, isAnswerLine } from '../tasks/index';
import { describeIssues } from './export';
import { checkTotLogFieldCaps } from './field-caps';

export const TOT_DEFAULT_MODEL = 'gpt-4';
/** Value of three "sure" samples: the top of the log's scale. */
const FULL_VALUE = 60;
const MAX_BRANCH_FACTOR = 20;
const REPEAT_REASONING = 'value 0 (a repeat of an earlier candidate of this step: the log does not value it again)';
/** Value samples per candidate we expect at most (the paper uses 3). */
const MAX_SAMPLES = 19;

const count = z.number().int().min(0);

const stepSchema = z.looseObject({
  step: count,
  x: z.string(),
  ys: z.array(z.string()),
  new_ys: z.array(z.string()),
  values: z.array(z.number()),
  select_new_ys: z.array(z.string()),
});

const gameSchema = z.looseObject({
  idx: z.number().int(),
  steps: z.array(stepSchema).min(1),
  ys: z.array(z.string()),
  infos: z.array(z.looseObject({ r: z.number() })),
  usage_so_far: z.looseObject({ completion_tokens: count, prompt_tokens: count, cost: z.number().min(0) }).optional(),
});

export const totLogSchema = z.array(gameSchema).min(1, { error: 'the log has no games' });
export type TotGame = z.infer<typeof gameSchema>;

export interface TotLogOptions {
  /** The model that wrote the log (the file does not say); default gpt-4. */
  modelId?: string;
  /** Milliseconds since the epoch for the events and creation of the first game's run (game i: + i); default now. */
  now?: number;
}

/** One game as a run to store: the row's fields and its events (runId is a placeholder the store replaces). */
export interface ImportedRunDraft {
  taskId: string;
  goal: string;
  modelId: string;
  modelLabel: string;
  modelSettings: { provider: string; model: string };
  config: ToTConfig;
  seed: null;
  createdAt: Date;
  events: ExplorationEvent[];
  /** The folded tree, for callers that look at the result. */
  tree: ThoughtTree;
  /** The log's puzzle index, and every final candidate (the game's ys, in order) with its verdict. */
  source: { idx: number; finals: FinalCandidate[] };
}

/** A final candidate of a game: its node, the log's value and check (r), and ours. */
export interface FinalCandidate {
  nodeId: string;
  value: number;
  /** The log's own check of it (1 right, 0 wrong). */
  r: number;
  /** Our check, from the puzzle: an answer line that verifies at its node (nothing below a failed move does). */
  solved: boolean;
}

export type TotLogParse = { ok: true; runs: ImportedRunDraft[] } | { ok: false; error: string };

class TotLogError extends Error {}

/** True when a parsed JSON value looks like a ToT log rather than an Arborist export (an array). */
export function looksLikeTotLog(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

export function parseTotLog(value: unknown, options: TotLogOptions = {}): TotLogParse {
  const parsed = totLogSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: `not a Tree-of-Thoughts log: ${describeIssues(parsed.error)}` };
  const tooLong = checkTotLogFieldCaps(value);
  if (tooLong) return { ok: false, error: `not a usable Tree-of-Thoughts log: ${tooLong}` };
  const modelId = options.modelId?.trim() || TOT_DEFAULT_MODEL;
  const now = options.now ?? Date.now();
  try {
    let previous: TotGame['usage_so_far'] = undefined;
    const runs = parsed.data.map((game, g) => {
      // a millisecond apart, so the runs list (newest first, by creation time) keeps the file's order
      const run = replayGame(game, `[${g}]`, { modelId, now: now + g, previousUsage: previous });
      if (game.usage_so_far) previous = game.usage_so_far;
      return run;
    });
    return { ok: true, runs };
  } catch (error) {
    if (error instanceof TotLogError)
      return { ok: false, error: `not a usable Tree-of-Thoughts log: ${error.message}` };
    throw error;
  }
}

/** "value 21.001 (sure ×1, likely ×1, impossible ×1)": the raw value and the words it sums, when it decomposes. */
export function describeValue(value: number): string {
  const shown = String(Math.round(value * 1000) / 1000);
  const eps = 1e-6;
  const sure = Math.floor(value / 20 + eps);
  const rest = value - 20 * sure;
  const likely = Math.floor(rest + eps);
  const impossible = Math.round((rest - likely) * 1000);
  // a sum of at most MAX_SAMPLES verdicts decomposes one way only; anything else is shown as it is
  const exact = value >= 0 && Math.abs(20 * sure + likely + impossible / 1000 - value) < eps;
  if (!exact || sure + likely + impossible > MAX_SAMPLES) return `value ${shown}`;
  const words = [
    sure ? `sure ×${sure}` : '',
    likely ? `likely ×${likely}` : '',
    impossible ? `impossible ×${impossible}` : '',
  ].filter(Boolean);
  return `value ${shown} (${words.length ? words.join(', ') : 'no sample gave a verdict'})`;
}

/**
 * The log's value as a score (see the header): the value itself (logValue) and its words; the parts are null, as
 * nothing measured them; composite, which orders and draws nodes, is the value over the top of its scale.
 */
export function valueScore(value: number): BranchScore {
  return {
    confidence: null,
    progress: null,
    novelty: null,
    composite: Math.min(1, Math.max(0, value / FULL_VALUE)),
    reasoning: describeValue(value),
    fallback: false,
    logValue: { value, max: FULL_VALUE },
  };
}

/** The indexes of the selected candidates: the log's greedy choice replayed, else matched by text. */
function selectedIndexes(newYs: readonly string[], values: readonly number[], selected: readonly string[], at: string) {
  // ToT's greedy selection: indexes sorted by value, highest first (a stable sort), the first n kept.
  const greedy = newYs
    .map((_, i) => i)
    .sort((a, b) => (values[b] as number) - (values[a] as number))
    .slice(0, selected.length);
  if (greedy.every((index, k) => newYs[index] === selected[k])) return greedy;
  const used = new Set<number>();
  return selected.map((text, k) => {
    const index = newYs.findIndex((candidate, i) => candidate === text && !used.has(i));
    if (index < 0) throw new TotLogError(`${at}.select_new_ys[${k}] is not one of the step's new_ys`);
    used.add(index);
    return index;
  });
}

/**
 * The state each candidate extends: the longest kept state that is a prefix of it, looking from the current block
 * on first (the log lists candidates state by state, in the order of ys).
 */
function parentIndexes(states: readonly string[], candidates: readonly string[], at: string): number[] {
  let block = 0;
  return candidates.map((candidate, j) => {
    const pick = (from: number) => {
      let best = -1;
      for (let q = from; q < states.length; q++) {
        const state = states[q] as string;
        if (candidate.startsWith(state) && (best < 0 || state.length > (states[best] as string).length)) best = q;
      }
      return best;
    };
    const inBlock = pick(block);
    const found = inBlock >= 0 ? inBlock : pick(0);
    if (found < 0) throw new TotLogError(`${at}.new_ys[${j}] extends none of the step's states (ys)`);
    block = found;
    return found;
  });
}

/** A candidate's own step: the text it adds to its state, one line. */
function stepLine(candidate: string, state: string): string {
  return candidate.slice(state.length).trim() || '(an empty line)';
}

function checkGame(game: TotGame, at: string): string {
  const x = game.steps[0]?.x ?? '';
  let goal: string;
  try {
    goal = normalizePuzzle(x);
  } catch (error) {
    if (error instanceof InvalidPuzzleError) throw new TotLogError(`${at}.steps[0].x: ${error.message}`);
    throw error;
  }
  let kept: readonly string[] = [''];
  game.steps.forEach((step, s) => {
    const here = `${at}.steps[${s}]`;
    if (step.step !== s) throw new TotLogError(`${here}.step: expected ${s}, got ${step.step}`);
    if (step.x !== x) throw new TotLogError(`${here}.x: "${step.x}" differs from the first step's "${x}"`);
    if (step.ys.length !== kept.length || step.ys.some((y, i) => y !== kept[i])) {
      throw new TotLogError(
        `${here}.ys: expected ${s === 0 ? '[""] (the empty start)' : `the states kept by step ${s - 1} (its select_new_ys)`}`,
      );
    }
    if (step.values.length !== step.new_ys.length) {
      throw new TotLogError(`${here}.values: ${step.values.length} values for ${step.new_ys.length} candidates`);
    }
    kept = step.select_new_ys;
  });
  if (game.ys.length !== kept.length || game.ys.some((y, i) => y !== kept[i])) {
    throw new TotLogError(`${at}.ys: expected the states kept by the last step (its select_new_ys)`);
  }
  if (game.infos.length !== game.ys.length) {
    throw new TotLogError(`${at}.infos: ${game.infos.length} entries for ${game.ys.length} final candidates`);
  }
  return goal;
}

/** The highest-valued of some final candidates (the earlier one on a tie); null when there are none. */
function bestFinal(finals: readonly FinalCandidate[]): FinalCandidate | null {
  return finals.reduce<FinalCandidate | null>((a, b) => (a === null || b.value > a.value ? b : a), null);
}

function passedOrUnchecked(tree: ThoughtTree, final: FinalCandidate): boolean {
  return tree.nodes[final.nodeId]?.verification?.passed !== false;
}

interface ReplayContext {
  modelId: string;
  now: number;
  previousUsage: TotGame['usage_so_far'];
}

function replayGame(game: TotGame, at: string, context: ReplayContext): ImportedRunDraft {
  const goal = checkGame(game, at);
  const { modelId, now } = context;

  // the config the log reflects, decided before the replay (run.started carries it)
  const parentsPerStep = game.steps.map((step, s) => parentIndexes(step.ys, step.new_ys, `${at}.steps[${s}]`));
  const mostPerState = Math.max(
    1,
    ...parentsPerStep.flatMap((parents) => {
      const counts = new Map<number, number>();
      for (const p of parents) counts.set(p, (counts.get(p) ?? 0) + 1);
      return [...counts.values()];
    }),
  );
  const beamWidth = Math.min(MAX_BRANCH_FACTOR, Math.max(1, ...game.steps.map((s) => s.select_new_ys.length)));
  const config = toTConfigSchema.parse({
    ...DEFAULT_TOT_CONFIG,
    explorationStrategy: 'beam',
    beamWidth,
    branchFactor: Math.min(MAX_BRANCH_FACTOR, Math.max(beamWidth, mostPerState)),
    maxDepth: game.steps.length,
    confidenceThreshold: 0,
    terminationConfidence: 1,
  } satisfies ToTConfig);

  const runId = `tot-log${at}`;
  const { tree, events, emit } = foldingLog(runId, () => now);

  emit('run.started', { goal, taskId: 'game24', agentName: 'tree-of-thought-llm (bfs)', modelId, config });
  const rootId = nextNodeId(tree);
  emit('node.created', { nodeId: rootId, parentId: null, branch: null, score: null });
  emit('node.queued', { nodeId: rootId, mode: 'expand', urgent: false });

  let stateIds: string[] = [rootId];
  let finals: FinalCandidate[] = [];
  game.steps.forEach((step, s) => {
    const parents = parentsPerStep[s] as number[];
    const candidateIds: string[] = new Array<string>(step.new_ys.length);
    step.ys.forEach((state, p) => {
      const parentId = stateIds[p] as string;
      const mine = step.new_ys.map((_, j) => j).filter((j) => parents[j] === p);
      const branches: ThoughtBranch[] = mine.map((j) => {
        const thought = stepLine(step.new_ys[j] as string, state);
        return { thought, proposedAction: { type: 'response', content: thought } };
      });
      emit('node.started', { nodeId: parentId, mode: 'expand' });
      emit('branches.generated', { nodeId: parentId, branches, fallback: false, raw: null });
      const scores = mine.map((j) => {
        const score = valueScore(step.values[j] as number);
        // ToT values a candidate once per step: a repeat gets 0 without asking the model
        const repeat = step.values[j] === 0 && step.new_ys.indexOf(step.new_ys[j] as string) < j;
        return repeat ? { ...score, reasoning: REPEAT_REASONING } : score;
      });
      branches.forEach((branch, index) =>
        emit('branch.scored', { nodeId: parentId, index, branch, score: scores[index] as BranchScore, raw: null }),
      );
      const childIds = branches.map((branch, index) => {
        const nodeId = nextNodeId(tree);
        emit('node.created', { nodeId, parentId, branch, score: scores[index] as BranchScore });
        candidateIds[mine[index] as number] = nodeId;
        return nodeId;
      });
      emit('node.expanded', { nodeId: parentId, childIds });
    });

    const chosen = selectedIndexes(step.new_ys, step.values, step.select_new_ys, `${at}.steps[${s}]`);
    const chosenIds = chosen.map((j) => candidateIds[j] as string);
    for (const nodeId of chosenIds) emit('node.queued', { nodeId, mode: 'execute', urgent: false });
    const last = s === game.steps.length - 1;
    for (const nodeId of chosenIds) {
      const node = tree.nodes[nodeId];
      if (!node?.branch) continue;
      const thought = node.branch.thought;
      emit('node.started', { nodeId, mode: 'execute' });
      emit('node.completed', {
        nodeId,
        result: { response: thought, iterations: 0, isAnswer: isAnswerLine(thought) },
      });
      const path = pathTo(tree, nodeId);
      const verification = game24Task.verify?.(tree.nodes[nodeId] as typeof node, path, goal);
      if (verification) emit('node.verified', { nodeId, passed: verification.passed, trace: verification.trace });
      if (!last) emit('node.queued', { nodeId, mode: 'expand', urgent: false });
    }
    stateIds = chosenIds;
    if (last) {
      finals = chosen.map((j, k) => {
        const node = tree.nodes[chosenIds[k] as string] as ThoughtNode;
        const solved = Boolean(node.result?.isAnswer && node.verification?.passed);
        return { nodeId: node.id, value: step.values[j] as number, r: game.infos[k]?.r ?? 0, solved };
      });
    }
  });

  if (game.usage_so_far) {
    const total = game.usage_so_far;
    const before = context.previousUsage ?? { prompt_tokens: 0, completion_tokens: 0, cost: 0 };
    const usage = {
      inputTokens: total.prompt_tokens - before.prompt_tokens,
      outputTokens: total.completion_tokens - before.completion_tokens,
    };
    const cost = Math.round((total.cost - before.cost) * 1e10) / 1e10;
    if (usage.inputTokens < 0 || usage.outputTokens < 0 || cost < 0) {
      throw new TotLogError(`${at}.usage_so_far: the running total is lower than the previous game's`);
    }
    emit('model.called', {
      nodeId: null,
      purpose: 'generate',
      modelId,
      messages: [],
      response: null,
      error: null,
      usage,
      cost,
      latencyMs: 0,
    });
  }

  // The game is solved when any final answer is right (the paper's count): the output is the best verified answer,
  // else the best final candidate that did not fail its check; a failed node is never the best.
  const best = bestFinal(finals.filter((f) => f.solved)) ?? bestFinal(finals.filter((f) => passedOrUnchecked(tree, f)));
  const bestNode = best ? tree.nodes[best.nodeId] : undefined;
  const output = bestNode?.branch?.thought ?? '';
  const isAnswer = bestNode?.result?.isAnswer ?? false;
  const verified = best?.solved ?? false;
  const top = bestFinal(finals);
  const topNode = top ? tree.nodes[top.nodeId] : undefined;
  const verdicts = (pick: (f: FinalCandidate) => string) => finals.map(pick).join(' ') || 'none';
  emit('run.finished', {
    reason: 'frontier-empty',
    detail:
      `Tree-of-Thoughts BFS log, puzzle idx ${game.idx}: ${game.steps.length} steps, the ${beamWidth} best kept ` +
      `per step; the final candidates by the log's check (r): ${verdicts((f) => String(f.r))}, by ours: ` +
      `${verdicts((f) => (f.solved ? '1' : '0'))}` +
      (!verified && topNode?.branch
        ? `; the highest-valued one, "${topNode.branch.thought}", fails: ${topNode.verification?.trace ?? 'unchecked'}`
        : ''),
    bestNodeId: bestNode?.id ?? null,
    output,
    answerSource: isAnswer ? 'node' : 'none',
    success: verified,
    verified,
  });

  return {
    taskId: 'game24',
    goal,
    modelId,
    modelLabel: `${modelId} (imported log)`,
    modelSettings: { provider: 'tot-log', model: modelId },
    config,
    seed: null,
    createdAt: new Date(now),
    events,
    tree,
    source: { idx: game.idx, finals },
  };
}
