/**
 * SimulatedModel: the offline model, the default everywhere. Its answer is a pure function of
 * (seed, request), so a resumed run gets the same answers as an uninterrupted one. Each task brings the
 * simulation of its own prompts; the model picks the first simulation that recognises a request.
 * Optional latency makes a live run look like a real model. Tokens are counted (about 4 characters a token).
 * Not responsible for what a good answer is: the simulations are (lib/tasks/*).
 */
import { countTokens, type CompletionRequest, type CompletionResponse, type LanguageModel } from '../engine/index';
import { createRng, hashString, type Rng } from './random';
import { sleep } from '../contract/sleep';

export interface Simulation {
  /** The task this simulation answers for (for error messages). */
  taskId: string;
  recognizes(request: CompletionRequest): boolean;
  respond(request: CompletionRequest, rng: Rng): string;
}

export interface SimulatedModelOptions {
  seed?: number;
  /** Milliseconds each call waits; a number, or [min, max] drawn deterministically per request. */
  latencyMs?: number | [number, number];
  simulations: Simulation[];
}

export const SIMULATED_MODEL_ID = 'simulated';

/** Defined with the prices (lib/engine/pricing.ts), which a cost cap's estimate uses too. */
export { countTokens };

export class SimulatedModel implements LanguageModel {
  readonly id = SIMULATED_MODEL_ID;
  readonly seed: number;
  private readonly latency: [number, number];
  private readonly simulations: Simulation[];

  constructor(options: SimulatedModelOptions) {
    this.seed = options.seed ?? 0;
    const l = options.latencyMs ?? 0;
    this.latency = Array.isArray(l) ? l : [l, l];
    this.simulations = options.simulations;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    const key = `${request.purpose}\u0000${request.messages.map((m) => `${m.role}:${m.content}`).join('\u0000')}`;
    const rng = createRng(hashString(key, this.seed));
    const simulation = this.simulations.find((s) => s.recognizes(request));
    if (!simulation) {
      throw new Error(`the simulated model has no simulation for this ${request.purpose} prompt`);
    }
    const text = simulation.respond(request, rng);
    const [min, max] = this.latency;
    const wait = min + (max - min) * rng.next();
    if (wait > 0) await sleep(wait, request.signal);
    request.signal?.throwIfAborted();
    const input = request.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
    return { text, usage: { inputTokens: input, outputTokens: countTokens(text) } };
  }
}
