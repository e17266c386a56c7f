/**
 * The server's environment, read and validated in one place. Every setting has an embedded default, so a fresh
 * clone starts with no configuration at all. OPENAI_API_KEY is read here and handed only to the model factory,
 * which sends it only to OPENAI_BASE_URL on the 'openai' preset; each listed model server's key (its apiKeyEnv) is
 * read here too and sent only to that server. No error message here ever contains a value of a key.
 * Not responsible for the database file's path rules (db/migrate.ts resolves DATABASE_URL).
 */
import { z } from 'zod';
import { DEFAULT_PRICES, type PriceTable } from '../../engine/index';
import { DEFAULT_MODEL_SERVER_MAX_CALLS, DEFAULT_OPENAI_BASE_URL } from '../../models/index';
import { MIN_PASSWORD_LENGTH } from '../../contract/access';
import { DEFAULT_LABELS, labelSetSchema } from '../../contract/discussion';

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/** An unset and an empty variable mean the same: the default. */
const unsetIfEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const priceSchema = z
  .object({
    inputPerMillion: z.number().min(0).max(1_000_000),
    outputPerMillion: z.number().min(0).max(1_000_000),
  })
  .strict();

/** A variable holding JSON text, parsed; a parse failure names the variable's expected shape by example. */
function jsonText(example: string) {
  return z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not JSON: expected e.g. ${example}` });
      return z.NEVER;
    }
  });
}

/** ARBORIST_PRICES: a JSON object of model name -> { inputPerMillion, outputPerMillion } (USD per 1M tokens). */
const priceTableSchema = jsonText('{"my-model": {"inputPerMillion": 0.5, "outputPerMillion": 1.5}}').pipe(
  z.record(z.string().min(1), priceSchema),
);

/** An environment variable's name, as a listed server's apiKeyEnv names one. */
const envNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'is not an environment variable name');

/** One of the operator's OpenAI-compatible servers, as ARBORIST_MODEL_SERVERS lists it. */
const modelServerSchema = z.strictObject({
  /** What a run's spec names it by (baseUrlPreset 'server', serverId). */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'is 1-40 of a-z, 0-9, - and _, starting with a letter or digit'),
  /** How the run form names it. */
  label: z.string().trim().min(1).max(80),
  baseURL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .max(500)
    .refine((url) => !/[?#]|\/\/[^/]*@/.test(url), 'carries no credentials or query (the key comes from apiKeyEnv)'),
  /** The variable holding this server's key; absent: no key is sent. */
  apiKeyEnv: envNameSchema.optional(),
  /** The model names offered; a run on this server must pick one of them. Absent or empty: any name. */
  models: z.array(z.string().trim().min(1).max(200)).max(100).optional(),
});

/** A listed server with its key read from the environment (server-only: listBackends never passes `apiKey` on). */
export type ModelServer = z.output<typeof modelServerSchema> & { apiKey: string | null };

/** ARBORIST_MODEL_SERVERS: a JSON list of servers, ids unique. */
const modelServersSchema = jsonText(
  '[{"id": "vllm", "label": "vLLM on gpu-box", "baseURL": "http://10.0.0.5:8000/v1", "apiKeyEnv": "VLLM_KEY", "models": ["qwen2.5-7b"]}]',
)
  .pipe(z.array(modelServerSchema).max(50))
  .superRefine((servers, ctx) => {
    const seen = new Set<string>();
    servers.forEach((server, index) => {
      if (seen.has(server.id)) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${server.id}" is listed twice` });
      }
      seen.add(server.id);
    });
  });

