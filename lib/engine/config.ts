/**
 * DEFAULT_TOT_CONFIG and the validation of a partial config into a whole one, and the one meaning of the time
 * limit: whole milliseconds, where 0 and null (an empty field) both mean "no limit", kept as null.
 * Not responsible for where a config comes from (forms, CLI flags, the database).
 */
import { z } from 'zod';
import type { ToTConfig } from './types';

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
  confidenceWeight: 0.5,
  progressWeight: 0.3,
  noveltyWeight: 0.2,
});

const unit = z.number().min(0).max(1);
/** Milliseconds; 0 or null means no limit (the schema keeps it as null, see toTConfigSchema). */
const timeoutField = z.number().int().min(0).nullable();

/** A valid time limit as the engine keeps it: 0 (no limit, like null) becomes null. */
function noLimitAsNull(timeout: number | null): number | null {
  return timeout === 0 ? null : timeout;
}
/** Weights are relative (the composite is a weighted mean), so they need not sum to 1. */
const weight = z.number().min(0).max(100);

/** The fields of a config without the cross-field rules; `.partial()` of it validates a form's input. */
export const toTConfigFields = z
  .object({
    maxDepth: z.number().int().min(1).max(50),
    branchFactor: z.number().int().min(1).max(20),
    beamWidth: z.number().int().min(1).max(20),
    explorationStrategy: z.enum(['beam', 'best-first', 'dfs']),
    confidenceThreshold: unit,
    terminationConfidence: unit,
    maxTotalNodes: z.number().int().min(1).max(100_000),
    maxIterationsPerBranch: z.number().int().min(1).max(20),
    timeout: timeoutField,
    confidenceWeight: weight,
    progressWeight: weight,
    noveltyWeight: weight,
  })
  .strict();

/** Schema of a whole config; shared with the API so a form shows the same messages. "No limit" comes out as null. */
export const toTConfigSchema = toTConfigFields
  .refine((c) => c.beamWidth <= c.branchFactor, {
    message: 'beamWidth cannot exceed branchFactor',
    path: ['beamWidth'],
  })
  .refine((c) => c.confidenceWeight + c.progressWeight + c.noveltyWeight > 0, {
    message: 'the score weights cannot all be zero',
    path: ['confidenceWeight'],
  })
  .transform((c): ToTConfig => ({ ...c, timeout: noLimitAsNull(c.timeout) }));

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
  const parsed = timeoutField.safeParse(timeout);
  if (!parsed.success) {
    throw new InvalidConfigError(parsed.error.issues.map((i) => ({ path: 'timeout', message: i.message })));
  }
  return noLimitAsNull(parsed.data);
}
