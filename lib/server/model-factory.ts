/**
 * Which model a run uses, as stored data (ModelSpec, kept in Run.modelSettings), and the LanguageModel built from
 * it. A run is resumed with the same spec, so the simulated model answers a resumed run exactly as it would have.
 *
 * - simulated: the offline model.
 * - openai: any OpenAI-compatible server. The 'openai' preset is the server's OPENAI_BASE_URL (OpenAI itself by
 *   default); 'custom' is a base URL given with the run (a vLLM, llama.cpp, Ollama or LM Studio server).
 *   The API key is never part of a spec: it comes only from the server's OPENAI_API_KEY and is sent only to
 *   OPENAI_BASE_URL's origin, so a custom base URL cannot be used to collect it. Every OpenAI run is recorded
 *   (RecordingModel); its recording is its own event log (see lib/models/recording.ts).
 * - replay: the model calls of another run, answered from that run's recording (recordingFromEvents of its
 *   events: nothing else is stored). The caller loads the source run's events and passes the recording in.
 * Not responsible for the backends themselves (lib/models, lib/tasks/simulated-model) or for loading events.
 */
import type { ModelSpec, OpenAIModelSpec } from '../contract/model-spec';
import type { LanguageModel } from '../engine/index';
import {
  DEFAULT_OPENAI_BASE_URL,
  displayURL,
  ModelError,
  OpenAIModel,
  type Recording,
  RecordingModel,
  ReplayModel,
} from '../models/index';
import { createSimulatedModel } from '../tasks/index';
import type { ServerEnv } from './env';

/** The part of the server's environment the models need. */
export type ModelEnv = Pick<ServerEnv, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'ARBORIST_DEFAULT_MODEL'>;

export interface ModelDeps {
  /** The server's environment (readEnv()); required for OpenAI specs. */
  env?: ModelEnv;
  /** Recordings by run id, for replay specs (recordingFromEvents of the source run's events). */
  recordings?: ReadonlyMap<string, Recording>;
  /** OpenAIModel test hooks (sleep, clock, retries). */
  openai?: Partial<Pick<ConstructorParameters<typeof OpenAIModel>[0], 'sleep' | 'now' | 'random' | 'maxRetries'>>;
}

/** What the run form may offer: never the key, only whether there is one. */
export interface Backends {
  simulated: true;
  openai: { configured: boolean; defaultBaseURL: string; defaultModel: string };
}

export function listBackends(env: ModelEnv): Backends {
  return {
    simulated: true,
    openai: {
      configured: Boolean(env.OPENAI_API_KEY),
      defaultBaseURL: displayURL(env.OPENAI_BASE_URL),
      defaultModel: env.ARBORIST_DEFAULT_MODEL,
    },
  };
}

/** Where an OpenAI spec's calls go, and whether the server's key goes with them. */
export function resolveOpenAITarget(spec: OpenAIModelSpec, env: ModelEnv): { baseURL: string; apiKey: string | null } {
  const defaultBase = env.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL;
  const baseURL = spec.baseUrlPreset === 'custom' && spec.baseURL ? spec.baseURL : defaultBase;
  const sameOrigin = new URL(baseURL).origin === new URL(defaultBase).origin;
  return { baseURL, apiKey: sameOrigin && env.OPENAI_API_KEY ? env.OPENAI_API_KEY : null };
}

export function createModel(spec: ModelSpec, deps: ModelDeps = {}): LanguageModel {
  switch (spec.provider) {
    case 'simulated':
      // a little jitter around the chosen latency, drawn deterministically per request
      return createSimulatedModel({
        seed: spec.seed,
        latencyMs: spec.latencyMs > 0 ? [spec.latencyMs * 0.5, spec.latencyMs * 1.5] : 0,
      });
    case 'openai': {
      if (!deps.env) throw new Error('createModel: an OpenAI model needs the server environment (deps.env)');
      const { baseURL, apiKey } = resolveOpenAITarget(spec, deps.env);
      if (!apiKey && new URL(baseURL).hostname === 'api.openai.com') {
        throw new ModelError(
          'config',
          'OPENAI_API_KEY is not set on the server: set it in the environment of `npm start` to use OpenAI, or pick the simulated model or a custom server',
        );
      }
      return new RecordingModel(
        new OpenAIModel({
          apiKey,
          baseURL,
          model: spec.model,
          temperature: spec.temperature,
          reasoningEffort: spec.reasoningEffort,
          jsonMode: spec.jsonMode,
          timeoutMs: spec.timeoutMs,
          seed: spec.seed,
          ...deps.openai,
        }),
      );
    }
    case 'replay': {
      const recording = deps.recordings?.get(spec.recordingRunId);
      if (!recording) {
        throw new ModelError(
          'config',
          `no recording of run ${spec.recordingRunId} was loaded: replay a run that still exists and made model calls`,
        );
      }
      return new ReplayModel(recording);
    }
  }
}

/** The model's name as pricing and the run list know it (a replay: the recorded model's, when known). */
export function specModelId(spec: ModelSpec, recording?: Recording): string {
  switch (spec.provider) {
    case 'simulated':
      return 'simulated';
    case 'openai':
      return spec.model;
    case 'replay':
      return recording?.modelId ?? 'replay';
  }
}

/** How the model is named in lists and headers. */
export function modelLabel(spec: ModelSpec, recording?: Recording): string {
  switch (spec.provider) {
    case 'simulated':
      return 'simulated';
    case 'openai':
      return spec.baseUrlPreset === 'custom' && spec.baseURL
        ? `${spec.model} @ ${new URL(spec.baseURL).host}`
        : spec.model;
    case 'replay':
      return recording ? `${recording.modelId} (replay)` : `replay of run ${spec.recordingRunId.slice(0, 8)}`;
  }
}