const envSchema = z.object({
  /**
   * How many runs execute at once (per instance in a cluster); the rest wait as queued. A run waiting on a remote
   * model costs little but memory, so a team server's instance may run hundreds.
   */
  ARBORIST_MAX_CONCURRENT_RUNS: z.coerce.number().int().min(1).max(1000).default(4),
  /** Cells of one experiment queued or running at once (default: twice ARBORIST_MAX_CONCURRENT_RUNS). */
  ARBORIST_EXPERIMENT_CELLS_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).optional(),
  /** After a restart, continue interrupted runs at once ("auto") or when a person asks ("manual"). */
  ARBORIST_RESUME: z.enum(['auto', 'manual']).default('auto'),
  /** Seed a finished demo run into an empty database ("0" to skip). */
  ARBORIST_DEMO: z.enum(['0', '1']).default('1'),
  /** The key of OPENAI_BASE_URL's server; without it OpenAI runs are not offered (local servers need none). */
  OPENAI_API_KEY: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** The OpenAI-compatible API the "openai" preset uses, and the only one the key is sent to. */
  OPENAI_BASE_URL: z.preprocess(
    unsetIfEmpty,
    z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default(DEFAULT_OPENAI_BASE_URL),
  ),
  /** The model the run form proposes. */
  ARBORIST_DEFAULT_MODEL: z.preprocess(unsetIfEmpty, z.string().max(200).default(DEFAULT_OPENAI_MODEL)),
  /**
   * Requests in flight at once to one model server (a base URL's origin and path), summed over every run of this
   * process, so several runs cannot hammer one endpoint; the rest wait their turn (lib/models/call-limiter.ts).
   */
  ARBORIST_MODEL_SERVER_MAX_CALLS: z.preprocess(
    unsetIfEmpty,
    z.coerce.number().int().min(1).max(1000).default(DEFAULT_MODEL_SERVER_MAX_CALLS),
  ),
  /** The operator's OpenAI-compatible servers, offered to the run form by id (see lib/server/model-servers.ts). */
  ARBORIST_MODEL_SERVERS: z.preprocess(unsetIfEmpty, modelServersSchema.optional()),
  /** Team mode: what one user's runs may cost per UTC day, in USD (absent: no cap; see daily-budget.ts). */
  ARBORIST_DAILY_BUDGET_USD: z.preprocess(unsetIfEmpty, z.coerce.number().min(0).max(1_000_000).optional()),
  /**
   * Team mode: the tokens one user's runs may spend per UTC day on models with no price (absent: such runs are refused
   * a call while ARBORIST_DAILY_BUDGET_USD is set, since their cost cannot be counted; see daily-budget.ts).
   */
  ARBORIST_DAILY_TOKEN_BUDGET: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(1e12).optional()),
  /** Prices merged over DEFAULT_PRICES (see loadPriceTable). */
  ARBORIST_PRICES: z.preprocess(unsetIfEmpty, priceTableSchema.optional()),
  /** "1": team mode, with accounts, roles and share links (lib/server/auth). Unset: one local person, loopback only. */
  ARBORIST_AUTH: z.preprocess(unsetIfEmpty, z.enum(['0', '1']).default('0')),
  /** Signs share links (team mode). Long and random: `openssl rand -hex 32`. */
  ARBORIST_SECRET: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** The first admin, created at start when no user exists (team mode). Both or neither. */
  ARBORIST_ADMIN_EMAIL: z.preprocess(unsetIfEmpty, z.email().optional()),
  ARBORIST_ADMIN_PASSWORD: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** Origins besides the server's own that may send writes (a reverse proxy's public URL), comma separated. */
  ARBORIST_ALLOWED_ORIGINS: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .optional()
      .transform((text, ctx) => {
        const origins = (text ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const origin of origins) {
          try {
            if (new URL(origin).origin === origin) continue;
          } catch {
            // reported below
          }
          ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin (scheme://host[:port], no path)` });
        }
        return origins;
      }),
  ),
  /** The labels people put on nodes (issue 34), comma separated, in the order of their keys 1 to 9. */
  ARBORIST_LABELS: z.preprocess(
    (value) => {
      const text = unsetIfEmpty(value);
      return typeof text === 'string' ? text.split(',').map((name) => name.trim()) : undefined;
    },
    labelSetSchema.default([...DEFAULT_LABELS]),
  ),
  /** External runs (the ingest API): a running one whose client is silent this long (ms) is marked interrupted. */
  ARBORIST_INGEST_TIMEOUT_MS: z.preprocess(
    unsetIfEmpty,
    z.coerce.number().int().min(500).max(86_400_000).default(30_000),
  ),
  /** How often (ms) an ingest client is asked to show it is alive; well under the timeout. */
  ARBORIST_INGEST_HEARTBEAT_MS: z.preprocess(
    unsetIfEmpty,
    z.coerce.number().int().min(100).max(3_600_000).default(5_000),
  ),
  /** OpenTelemetry traces in (lib/server/otel): a traced run ends this long (ms) after its root span came, when nothing more has. */
  ARBORIST_OTEL_IDLE_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(100).max(3_600_000).default(5_000)),
  /**
   * How long (ms) a span waits for its parent before it hangs off the root: above the exporters' 5 s batch delay, so a
   * parent sent in the next batch is still in time.
   */
  ARBORIST_OTEL_WAIT_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(50).max(600_000).default(6_000)),
  /** How many code verifications (type-check + tests in the sandbox) run at once; unset: the machine's cores. */
  ARBORIST_VERIFY_CONCURRENCY: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(64).optional()),
  /** This instance's name in a cluster (logs, leases, the health endpoint); unset: `<hostname>-<pid>-<4 hex>`. */
  ARBORIST_INSTANCE_ID: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, 'is 1-100 of letters, digits, . _ : -')
      .optional(),
  ),
  /** Cluster mode: how long (ms) a run's lease lasts unless renewed; an instance silent this long loses its runs. */
  ARBORIST_LEASE_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1_000).max(3_600_000).default(15_000)),
  /** Cluster mode: how often (ms) an instance renews its leases; unset: a third of the lease. */
  ARBORIST_HEARTBEAT_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(100).max(1_200_000).optional()),
  /** Graceful shutdown's limit (ms): live runs are handed back (or stopped) and the process exits within it. */
  ARBORIST_SHUTDOWN_MS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(100).max(600_000).default(10_000)),
  /** Log lines as JSON (one object a line) or text; unset: JSON on PostgreSQL (a cluster), text on SQLite. */
  ARBORIST_LOG_FORMAT: z.preprocess(unsetIfEmpty, z.enum(['json', 'text']).optional()),
  /** PostgreSQL: the connections this process's Prisma client keeps open (lib/server/db/client.ts). */
  ARBORIST_PG_POOL_SIZE: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(500).default(10)),
  /** "1": accept any Host header in local mode (the server is reached by a name this machine does not know). */
  ARBORIST_ALLOW_OPEN: z.preprocess(unsetIfEmpty, z.enum(['0', '1']).default('0')),
});

