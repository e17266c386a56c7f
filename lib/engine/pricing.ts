/**
 * Dollars per million tokens by model name, and the cost of one call. Unknown models get no price (null):
 * tokens are still counted, and the UI says "no price" rather than inventing a number.
 * Not responsible for where a price table is configured (the server passes its own to the executor).
 */
import type { TokenUsage } from '../contract/vocabulary';

export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

export type PriceTable = Record<string, ModelPrice>;

/** Public list prices (USD per 1M tokens) at the time of writing; override per deployment. */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'gpt-4': { inputPerMillion: 30, outputPerMillion: 60 },
  'gpt-3.5-turbo': { inputPerMillion: 0.5, outputPerMillion: 1.5 },
  o3: { inputPerMillion: 2, outputPerMillion: 8 },
  'o3-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  'o4-mini': { inputPerMillion: 1.1, outputPerMillion: 4.4 },
  // The offline simulator is priced like a small hosted model so that cost figures stay meaningful offline.
  simulated: { inputPerMillion: 0.15, outputPerMillion: 0.6 },
};

/** A model's price: exact name first, then the longest known prefix ("gpt-4o-2024-08-06" -> "gpt-4o"). */
export function findPrice(modelId: string, table: PriceTable = DEFAULT_PRICES): ModelPrice | null {
  const exact = table[modelId];
  if (exact) return exact;
  let best: string | null = null;
  for (const name of Object.keys(table)) {
    if (modelId.startsWith(`${name}-`) && (!best || name.length > best.length)) best = name;
  }
  return best ? (table[best] ?? null) : null;
}

/**
 * About how many tokens a text is: 4 characters a token (at least 1 for any text). Used where no tokenizer is at
 * hand: the offline model's usage, a server that reports none, and a cost cap's estimate of the next call.
 */
export function countTokens(text: string): number {
  return text ? Math.max(1, Math.ceil(text.length / 4)) : 0;
}

export function priceCall(modelId: string, usage: TokenUsage, table: PriceTable = DEFAULT_PRICES): number | null {
  const price = findPrice(modelId, table);
  if (!price) return null;
  return (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000;
}

/**
 * Tokens a failed call used all the same, when its error says (a backend's error may carry `usage`, e.g. a
 * completion that came back with no text); else none. Keeps the cost of failures honest.
 */
export function spentByFailure(error: unknown): TokenUsage {
  const usage = (error as { usage?: Partial<TokenUsage> | null } | null)?.usage;
  const count = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0);
  return { inputTokens: count(usage?.inputTokens), outputTokens: count(usage?.outputTokens) };
}
