/**
 * The run form's model choice, free of React: the simulated model (its seed and latency are form fields), an
 * OpenAI-compatible server (the server's own, one the operator listed in ARBORIST_MODEL_SERVERS, or a custom base
 * URL such as a local Ollama, vLLM, llama.cpp or LM Studio: local mode or admins only), or a replay of another
 * run's recorded calls; turned into run.create's `model`. The fork dialog offers the listed servers the same way.
 * Never holds a key: keys stay on the server.
 */
import type { BaseUrlPresetKind } from '@/lib/contract/model-spec';

export type ModelProvider = 'simulated' | 'openai' | 'replay';

export interface ModelChoice {
  provider: ModelProvider;
  baseUrlPreset: BaseUrlPresetKind;
  baseURL: string;
  /** The listed server, when baseUrlPreset is 'server'. */
  serverId: string;
  model: string;
  temperature: string;
  reasoningEffort: '' | 'low' | 'medium' | 'high';
  jsonMode: boolean;
  recordingRunId: string;
}

/** Common OpenAI-compatible servers people run themselves, with their usual local base URLs. */
export const BASE_URL_PRESETS: { label: string; url: string }[] = [
  { label: 'Ollama', url: 'http://localhost:11434/v1' },
  { label: 'LM Studio', url: 'http://localhost:1234/v1' },
  { label: 'vLLM', url: 'http://localhost:8000/v1' },
  { label: 'llama.cpp server', url: 'http://localhost:8080/v1' },
];

export function defaultModelChoice(defaultModel = 'gpt-4o-mini'): ModelChoice {
  return {
    provider: 'simulated',
    baseUrlPreset: 'openai',
    baseURL: '',
    serverId: '',
    model: defaultModel,
    temperature: '',
    reasoningEffort: '',
    jsonMode: false,
    recordingRunId: '',
  };
}

export type ModelSpecInput =
  | { provider: 'simulated'; seed: number; latencyMs: number }
  | {
      provider: 'openai';
      baseUrlPreset: BaseUrlPresetKind;
      baseURL?: string;
      serverId?: string;
      model: string;
      temperature?: number;
      reasoningEffort?: 'low' | 'medium' | 'high';
      jsonMode?: boolean;
    }
  | { provider: 'replay'; recordingRunId: string };

/** run.create's `model` for this choice; the simulated one keeps the form's seed and latency. */
export function modelSpec(choice: ModelChoice, simulated: { seed: number; latencyMs: number }): ModelSpecInput {
  if (choice.provider === 'simulated') return { provider: 'simulated', ...simulated };
  if (choice.provider === 'replay') return { provider: 'replay', recordingRunId: choice.recordingRunId };
  const temperature = choice.temperature.trim() === '' ? undefined : Number(choice.temperature);
  return {
    provider: 'openai',
    baseUrlPreset: choice.baseUrlPreset,
    ...(choice.baseUrlPreset === 'custom' ? { baseURL: choice.baseURL.trim() } : {}),
    ...(choice.baseUrlPreset === 'server' ? { serverId: choice.serverId } : {}),
    model: choice.model.trim(),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(choice.reasoningEffort ? { reasoningEffort: choice.reasoningEffort } : {}),
    ...(choice.jsonMode ? { jsonMode: true } : {}),
  };
}

/** What is wrong with the choice before sending it (the server checks again). */
export function modelChoiceError(choice: ModelChoice): string | null {
  if (choice.provider === 'replay') return choice.recordingRunId ? null : 'pick the run whose calls to replay';
  if (choice.provider !== 'openai') return null;
  if (choice.baseUrlPreset === 'server' && !choice.serverId) return 'pick one of the listed servers';
  if (!choice.model.trim()) return 'name the model (e.g. gpt-4o-mini, llama3.1)';
  if (choice.baseUrlPreset === 'custom' && !/^https?:\/\/\S+$/.test(choice.baseURL.trim())) {
    return 'a custom server needs its base URL, e.g. http://localhost:11434/v1';
  }
  const t = choice.temperature.trim();
  if (t !== '' && !(Number(t) >= 0 && Number(t) <= 2)) return 'temperature is a number from 0 to 2';
  return null;
}

