'use client';
// The form that starts a run: task, goal (or puzzle), strategy, the main config fields with their defaults,
// the simulated model's seed and latency. Server-side validation messages appear beside their fields.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { DEFAULT_TOT_CONFIG } from '@/lib/engine/config';
import type { ExplorationStrategy, ToTConfig } from '@/lib/engine/types';
import { TASKS } from '@/lib/tasks/index';
import { useTRPC } from '@/lib/trpc/client';

type NumberField =
  'maxDepth' | 'branchFactor' | 'beamWidth' | 'confidenceThreshold' | 'terminationConfidence' | 'maxTotalNodes';

const NUMBER_FIELDS: { key: NumberField; label: string; step: string; hint: string }[] = [
  { key: 'maxDepth', label: 'Max depth', step: '1', hint: 'levels below the goal' },
  { key: 'branchFactor', label: 'Branch factor', step: '1', hint: 'candidates per expansion' },
  { key: 'beamWidth', label: 'Beam width', step: '1', hint: 'best candidates queued' },
  { key: 'confidenceThreshold', label: 'Threshold', step: '0.05', hint: 'drop below this score' },
  { key: 'terminationConfidence', label: 'Stop at', step: '0.05', hint: 'confidence that ends it' },
  { key: 'maxTotalNodes', label: 'Node cap', step: '1', hint: 'nodes executed at most' },
];

export function NewRunForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const [taskId, setTaskId] = useState<string>(TASKS[0]?.id ?? 'game24');
  const task = TASKS.find((t) => t.id === taskId) ?? TASKS[0];
  const [goal, setGoal] = useState(task?.exampleGoal ?? '');
  const [strategy, setStrategy] = useState<ExplorationStrategy>(DEFAULT_TOT_CONFIG.explorationStrategy);
  const [numbers, setNumbers] = useState<Record<NumberField, string>>(
    () =>
      Object.fromEntries(NUMBER_FIELDS.map((f) => [f.key, String(DEFAULT_TOT_CONFIG[f.key])])) as Record<
        NumberField,
        string
      >,
  );
  const [seed, setSeed] = useState('3');
  const [latency, setLatency] = useState('150');
  const create = useMutation(trpc.run.create.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));

  const serverField =
    create.error?.data && 'field' in create.error.data ? (create.error.data.field as string | null) : null;
  const zodFields =
    create.error?.data && 'zodError' in create.error.data ? create.error.data.zodError?.fieldErrors : undefined;
  const errorFor = (field: string): string | null => {
    if (serverField === field || serverField === `config.${field}`) return create.error?.message ?? null;
    const z = zodFields as Record<string, string[] | undefined> | undefined;
    return z?.[field]?.[0] ?? null;
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const config: Partial<ToTConfig> = { explorationStrategy: strategy };
    for (const f of NUMBER_FIELDS) {
      const value = Number(numbers[f.key]);
      (config as Record<string, number>)[f.key] = Number.isFinite(value) ? value : NaN;
    }
    create.mutate({
      taskId,
      goal,
      config,
      model: { provider: 'simulated', seed: Number(seed), latencyMs: Number(latency) },
    });
  }

  const generalError = create.error && !serverField && !zodFields ? create.error.message : null;

  return (
    <form className="new-run" onSubmit={submit} aria-label="Start a run" noValidate>
      <div className="new-run-row">
        <div className="field">
          <label htmlFor="task">Task</label>
          <select
            id="task"
            value={taskId}
            onChange={(e) => {
              setTaskId(e.target.value);
              setGoal(TASKS.find((t) => t.id === e.target.value)?.exampleGoal ?? '');
            }}
          >
            {TASKS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="goal">{taskId === 'game24' ? 'Puzzle' : 'Goal'}</label>
          <input
            id="goal"
            value={goal}
            onChange={(e) => setGoal(e.target.value)}
            aria-invalid={Boolean(errorFor('goal'))}
          />
          {errorFor('goal') ? (
            <span className="field-error">{errorFor('goal')}</span>
          ) : (
            <span className="field-hint">{task?.describeGoal}</span>
          )}
        </div>
      </div>
      <div className="new-run-grid">
        <div className="field">
          <label htmlFor="strategy">Strategy</label>
          <select id="strategy" value={strategy} onChange={(e) => setStrategy(e.target.value as ExplorationStrategy)}>
            <option value="beam">beam</option>
            <option value="best-first">best-first</option>
            <option value="dfs">dfs</option>
          </select>
          <span className="field-hint">which queued node runs next</span>
        </div>
        {NUMBER_FIELDS.map((f) => (
          <div className="field" key={f.key}>
            <label htmlFor={f.key}>{f.label}</label>
            <input
              id={f.key}
              type="number"
              step={f.step}
              value={numbers[f.key]}
              onChange={(e) => setNumbers((n) => ({ ...n, [f.key]: e.target.value }))}
              aria-invalid={Boolean(errorFor(f.key))}
            />
            {errorFor(f.key) ? (
              <span className="field-error">{errorFor(f.key)}</span>
            ) : (
              <span className="field-hint">{f.hint}</span>
            )}
          </div>
        ))}
        <div className="field">
          <label htmlFor="seed">Seed</label>
          <input id="seed" type="number" value={seed} onChange={(e) => setSeed(e.target.value)} />
          <span className="field-hint">simulated model</span>
        </div>
        <div className="field">
          <label htmlFor="latency">Latency (ms)</label>
          <input id="latency" type="number" step="50" value={latency} onChange={(e) => setLatency(e.target.value)} />
          <span className="field-hint">per model call</span>
        </div>
      </div>
      <div className="new-run-foot">
        <span className="field-hint">Model: simulated (offline, deterministic per seed)</span>
        {generalError && <span className="field-error">{generalError}</span>}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Starting…' : 'Start run'}
        </button>
      </div>
    </form>
  );
}
