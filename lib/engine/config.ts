/**
 * DEFAULT_TOT_CONFIG and the validation of a partial config into a whole one. The schema, its bounds and the one
 * meaning of the time limit (whole milliseconds, 0 and null both "no limit", kept as null) are the contract's
 * (lib/contract/vocabulary.ts: toTConfigSchema, timeLimitSchema); this file applies them.
 * MCTS_DEFAULTS fill an MCTS run's own fields. Not responsible for where a config comes from (forms, CLI flags, the database).
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

/**
 * What an MCTS run uses for the mcts* fields it does not set (issue 31): LATS's and UCT's usual choices. c = sqrt 2 is
 * UCB1's constant for rewards in [0, 1] (Kocsis and Szepesvari, 2006).
 */
export const MCTS_DEFAULTS = Object.freeze({
  mctsIterations: 50,
  mctsExploration: Math.SQRT2,
  mctsRolloutDepth: 0,
  mctsBackup: 'mean',
  mctsBestBy: 'visits',
} as const satisfies Partial<ToTConfig>);

/** An MCTS run's settings, whole: what its config says, else MCTS_DEFAULTS (a config stored without them). */
export type MctsSettings = { -readonly [K in keyof typeof MCTS_DEFAULTS]: NonNullable<ToTConfig[K]> };

export function mctsSettings(config: ToTConfig): MctsSettings {
  return {
    mctsIterations: config.mctsIterations ?? MCTS_DEFAULTS.mctsIterations,
    mctsExploration: config.mctsExploration ?? MCTS_DEFAULTS.mctsExploration,
    mctsRolloutDepth: config.mctsRolloutDepth ?? MCTS_DEFAULTS.mctsRolloutDepth,
    mctsBackup: config.mctsBackup ?? MCTS_DEFAULTS.mctsBackup,
    mctsBestBy: config.mctsBestBy ?? MCTS_DEFAULTS.mctsBestBy,
  };
}

const MCTS_KEYS = Object.keys(MCTS_DEFAULTS) as (keyof typeof MCTS_DEFAULTS)[];

export class InvalidConfigError extends Error {
  constructor(readonly issues: { path: string; message: string }[]) {
    super(`Invalid exploration config: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidConfigError';
  }
}

/**
 * Fills defaults and validates; throws InvalidConfigError naming every bad field. An MCTS config gets its mcts* fields
 * filled (MCTS_DEFAULTS); any other strategy's drops them, so its run.started records only what it uses.
 */
export function resolveConfig(partial: Partial<ToTConfig> = {}): ToTConfig {
  const whole: Partial<ToTConfig> = { ...DEFAULT_TOT_CONFIG, ...partial };
  const mcts = whole.explorationStrategy === 'mcts';
  if (mcts) for (const key of MCTS_KEYS) whole[key] ??= MCTS_DEFAULTS[key] as never;
  // validated as given even when dropped: a negative c is refused whatever the strategy
  const parsed = toTConfigSchema.safeParse(whole);
  if (parsed.success && !mcts) for (const key of MCTS_KEYS) delete parsed.data[key];
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
