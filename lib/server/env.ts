/**
 * The server's environment, read and validated in one place. Every setting has an embedded default, so a fresh
 * clone starts with no configuration at all.
 * Not responsible for the database file's path rules (db/migrate.ts resolves DATABASE_URL).
 */
import { z } from 'zod';

const envSchema = z.object({
  /** How many runs execute at once; the rest wait as queued. */
  ARBORIST_MAX_CONCURRENT_RUNS: z.coerce.number().int().min(1).max(64).default(4),
  /** After a restart, continue interrupted runs at once ("auto") or when a person asks ("manual"). */
  ARBORIST_RESUME: z.enum(['auto', 'manual']).default('auto'),
  /** Seed a finished demo run into an empty database ("0" to skip). */
  ARBORIST_DEMO: z.enum(['0', '1']).default('1'),
});

export type ServerEnv = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid environment: ${problems}`);
  }
  return parsed.data;
}
