'use client';
// The model part of the run form: the simulated model (offline), an OpenAI-compatible server (this server's, one the
// operator listed, or a custom base URL), or a replay of another run's recorded model calls. Shows which backends
// the server has; keys never reach the browser, only whether the openai preset has one.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc/index';
import {
  BASE_URL_PRESETS,
  listedServerValue,
  serverSelectValue,
  withServer,
  type ModelChoice,
} from '@/lib/forms/index';
import { ModelNameInput } from '../../shared/ModelNameInput';
import s from './NewRunForm.module.css';

export function ModelPicker({
  choice,
  onChange,
  error,
}: {
  choice: ModelChoice;
  onChange: (next: ModelChoice) => void;
  error: string | null;
}) {
  const trpc = useTRPC();
  const backends = useQuery(trpc.backend.list.queryOptions());
  const openai = backends.data?.openai;
  const servers = backends.data?.servers ?? [];
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <div className={s.fields} data-testid="model-picker">
      <Row label="Model" htmlFor="model-provider" hint={hintFor(choice, openai)}>
        <select
          id="model-provider"
          className={`input ${s.control}`}
          value={choice.provider}
          onChange={(e) => set({ provider: e.target.value as ModelChoice['provider'] })}
          data-testid="field-provider"
        >
          <option value="simulated">Simulated (offline)</option>
          <option value="openai">
            OpenAI-compatible{openai && !openai.configured && servers.length === 0 ? ' (no key on the server)' : ''}
          </option>
          <option value="replay">Replay a recorded run</option>
        </select>
      </Row>
      {choice.provider === 'openai' && <OpenAIFields choice={choice} onChange={onChange} />}
      {choice.provider === 'replay' && <ReplayField choice={choice} onChange={onChange} />}
      {error && (
        <span className={`field-error ${s.settingError}`} role="alert" data-testid="model-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** An OpenAI-compatible server: which one (this server's, a listed one, a URL of one's own), the model and options. */
function OpenAIFields({ choice, onChange }: { choice: ModelChoice; onChange: (next: ModelChoice) => void }) {
  const trpc = useTRPC();
  const backends = useQuery(trpc.backend.list.queryOptions());
  const openai = backends.data?.openai;
  const servers = backends.data?.servers ?? [];
  // until the server says, offer no URL of one's own (a control appears when usable, never flashes and goes)
  const customURLs = backends.data?.customURLs ?? 'none';
  const listed = choice.baseUrlPreset === 'server' ? servers.find((x) => x.id === choice.serverId) : undefined;
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <>
      <Row label="Server" htmlFor="model-preset" hint={serverHint(choice, openai?.defaultBaseURL, listed?.baseURL)}>
        <select
          id="model-preset"
          className={`input ${s.control}`}
          value={serverSelectValue(choice)}
          onChange={(e) => onChange(withServer(choice, e.target.value, servers))}
          data-testid="field-preset"
        >
          <option value="openai">This server’s ({openai?.defaultBaseURL ?? 'OpenAI'})</option>
          {servers.length > 0 && (
            <optgroup label="Listed by the operator">
              {servers.map((server) => (
                <option key={server.id} value={listedServerValue(server.id)}>
                  {server.label}
                </option>
              ))}
            </optgroup>
          )}
          {customURLs !== 'none' && (
            <optgroup label={customURLs === 'any' ? 'Your own' : 'Your own (admins: public addresses only)'}>
              {customURLs === 'any' &&
                BASE_URL_PRESETS.map((p) => (
                  <option key={p.url} value={p.url}>
                    {p.label}
                  </option>
                ))}
              <option value="custom">Custom URL…</option>
            </optgroup>
          )}
        </select>
      </Row>
      {choice.baseUrlPreset === 'custom' && (
        <Row label="Base URL" htmlFor="model-base-url" hint="the server's key is sent only to its own URL">
          <input
            id="model-base-url"
            className={`input ${s.control}`}
            value={choice.baseURL}
            placeholder="http://localhost:11434/v1"
            onChange={(e) => set({ baseURL: e.target.value })}
            data-testid="field-baseURL"
          />
        </Row>
      )}
      <Row
        label="Model name"
        htmlFor="model-name"
        hint={listed?.models.length ? 'the ones it offers' : 'as the server names it'}
      >
        <ModelNameInput
          id="model-name"
          testId="field-model"
          className={`input ${s.control}`}
          models={listed?.models ?? []}
          value={choice.model}
          onChange={(model) => set({ model })}
        />
      </Row>
      <Row label="Temperature" htmlFor="model-temperature" hint="0-2, empty: the server's default">
        <input
          id="model-temperature"
          className={`input ${s.control}`}
          type="number"
          step="0.1"
          value={choice.temperature}
          placeholder="default"
          onChange={(e) => set({ temperature: e.target.value })}
        />
      </Row>
      <Row label="Reasoning effort" htmlFor="model-effort" hint="for models that take one">
        <select
          id="model-effort"
          className={`input ${s.control}`}
          value={choice.reasoningEffort}
          onChange={(e) => set({ reasoningEffort: e.target.value as ModelChoice['reasoningEffort'] })}
        >
          <option value="">not sent</option>
          <option value="low">low</option>
          <option value="medium">medium</option>
          <option value="high">high</option>
        </select>
      </Row>
      <Row label="JSON mode" htmlFor="model-json" hint="where the server supports it">
        <input
          id="model-json"
          type="checkbox"
          checked={choice.jsonMode}
          onChange={(e) => set({ jsonMode: e.target.checked })}
        />
      </Row>
    </>
  );
}

/** A replay: which finished run's recorded model calls answer this one. */
function ReplayField({ choice, onChange }: { choice: ModelChoice; onChange: (next: ModelChoice) => void }) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.run.list.queryOptions({ limit: 100, status: 'finished' }));
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <Row
      label="Recorded run"
      htmlFor="model-recording"
      hint="its calls answer this run; calls it never made are reported"
    >
      <select
        id="model-recording"
        className={`input ${s.control}`}
        value={choice.recordingRunId}
        onChange={(e) => set({ recordingRunId: e.target.value })}
        data-testid="field-recording"
      >
        <option value="">pick a run…</option>
        {(runs.data?.items ?? []).map((r) => (
          <option key={r.id} value={r.id}>
            {r.goal.slice(0, 40)} · {r.modelLabel} · {r.id.slice(0, 8)}
          </option>
        ))}
      </select>
    </Row>
  );
}

function serverHint(choice: ModelChoice, openaiURL: string | undefined, listedURL: string | undefined): string {
  if (choice.baseUrlPreset === 'openai') return openaiURL ?? '';
  if (choice.baseUrlPreset === 'server') return listedURL ?? 'no longer listed';
  return 'any OpenAI-compatible /v1';
}

function hintFor(choice: ModelChoice, openai: { configured: boolean } | undefined): string {
  if (choice.provider === 'simulated') return 'offline, the same seed gives the same tree';
  if (choice.provider === 'replay') return 'offline: the recorded answers, no key needed';
  if (choice.baseUrlPreset !== 'openai') return 'keys stay on the server';
  return openai?.configured
    ? 'the key stays on the server'
    : 'no OPENAI_API_KEY on the server: a local server may not need one';
}

function Row({
  label,
  htmlFor,
  hint,
  children,
}: {
  label: string;
  htmlFor: string;
  hint: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`${s.setting} ${s.wideSetting}`}>
      <div className={s.settingText}>
        <span className={s.settingLabel}>
          <label htmlFor={htmlFor}>{label}</label>
        </span>
        <span className={s.hint}>{hint}</span>
      </div>
      {children}
    </div>
  );
}