export type ServerEnv = Omit<z.infer<typeof envSchema>, 'ARBORIST_MODEL_SERVERS'> & {
  /** Every listed server with its key read (empty when none are listed). */
  ARBORIST_MODEL_SERVERS: ModelServer[];
};

/** Share links are signed with it: shorter is guessable offline. */
export const MIN_SECRET_LENGTH = 32;

const checkedEnvSchema = envSchema.superRefine((env, ctx) => {
  if (env.ARBORIST_HEARTBEAT_MS !== undefined && env.ARBORIST_HEARTBEAT_MS >= env.ARBORIST_LEASE_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['ARBORIST_HEARTBEAT_MS'],
      message: `must be shorter than ARBORIST_LEASE_MS (${env.ARBORIST_LEASE_MS}): a lease would lapse between renewals`,
    });
  }
  if (env.ARBORIST_AUTH !== '1') return;
  if (!env.ARBORIST_SECRET || env.ARBORIST_SECRET.length < MIN_SECRET_LENGTH) {
    ctx.addIssue({
      code: 'custom',
      path: ['ARBORIST_SECRET'],
      message: `team mode (ARBORIST_AUTH=1) needs a secret of at least ${MIN_SECRET_LENGTH} characters: openssl rand -hex 32`,
    });
  }
  if (Boolean(env.ARBORIST_ADMIN_EMAIL) !== Boolean(env.ARBORIST_ADMIN_PASSWORD)) {
    ctx.addIssue({
      code: 'custom',
      path: ['ARBORIST_ADMIN_PASSWORD'],
      message: 'set both ARBORIST_ADMIN_EMAIL and ARBORIST_ADMIN_PASSWORD, or neither (then use the setup page)',
    });
  }
  if (env.ARBORIST_ADMIN_PASSWORD && env.ARBORIST_ADMIN_PASSWORD.length < MIN_PASSWORD_LENGTH) {
    ctx.addIssue({
      code: 'custom',
      path: ['ARBORIST_ADMIN_PASSWORD'],
      message: `at least ${MIN_PASSWORD_LENGTH} characters`,
    });
  }
});

export function readEnv(source: Record<string, string | undefined> = process.env): ServerEnv {
  const parsed = checkedEnvSchema.safeParse(source);
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  const servers: ModelServer[] = [];
  for (const server of parsed.data?.ARBORIST_MODEL_SERVERS ?? []) {
    const apiKey = server.apiKeyEnv ? source[server.apiKeyEnv]?.trim() || null : null;
    // a key the operator named but did not set would fail every call as 401: say so at start instead
    if (server.apiKeyEnv && !apiKey) {
      problems.push(`ARBORIST_MODEL_SERVERS: server "${server.id}" names ${server.apiKeyEnv}, which is not set`);
    }
    servers.push({ ...server, apiKey });
  }
  if (!parsed.success || problems.length > 0) throw new Error(`Invalid environment: ${problems.join('; ')}`);
  return { ...parsed.data, ARBORIST_MODEL_SERVERS: servers };
}

/** Team mode: accounts, roles, share links. */
export function isTeamMode(env: Pick<ServerEnv, 'ARBORIST_AUTH'>): boolean {
  return env.ARBORIST_AUTH === '1';
}

/** DEFAULT_PRICES with ARBORIST_PRICES over them (a listed model replaces its default price). */
export function loadPriceTable(env: Pick<ServerEnv, 'ARBORIST_PRICES'>): PriceTable {
  return { ...DEFAULT_PRICES, ...(env.ARBORIST_PRICES ?? {}) };
}

/** A cluster's timings from the environment: the lease, and the heartbeat (a third of the lease unless set). */
export function clusterTimings(env: Pick<ServerEnv, 'ARBORIST_LEASE_MS' | 'ARBORIST_HEARTBEAT_MS'>): {
  leaseMs: number;
  heartbeatMs: number;
} {
  const leaseMs = env.ARBORIST_LEASE_MS;
  return { leaseMs, heartbeatMs: env.ARBORIST_HEARTBEAT_MS ?? Math.max(100, Math.floor(leaseMs / 3)) };
}
