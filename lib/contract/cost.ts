/**
 * The one way a dollar cost reads, everywhere (runs list, run page, inspector, compare): enough digits for a tiny
 * per-call cost, and calls on a model with no price (lib/engine/pricing.ts) said as "unpriced", never counted as $0.
 * Browser-safe. Not responsible for pricing a call (lib/engine/pricing.ts) or summing costs (the engine's stats).
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