/** A listed server as the browser knows it (backend.list: never a key). */
export interface ListedServer {
  id: string;
  label: string;
  baseURL: string;
  /** The models it offers; empty: any name. */
  models: string[];
}

const LISTED_PREFIX = 'server:';

/**
 * The server select's value: 'openai' (this server's), 'server:<id>' for a listed server, a preset's URL when the
 * base URL is exactly that preset, else 'custom'. A custom URL (empty while it is being typed, or any other) must
 * show "Custom URL…" as chosen: the select used to take the typed URL as its value, which matched no option, so it
 * showed the first one instead.
 */
export function serverSelectValue(choice: Pick<ModelChoice, 'baseUrlPreset' | 'baseURL' | 'serverId'>): string {
  if (choice.baseUrlPreset === 'openai') return 'openai';
  if (choice.baseUrlPreset === 'server') return `${LISTED_PREFIX}${choice.serverId}`;
  return BASE_URL_PRESETS.some((p) => p.url === choice.baseURL) ? choice.baseURL : 'custom';
}

/** The value of a listed server's option in the server select. */
export function listedServerValue(id: string): string {
  return `${LISTED_PREFIX}${id}`;
}

/**
 * The choice after picking `value` in the server select: this server's, a listed server (its first model chosen
 * when it lists any and the current name is not one of them), a local preset's URL, or "Custom URL…" (which starts
 * empty rather than keeping a preset's URL, which would select that preset).
 */
export function withServer(choice: ModelChoice, value: string, servers: readonly ListedServer[]): ModelChoice {
  if (value === 'openai') return { ...choice, baseUrlPreset: 'openai', baseURL: '', serverId: '' };
  if (value.startsWith(LISTED_PREFIX)) {
    const server = servers.find((s) => s.id === value.slice(LISTED_PREFIX.length));
    const models = server?.models ?? [];
    const model = models.length > 0 && !models.includes(choice.model) ? (models[0] as string) : choice.model;
    return { ...choice, baseUrlPreset: 'server', baseURL: '', serverId: server?.id ?? '', model };
  }
  const keepTyped = serverSelectValue(choice) === 'custom' ? choice.baseURL : '';
  return { ...choice, baseUrlPreset: 'custom', serverId: '', baseURL: value === 'custom' ? keepTyped : value };
}

/**
 * A fork's model, read from its parent's stored spec (Run.modelSettings): the simulator's seed and latency (the
 * fork dialog's fields start from them), or any other model, kept as it is and named by the parent's label. Only a
 * spec that is plainly the simulator's is taken for it: forking must never swap a real model for the simulator.
 */
export type ParentModel = { kind: 'simulated'; seed: number; latencyMs: number } | { kind: 'other'; label: string };

export function parentModel(settings: unknown, label: string): ParentModel {
  const spec = settings as { provider?: unknown; seed?: unknown; latencyMs?: unknown } | null;
  if (spec?.provider === 'simulated' && typeof spec.seed === 'number' && typeof spec.latencyMs === 'number') {
    return { kind: 'simulated', seed: spec.seed, latencyMs: spec.latencyMs };
  }
  return { kind: 'other', label };
}

/**
 * What the fork dialog's foot says of the model the fork will use: a listed server's model, the simulator with its
 * seed and latency (the parent's, changed from the parent's, or not the parent's model), or the parent's own.
 */
export function forkModelNote(
  parent: ParentModel,
  choice: { listed: { label: string; model: string } | null; simulated: boolean; seed: string; latency: string },
): string {
  if (choice.listed) return `${choice.listed.model || '?'} @ ${choice.listed.label} · not the parent’s model`;
  if (!choice.simulated) return `${parent.kind === 'other' ? parent.label : 'simulated'} · the parent’s`;
  const whose =
    parent.kind !== 'simulated'
      ? ' · not the parent’s model'
      : Number(choice.seed) !== parent.seed || Number(choice.latency) !== parent.latencyMs
        ? ' · changed from the parent’s'
        : ' · the parent’s';
  return `simulated (offline), seed ${choice.seed}, ${choice.latency} ms${whose}`;
}
