/**
 * The one way the figures of a run read, everywhere (runs list, run page, inspector, event log, compare, overview):
 * a dollar cost (enough digits for a tiny per-call cost; calls on a model with no price in lib/engine/pricing.ts
 * said as "unpriced", never counted as $0), a token count, and a span of time (a call's latency, a run's duration).
 * Browser-safe and pure, imports nothing. Not responsible for pricing a call, summing costs or measuring time.
 */

/** Dollars: $0, $0.000022, $0.0042, $1.50. */
export function formatCost(cost: number): string {
  if (cost === 0) return '$0';
  if (cost < 0.0001) return `$${cost.toFixed(6)}`;
  if (cost < 0.01) return `$${cost.toFixed(4)}`;
  return `$${cost.toFixed(2)}`;
}

/**
 * What some calls cost when some may have had no price: "unpriced" when none was priced, the dollars when all were,
 * else the dollars and what they leave out ("$0.0042 + 3 unpriced calls").
 */
export function formatSpend(spend: { cost: number; unpricedCalls: number }): string {
  if (spend.unpricedCalls <= 0) return formatCost(spend.cost);
  if (spend.cost === 0) return 'unpriced';
  return `${formatCost(spend.cost)} + ${spend.unpricedCalls} unpriced call${spend.unpricedCalls === 1 ? '' : 's'}`;
}

/**
 * A run's cost cap (ToTConfig.maxCostUsd) as its header says it, or null when it has none: "cap $5.00, $1.20 spent",
 * or, when its calls had no price, that the cap does not apply (an unpriced model cannot be capped; saying so
 * rather than showing "$0 spent" of a cap that never binds).
 */
export function budgetNote(
  maxCostUsd: number | null | undefined,
  spend: { cost: number; unpricedCalls: number },
): string | null {
  if (maxCostUsd === null || maxCostUsd === undefined) return null;
  if (spend.unpricedCalls > 0) return `cap ${formatCost(maxCostUsd)} does not apply: the model has no price`;
  return `cap ${formatCost(maxCostUsd)}, ${formatCost(spend.cost)} spent`;
}

/** Tokens with thousands separators: 12,345. */
export function formatTokens(n: number): string {
  return n.toLocaleString('en-US');
}

/** 850 ms, 4.2 s, 3 min 20 s, 2 h 5 min. */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 1_000) return `${Math.round(safe)} ms`;
  if (safe < 60_000) return `${(Math.floor(safe / 100) / 10).toFixed(1)} s`;
  const totalSeconds = Math.floor(safe / 1_000);
  if (totalSeconds < 3_600) {
    const s = totalSeconds % 60;
    return `${Math.floor(totalSeconds / 60)} min${s ? ` ${s} s` : ''}`;
  }
  const minutes = Math.floor(totalSeconds / 60);
  const m = minutes % 60;
  return `${Math.floor(minutes / 60)} h${m ? ` ${m} min` : ''}`;
}
