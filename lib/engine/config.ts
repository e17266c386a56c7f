/**
 * DEFAULT_TOT_CONFIG and the validation of a partial config into a whole one. The schema, its bounds and the one
 * meaning of the time limit (whole milliseconds, 0 and null both "no limit", kept as null) are the contract's
 * (lib/contract/vocabulary.ts: toTConfigSchema, timeLimitSchema); this file applies them.
 * Not responsible for where a config comes from (forms, CLI flags, the database).
 */
import { DEFAULT_MAX_CONCURRENT_CALLS, timeLimitSchema, toTConfigSchema, type ToTConfig } from '../contract/vocabulary';

export const DEFAULT_TOT_CONFIG: Readonly<ToTConfig> = Object.freeze({
  maxDepth: 5,
  branchFactor: 3,
  beamWidth: 2,
  explorationStrategy: 'beam',
  confidenceThreshold: 0.3,
  terminationConfidence: 0.8,
  maxTotalNodes: 50,
  maxIterationsPerBranch: 3,
  timeout: null,
  maxCostUsd: null,
  maxConcurrentCalls: DEFAULT_MAX_CONCURRENT_CALLS,
  confidenceWeight: 0.5,
  progressWeight: 0.3,
  noveltyWeight: 0.2,
});

export class InvalidConfigError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid exploration config: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidConfigError';
  }
}

/** Fills defaults and validates; throws InvalidConfigError naming every bad field. */
export function resolveConfig(partial: Partial<ToTConfig> = {}): ToTConfig {
  const parsed = toTConfigSchema.safeParse({ ...DEFAULT_TOT_CONFIG, ...partial });
  if (!parsed.success) {
    throw new InvalidConfigError(
      parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(config)', message: i.message })),
    );
  }
  return parsed.data;
}

/**
 * A time limit given on its own (explore()'s option) checked like the config's: the limit in ms, or null for none.
 * Throws InvalidConfigError for a negative or fractional one.
 */
export function resolveTimeout(timeout: number | null): number | null {
  const parsed = timeLimitSchema.safeParse(timeout);
  if (!parsed.success) {
    throw new InvalidConfigError(parsed.error.issues.map((i) => ({ path: 'timeout', message: i.message })));
  }
  return parsed.data;
}
