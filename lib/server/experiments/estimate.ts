/**
 * What an experiment will cost before it starts: per configuration, the mean cost of the runs this server already
 * stored with the same task, model and config (the best guess there is), else of the same task and model, else a
 * bound from the config (every node the search may explore, each a generation share and an evaluation of about
 * TOKENS_PER_CALL tokens at the model's price). Null for a model with no price: nothing is invented.
 * Not responsible for refusing an experiment over its cap or budget (experiment-service.ts) nor for prices
 * (lib/engine/pricing, the deployment's table).
 */
import type { ToTConfig } from '../../contract/vocabulary';
import { findPrice, type PriceTable } from '../../engine/index';
import type { Db } from '../db/client';

/** Runs of history an estimate reads, newest first. */
const HISTORY_RUNS = 50;
/** A call of the bound: a prompt of about 500 tokens and an answer of about 150 (Game of 24's are 300-700 in). */
const INPUT_TOKENS_PER_CALL = 500;
const OUTPUT_TOKENS_PER_CALL = 150;

export interface RunEstimate {
  /** About what one run costs, in USD; null when the model has no price. */
  perRunUsd: number | null;
  /** Where the figure comes from, in words ("mean of 12 earlier runs of this configuration"). */
  basis: string;
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
  // no history: every node the search may explore costs an evaluation, and a generation per branchFactor children
  const nodes = run.config.maxTotalNodes;
  const calls = nodes * (1 + 1 / Math.max(1, run.config.branchFactor));
  const perCall =
    (INPUT_TOKENS_PER_CALL * price.inputPerMillion + OUTPUT_TOKENS_PER_CALL * price.outputPerMillion) / 1_000_000;
  return {
    perRunUsd: calls * perCall,
    basis: `no earlier run: a bound of ${nodes} nodes x ~${INPUT_TOKENS_PER_CALL + OUTPUT_TOKENS_PER_CALL} tokens a call`,
  };
}
