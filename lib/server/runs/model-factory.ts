/**
 * Which model a run uses, as stored data (ModelSpec, kept in Run.modelSettings), and the LanguageModel built from
 * it. A run is resumed with the same spec, so the simulated model answers a resumed run exactly as it would have.
 *
 * - simulated: the offline model.
 * - openai: any OpenAI-compatible server. The 'openai' preset is the server's OPENAI_BASE_URL (OpenAI itself by
 *   default); 'server' is one of the operator's listed servers (ARBORIST_MODEL_SERVERS); 'custom' is a base URL
 *   given with the run (a vLLM, llama.cpp, Ollama or LM Studio server), which model-servers.ts allows in local
 *   mode or to admins. No key is ever part of a spec: OPENAI_API_KEY is sent only on the 'openai' preset (to
 *   OPENAI_BASE_URL's origin), a listed server's key (its apiKeyEnv) only to that server, and a custom URL gets
 *   none, so no base URL can be used to collect a key. In team mode a custom URL's calls connect to public
 *   addresses only (publicOnlyFetch). Every OpenAI run is recorded (RecordingModel); its recording is its own
 *   event log (see lib/models/recording.ts). Every OpenAI model of one server (origin and path) shares that server's
 *   process-wide limit of requests in flight, ARBORIST_MODEL_SERVER_MAX_CALLS (serverCallLimiter), so the runs of
 *   this process queue together on it.
 * - replay: the model calls of another run, answered from that run's recording (recordingFromEvents of its
 *   events: nothing else is stored). The caller loads the source run's events and passes the recording in.
 * Not responsible for the backends themselves (lib/models, lib/tasks/simulated-model) or for loading events.
 */
import type { ModelSpec, OpenAIModelSpec } from '../../contract/model-spec';
import type { LanguageModel } from '../../engine/index';
import {
  DEFAULT_MODEL_SERVER_MAX_CALLS,
  DEFAULT_OPENAI_BASE_URL,
  displayURL,
  ModelError,
  OpenAIModel,
  type Recording,
  RecordingModel,
  ReplayModel,
  serverCallLimiter,
} from '../../models/index';
import { createSimulatedModel } from '../../tasks/index';
import type { ServerEnv } from '../core/env';
import { findServer, isListedOrigin, publicOnlyFetch, publicServers } from './model-servers';

/** The part of the server's environment the models need (the server limit is optional: absent, its default). */
export type ModelEnv = Pick<
  ServerEnv,
  'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'ARBORIST_DEFAULT_MODEL' | 'ARBORIST_MODEL_SERVERS'
> &
  Partial<Pick<ServerEnv, 'ARBORIST_MODEL_SERVER_MAX_CALLS'>>;

export interface ModelDeps {
  /** The server's environment (readEnv()); required for OpenAI specs. */
  env?: ModelEnv;
  /**
   * Team mode: a custom base URL's calls connect to public addresses only (the address connected to is checked,
   * not only the one checkModelSpecAllowed resolved). Local mode (false, the default) calls any address.
   */
  team?: boolean;
  /** Recordings by run id, for replay specs (recordingFromEvents of the source run's events). */
  recordings?: ReadonlyMap<string, Recording>;
  /** OpenAIModel test hooks (sleep, clock, retries). */
  openai?: Partial<Pick<ConstructorParameters<typeof OpenAIModel>[0], 'sleep' | 'now' | 'random' | 'maxRetries'>>;
}

/** What the run form may offer: never a key (nor the variable holding one), only whether the preset has one. */
export interface Backends {
  simulated: true;
  openai: { configured: boolean; defaultBaseURL: string; defaultModel: string };
  /** The operator's listed servers (ARBORIST_MODEL_SERVERS), in their order. */
  servers: ReturnType<typeof publicServers>;
}

export function listBackends(env: ModelEnv): Backends {
  return {
    simulated: true,
    openai: {
      configured: Boolean(env.OPENAI_API_KEY),
      defaultBaseURL: displayURL(env.OPENAI_BASE_URL),
      defaultModel: env.ARBORIST_DEFAULT_MODEL,
    },
    servers: publicServers(env),
  };
}

export interface OpenAITarget {
  baseURL: string;
  /** The key sent: OPENAI_API_KEY on the 'openai' preset, a listed server's own key, else none. */
  apiKey: string | null;
  /** Connect to public addresses only (a custom URL in team mode that is not a listed server's origin). */
  publicOnly: boolean;
}

/** Where an OpenAI spec's calls go, and which key (if any) goes with them. */
export function resolveOpenAITarget(spec: OpenAIModelSpec, env: ModelEnv, team = false): OpenAITarget {
  switch (spec.baseUrlPreset) {
    case 'openai':
      return {
        baseURL: env.OPENAI_BASE_URL || DEFAULT_OPENAI_BASE_URL,
        apiKey: env.OPENAI_API_KEY || null,
        publicOnly: false,
      };
    case 'server': {
      const server = findServer(env, spec.serverId ?? '');
      if (!server) {
        throw new ModelError(
          'config',
          `the model server "${spec.serverId ?? ''}" is not listed in ARBORIST_MODEL_SERVERS any more: list it again, or fork the run onto another model`,
        );
      }
      return { baseURL: server.baseURL, apiKey: server.apiKey, publicOnly: false };
    }
    case 'custom': {
      const baseURL = spec.baseURL ?? '';
      return { baseURL, apiKey: null, publicOnly: team && !isListedOrigin(env, baseURL) };
    }
  }
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
      const { baseURL, apiKey, publicOnly } = resolveOpenAITarget(spec, deps.env, deps.team ?? false);
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
          ...(publicOnly ? { fetch: publicOnlyFetch } : {}),
          limiter: serverCallLimiter(
            baseURL,
            deps.env.ARBORIST_MODEL_SERVER_MAX_CALLS ?? DEFAULT_MODEL_SERVER_MAX_CALLS,
          ),
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
      if (spec.baseUrlPreset === 'server') return `${spec.model} @ ${spec.serverId ?? '?'}`;
      return spec.baseUrlPreset === 'custom' && spec.baseURL
        ? `${spec.model} @ ${new URL(spec.baseURL).host}`
        : spec.model;
    case 'replay':
      return recording ? `${recording.modelId} (replay)` : `replay of run ${spec.recordingRunId.slice(0, 8)}`;
  }
}
