/**
 * Which model a run uses, as stored data (ModelSpec), and the LanguageModel built from it. A run is resumed with
 * the same spec, so the simulated model answers a resumed run exactly as it would have.
 * Not responsible for the backends themselves (lib/models, lib/tasks/simulated-model).
 */
import { z } from 'zod';
import type { LanguageModel } from '../engine/types';
import { createSimulatedModel } from '../tasks/simulated-model';

export const modelSpecSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('simulated'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    /** Milliseconds per call, so a live run looks like a real model. */
    latencyMs: z.number().int().min(0).max(10_000).default(150),
  }),
]);

export type ModelSpec = z.infer<typeof modelSpecSchema>;

export function createModel(spec: ModelSpec): LanguageModel {
  switch (spec.provider) {
    case 'simulated':
      // a little jitter around the chosen latency, drawn deterministically per request
      return createSimulatedModel({
        seed: spec.seed,
        latencyMs: spec.latencyMs > 0 ? [spec.latencyMs * 0.5, spec.latencyMs * 1.5] : 0,
      });
  }
}

/** How the model is named in lists and headers. */
export function modelLabel(spec: ModelSpec): string {
  return spec.provider === 'simulated' ? 'simulated' : spec.provider;
}
