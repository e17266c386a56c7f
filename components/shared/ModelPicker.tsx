'use client';
// Which model a run uses, as the run form and each of an experiment's configurations ask it: the simulated model
// (offline), an OpenAI-compatible server (this server's, one the operator listed, or a custom base URL), or, where the
// caller offers it, a replay of another run's recorded model calls. Shows the backends the caller passes in
// (backend.list's answer: keys never reach the browser, only whether the openai preset has one).
// Not responsible for fetching (the feature asks backend.list and, for a replay, the finished runs), nor for the
// choice's rules and messages (lib/forms/model-choice.ts), nor for the simulator's seed and latency fields.
import type { RouterOutputs } from '@/lib/trpc/index';
import {
  BASE_URL_PRESETS,
  listedServerValue,
  serverSelectValue,
  withServer,
  type ModelChoice,
} from '@/lib/forms/index';
import { ModelNameInput } from './ModelNameInput';
import s from './ModelPicker.module.css';

/** backend.list's answer: the openai preset (whether it has a key), the listed servers, the URLs one may type. */
export type ModelBackends = RouterOutputs['backend']['list'];
/** A finished run a replay may answer from. */
export type RecordedRun = Pick<RouterOutputs['run']['list']['items'][number], 'id' | 'goal' | 'modelLabel'>;

/**
 * Element ids and test ids: the run form's own (`model-provider`, `field-provider`, `model-picker`) without a
 * prefix, else `<prefix>-model-provider`, `<prefix>-provider`, `<prefix>-model-picker`, so several pickers share a page.
 */
function naming(prefix: string | undefined) {
  return {
    id: (part: string) => (prefix ? `${prefix}-model-${part}` : `model-${part}`),
    testId: (part: string) => (prefix ? `${prefix}-${part}` : `field-${part}`),
    own: (part: string) => (prefix ? `${prefix}-${part}` : part),
  };
}
type Naming = ReturnType<typeof naming>;

export function ModelPicker({
  choice,
  onChange,
  error,
  backends,
  replay,
  prefix,
}: {
  choice: ModelChoice;
  onChange: (next: ModelChoice) => void;
  error: string | null;
  /** undefined while the server has not said. */
  backends: ModelBackends | undefined;
  /** The runs a replay may answer from; false: no replay offered (an experiment's cells cannot replay one run). */
  replay: false | { runs: readonly RecordedRun[] };
  prefix?: string;
}) {
  const names = naming(prefix);
  const openai = backends?.openai;
  const servers = backends?.servers ?? [];
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <div className={s.fields} data-testid={names.own('model-picker')}>
      <Row label="Model" htmlFor={names.id('provider')} hint={hintFor(choice, openai)}>
        <select
          id={names.id('provider')}
          className={`input ${s.control}`}
          value={choice.provider}
          onChange={(e) => set({ provider: e.target.value as ModelChoice['provider'] })}
          data-testid={names.testId('provider')}
        >
          <option value="simulated">Simulated (offline)</option>
          <option value="openai">
            OpenAI-compatible{openai && !openai.configured && servers.length === 0 ? ' (no key on the server)' : ''}
          </option>
          {(replay || choice.provider === 'replay') && <option value="replay">Replay a recorded run</option>}
        </select>
      </Row>
      {choice.provider === 'openai' && (
        <OpenAIFields choice={choice} onChange={onChange} backends={backends} names={names} />
      )}
      {choice.provider === 'replay' && (
        <ReplayField choice={choice} onChange={onChange} runs={replay ? replay.runs : []} names={names} />
      )}
      {error && (
        <span className={`field-error ${s.settingError}`} role="alert" data-testid={names.own('model-error')}>
          {error}
        </span>
      )}
    </div>
  );
}

/** An OpenAI-compatible server: which one (this server's, a listed one, a URL of one's own), the model and options. */
function OpenAIFields({
  choice,
  onChange,
  backends,
  names,
}: {
  choice: ModelChoice;
  onChange: (next: ModelChoice) => void;
  backends: ModelBackends | undefined;
  names: Naming;
}) {
  const openai = backends?.openai;
  const servers = backends?.servers ?? [];
  // until the server says, offer no URL of one's own (a control appears when usable, never flashes and goes)
  const customURLs = backends?.customURLs ?? 'none';
  const listed = choice.baseUrlPreset === 'server' ? servers.find((x) => x.id === choice.serverId) : undefined;
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <>
      <Row
        label="Server"
        htmlFor={names.id('preset')}
        hint={serverHint(choice, openai?.defaultBaseURL, listed?.baseURL)}
      >
        <select
          id={names.id('preset')}
          className={`input ${s.control}`}
          value={serverSelectValue(choice)}
          onChange={(e) => onChange(withServer(choice, e.target.value, servers))}
          data-testid={names.testId('preset')}
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
        <Row label="Base URL" htmlFor={names.id('base-url')} hint="the server's key is sent only to its own URL">
          <input
            id={names.id('base-url')}
            className={`input ${s.control}`}
            value={choice.baseURL}
            placeholder="http://localhost:11434/v1"
            onChange={(e) => set({ baseURL: e.target.value })}
            data-testid={names.testId('baseURL')}
          />
        </Row>
      )}
      <Row
        label="Model name"
        htmlFor={names.id('name')}
        hint={listed?.models.length ? 'the ones it offers' : 'as the server names it'}
      >
        <ModelNameInput
          id={names.id('name')}
          testId={names.testId('model')}
          className={`input ${s.control}`}
          models={listed?.models ?? []}
          value={choice.model}
          onChange={(model) => set({ model })}
        />
      </Row>
      <Row label="Temperature" htmlFor={names.id('temperature')} hint="0-2, empty: the server's default">
        <input
          id={names.id('temperature')}
          className={`input ${s.control}`}
          type="number"
          step="0.1"
          value={choice.temperature}
          placeholder="default"
          onChange={(e) => set({ temperature: e.target.value })}
        />
      </Row>
      <Row label="Reasoning effort" htmlFor={names.id('effort')} hint="for models that take one">
        <select
          id={names.id('effort')}
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
      <Row label="JSON mode" htmlFor={names.id('json')} hint="where the server supports it">
        <input
          id={names.id('json')}
          type="checkbox"
          checked={choice.jsonMode}
          onChange={(e) => set({ jsonMode: e.target.checked })}
        />
      </Row>
    </>
  );
}

/** A replay: which finished run's recorded model calls answer this one. */
function ReplayField({
  choice,
  onChange,
  runs,
  names,
}: {
  choice: ModelChoice;
  onChange: (next: ModelChoice) => void;
  runs: readonly RecordedRun[];
  names: Naming;
}) {
  const set = (patch: Partial<ModelChoice>) => onChange({ ...choice, ...patch });
  return (
    <Row
      label="Recorded run"
      htmlFor={names.id('recording')}
      hint="its calls answer this run; calls it never made are reported"
    >
      <select
        id={names.id('recording')}
        className={`input ${s.control}`}
        value={choice.recordingRunId}
        onChange={(e) => set({ recordingRunId: e.target.value })}
        data-testid={names.testId('recording')}
      >
        <option value="">pick a run…</option>
        {runs.map((r) => (
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
    <div className={s.setting}>
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
