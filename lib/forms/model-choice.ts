/**
 * The run form's model choice, free of React: the simulated model (its seed and latency are form fields), an
 * OpenAI-compatible server (the server's own, or a custom base URL such as a local Ollama, vLLM, llama.cpp or
 * LM Studio), or a replay of another run's recorded calls; turned into run.create's `model`.
 * Never holds a key: the key stays on the server.
 */

export type ModelProvider = 'simulated' | 'openai' | 'replay';

export interface ModelChoice {
  provider: ModelProvider;
  baseUrlPreset: 'openai' | 'custom';
  baseURL: string;
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
      baseUrlPreset: 'openai' | 'custom';
      baseURL?: string;
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
  if (!choice.model.trim()) return 'name the model (e.g. gpt-4o-mini, llama3.1)';
  if (choice.baseUrlPreset === 'custom' && !/^https?:\/\/\S+$/.test(choice.baseURL.trim())) {
    return 'a custom server needs its base URL, e.g. http://localhost:11434/v1';
  }
  const t = choice.temperature.trim();
  if (t !== '' && !(Number(t) >= 0 && Number(t) <= 2)) return 'temperature is a number from 0 to 2';
  return null;
}

/**
 * The server select's value: 'openai' (this server's), a preset's URL when the base URL is exactly that preset, else
 * 'custom'. A custom URL (empty while it is being typed, or any other) must show "Custom URL…" as chosen: the select
 * used to take the typed URL as its value, which matched no option, so it showed the first one instead.
 */
export function serverSelectValue(choice: Pick<ModelChoice, 'baseUrlPreset' | 'baseURL'>): string {
  if (choice.baseUrlPreset === 'openai') return 'openai';
  return BASE_URL_PRESETS.some((p) => p.url === choice.baseURL) ? choice.baseURL : 'custom';
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
