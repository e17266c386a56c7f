/**
 * Which model a run uses, as data (a ModelSpec, kept in Run.modelSettings and sent by the run form and the fork
 * dialog): the zod schema the API validates with and the form checks against, so the bounds (a simulated model's
 * seed and latency, an OpenAI-compatible server's fields) are written once. Never holds an API key: keys live only
 * on the server (lib/server/model-factory.ts sends OPENAI_API_KEY to OPENAI_BASE_URL on the 'openai' preset alone,
 * and a listed server's own key to that server alone). Specs stored before listed servers existed ('openai' and
 * 'custom' presets) read as they always did.
 * Browser-safe, imports only zod. Not responsible for building a model from a spec (lib/server/model-factory.ts).
 */
import { z } from 'zod';

const seedSchema = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/** Milliseconds per call, so a live run looks like a real model. */
const latencySchema = z.number().int().min(0).max(10_000);

/** The simulated model's two settings, as the run form and the fork dialog edit them (no defaults: both required). */
export const simulatedSettingsSchema = z.object({ seed: seedSchema, latencyMs: latencySchema });

/** Where an OpenAI-compatible spec's calls go (see baseUrlPreset below). */
export const BASE_URL_PRESET_KINDS = ['openai', 'server', 'custom'] as const;
export type BaseUrlPresetKind = (typeof BASE_URL_PRESET_KINDS)[number];

const openAISpecSchema = z
  .object({
    provider: z.literal('openai'),
    /**
     * 'openai': the server's OPENAI_BASE_URL; 'server': the operator's listed server `serverId`
     * (ARBORIST_MODEL_SERVERS); 'custom': `baseURL` below (local mode or admins only, lib/server/model-servers.ts).
     */
    baseUrlPreset: z.enum(BASE_URL_PRESET_KINDS).default('openai'),
    serverId: z.string().min(1).max(40).optional(),
    baseURL: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .max(500)
      .optional(),
    model: z
      .string()
      .trim()
      .min(1, 'pick a model')
      .max(200)
      .regex(/^[^\s\p{Cc}]+$/u, 'a model name has no spaces'),
    temperature: z.number().min(0).max(2).optional(),
    reasoningEffort: z.enum(['low', 'medium', 'high']).optional(),
    /** Ask for JSON objects on generate/evaluate calls whose prompt asks for JSON (the open-goal task's). */
    jsonMode: z.boolean().optional(),
    /** Per HTTP attempt. */
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
    /** Sent to the server as its seed (best-effort determinism). */
    seed: seedSchema.optional(),
  })
  .superRefine((spec, ctx) => {
    if (spec.baseUrlPreset === 'server' && !spec.serverId) {
      ctx.addIssue({ code: 'custom', path: ['serverId'], message: 'pick one of the listed servers' });
    }
    if (spec.baseUrlPreset !== 'server' && spec.serverId) {
      ctx.addIssue({ code: 'custom', path: ['serverId'], message: 'a server id is given only with the server preset' });
    }
    if (spec.baseUrlPreset === 'custom' && !spec.baseURL) {
      ctx.addIssue({ code: 'custom', path: ['baseURL'], message: 'a custom server needs its base URL' });
    }
    if (spec.baseUrlPreset !== 'custom' && spec.baseURL) {
      ctx.addIssue({ code: 'custom', path: ['baseURL'], message: 'a base URL is given only with the custom preset' });
    }
    if (spec.baseURL && /[?#]|\/\/[^/]*@/.test(spec.baseURL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['baseURL'],
        message: 'a base URL carries no credentials or query (the key comes from the server)',
      });
    }
  });

export const modelSpecSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('simulated'),
    seed: seedSchema.default(1),
    latencyMs: latencySchema.default(150),
  }),
  openAISpecSchema,
  z.object({
    provider: z.literal('replay'),
    /** The run whose recorded model calls answer this one. */
    recordingRunId: z.string().min(1).max(100),
    /** Never set: a replay has no seed of its own (declared so `spec.seed` reads the same on every provider). */
    seed: z.undefined().optional(),
  }),
]);

export type ModelSpec = z.infer<typeof modelSpecSchema>;
export type OpenAIModelSpec = Extract<ModelSpec, { provider: 'openai' }>;
