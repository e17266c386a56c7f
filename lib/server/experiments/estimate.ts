/**
 * What an experiment will cost before it starts: per configuration, the mean cost of the runs this server already
 * stored with the same task, model and config (the best guess there is), else of the same task and model, else a
 * bound from the search's shape: the nodes it may explore (nodeBound: a beam's maxDepth levels of beamWidth nodes, an
 * MCTS run's iterations, best-first's and dfs's maxTotalNodes), CALLS_PER_NODE calls each, of
 * INPUT/OUTPUT_TOKENS_PER_CALL tokens, at the model's price. Null for a model with no price: nothing is invented.
 * Not responsible for refusing an experiment over its cap or budget (experiment-service.ts) nor for prices
 * (lib/engine/pricing, the deployment's table).
 */
import type { ToTConfig } from '../../contract/vocabulary';
import { findPrice, mctsSettings, type PriceTable } from '../../engine/index';
import type { Db } from '../db/client';

/** Runs of history an estimate reads, newest first. */
const HISTORY_RUNS = 50;
/**
 * The bound's calls. Measured on Game of 24 (npm run explore, beam width 3, puzzles 900-905): ~2 calls per explored
 * node (its generation's share and its evaluation), ~230 prompt tokens a call; a hosted model answers at more length
 * than the simulator (13 tokens a call), so its answers are taken at 100. MCTS measured alike (30 calls for 16 nodes,
 * puzzle 901; 17 for 6, puzzle 905): each node it runs was grown once, a generation and its evaluations.
 */
const CALLS_PER_NODE = 2;
const INPUT_TOKENS_PER_CALL = 250;
const OUTPUT_TOKENS_PER_CALL = 100;

export interface RunEstimate {
  /** About what one run costs, in USD; null when the model has no price. */
  perRunUsd: number | null;
  /** Where the figure comes from, in words ("mean of 12 earlier runs of this configuration"). */
  basis: string;
}

/**
 * The most nodes a search of this config may run, never more than maxTotalNodes: a beam's maxDepth levels of
 * beamWidth; an MCTS run's iterations, each running one node and mctsRolloutDepth more greedily (lib/engine/mcts.ts);
 * best-first and dfs, which may run until the cap, maxTotalNodes.
 */
export function nodeBound(config: ToTConfig): number {
  switch (config.explorationStrategy) {
    case 'beam':
      return Math.min(config.maxTotalNodes, config.maxDepth * config.beamWidth);
    case 'mcts': {
      const { mctsIterations, mctsRolloutDepth } = mctsSettings(config);
      return Math.min(config.maxTotalNodes, mctsIterations * (1 + mctsRolloutDepth));
    }
    default:
      return config.maxTotalNodes;
  }
}

async function meanCost(db: Db, where: { taskId: string; modelId: string; config?: string }) {
  const rows = await db.run.findMany({
    where: { ...where, status: 'finished', unpricedCalls: 0, importJobId: null },
    orderBy: { createdAt: 'desc' },
    take: HISTORY_RUNS,
    select: { cost: true },
  });
  if (rows.length === 0) return null;
  return { n: rows.length, mean: rows.reduce((sum, r) => sum + r.cost, 0) / rows.length };
}

export async function estimateRunCost(
  db: Db,
  run: { taskId: string; modelId: string; config: ToTConfig },
  prices: PriceTable,
): Promise<RunEstimate> {
  const price = findPrice(run.modelId, prices);
  if (!price) return { perRunUsd: null, basis: `${run.modelId} has no price` };
  const same = await meanCost(db, { taskId: run.taskId, modelId: run.modelId, config: JSON.stringify(run.config) });
  if (same) return { perRunUsd: same.mean, basis: `mean of ${same.n} earlier run(s) of this configuration` };
  const similar = await meanCost(db, { taskId: run.taskId, modelId: run.modelId });
  if (similar) {
    return { perRunUsd: similar.mean, basis: `mean of ${similar.n} earlier run(s) of this task on ${run.modelId}` };
  }
  // no history: the nodes the search may explore, at the measured calls and tokens of one
  const nodes = nodeBound(run.config);
  const calls = nodes * CALLS_PER_NODE;
  const perCall =
    (INPUT_TOKENS_PER_CALL * price.inputPerMillion + OUTPUT_TOKENS_PER_CALL * price.outputPerMillion) / 1_000_000;
  return {
    perRunUsd: calls * perCall,
    basis: `no earlier run: at most ${nodes} nodes x ${CALLS_PER_NODE} calls of ~${INPUT_TOKENS_PER_CALL + OUTPUT_TOKENS_PER_CALL} tokens`,
  };
}
