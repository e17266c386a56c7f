'use client';
/**
 * The form that starts an experiment: a name, the task, the items (ItemsPicker.tsx), one or more configurations
 * (ConfigurationCard.tsx), repetitions and a cost cap. Before Start it shows what experiment.estimate says of the
 * draft as it stands: the cell count, the estimated cost and every problem create would refuse (beside the
 * browser's own); Start is disabled while there is any. A refusal of create is shown with the field it names. On
 * success it opens the experiment's page.
 * Not responsible for parsing the draft (lib/forms/experiment-form.ts) nor for the server's checks.
 */
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useMemo, useState, type FormEvent } from 'react';
import { formatCost } from '@/lib/contract/format';
import { TASK_INFO } from '@/lib/contract/tasks';
import {
  configurationDraft,
  configurationFieldErrors,
  experimentRequest,
  initialConfigurations,
  problemPlace,
  type ConfigurationDraft,
  type Problem,
} from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import { ConfigurationCard } from './ConfigurationCard';
import { ItemsPicker, type ChosenDataset } from './ItemsPicker';
import s from './NewExperimentForm.module.css';

export function NewExperimentForm() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [taskId, setTaskId] = useState<string>(TASK_INFO[0]?.id ?? 'game24');
  const [dataset, setDataset] = useState<ChosenDataset | null>(null);
  const [configurations, setConfigurations] = useState<ConfigurationDraft[]>(initialConfigurations);
  const [repetitions, setRepetitions] = useState('1');
  const [costCapUsd, setCostCapUsd] = useState('');
  // the model pickers' backends, asked once for every configuration
  const backends = useQuery(trpc.backend.list.queryOptions());

  const request = useMemo(
    () => experimentRequest({ name, taskId, datasetId: dataset?.id ?? null, configurations, repetitions, costCapUsd }),
    [name, taskId, dataset, configurations, repetitions, costCapUsd],
  );
  // typing in a field asks again once React has a moment, not on every keystroke's render
  const input = useDeferredValue(request.input);
  const estimate = useQuery({
    ...trpc.experiment.estimate.queryOptions(input ?? skipToken),
    placeholderData: keepPreviousData,
  });
  const create = useMutation(
    trpc.experiment.create.mutationOptions({
      onSuccess: ({ id }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.experiment.list.pathKey() });
        router.push(`/experiments/${encodeURIComponent(id)}`);
      },
    }),
  );

  const current = input !== null && input === request.input && !estimate.isPlaceholderData;
  const serverProblems: Problem[] = current ? (estimate.data?.problems ?? []) : [];
  const refusal = create.error
    ? [{ field: (create.error.data as { field?: string } | undefined)?.field ?? '', message: create.error.message }]
    : [];
  const problems = [...request.problems, ...serverProblems, ...refusal];
  // no items yet is where every draft starts, not a mistake: the estimate's line asks for them
  const shownProblems = problems.filter((p) => p.field !== 'datasetId');
  const busy = create.isPending || create.isSuccess;
  const ready = request.input !== null && current && estimate.isSuccess && serverProblems.length === 0;
  const labels = configurations.map((c) => c.label);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready || busy || !request.input) return;
    create.mutate(request.input);
  }

  function update(next: ConfigurationDraft[]) {
    setConfigurations(next);
    create.reset();
  }

  return (
    <form className={s.form} onSubmit={submit} aria-label="Start an experiment" noValidate data-testid="new-experiment">
      <DraftBasics
        name={name}
        namePlaceholder={dataset ? `${dataset.name}: ${labels.join(' vs ')}` : 'optional'}
        taskId={taskId}
        repetitions={repetitions}
        costCapUsd={costCapUsd}
        onName={setName}
        onTask={(id) => {
          setTaskId(id);
          setDataset(null);
        }}
        onRepetitions={setRepetitions}
        onCostCap={setCostCapUsd}
      />

      <ItemsPicker key={taskId} taskId={taskId} chosen={dataset} onDataset={setDataset} />

      <div className={s.configurations}>
        {configurations.map((c, i) => (
          <ConfigurationCard
            key={c.key}
            index={i}
            draft={c}
            errors={configurationFieldErrors(problems, i)}
            backends={backends.data}
            onChange={(next) => update(configurations.map((x) => (x.key === c.key ? next : x)))}
            onRemove={configurations.length > 1 ? () => update(configurations.filter((x) => x.key !== c.key)) : null}
          />
        ))}
        <button
          type="button"
          className={`btn ${s.addConfiguration}`}
          onClick={() => {
            const key = Math.max(0, ...configurations.map((c) => c.key)) + 1;
            const last = configurations.at(-1);
            update([...configurations, configurationDraft(key, `configuration ${key}`, last?.settings, last?.model)]);
          }}
          data-testid="add-configuration"
        >
          + Add a configuration
        </button>
      </div>

      <div className={s.foot}>
        <Estimate
          cells={current ? (estimate.data?.cells ?? null) : null}
          cost={current ? (estimate.data?.estimatedCostUsd ?? null) : null}
          basis={current ? (estimate.data?.basis ?? '') : ''}
          pending={request.input !== null && !current}
          noItems={dataset === null}
          error={estimate.error?.message ?? null}
        />
        <button type="submit" className="btn btn-primary" disabled={!ready || busy} data-testid="start-experiment">
          {busy ? 'Starting…' : 'Start experiment'}
        </button>
      </div>
      {shownProblems.length > 0 && (
        <ul className={s.problems} data-testid="experiment-problems" aria-live="polite">
          {shownProblems.map((p, i) => (
            <li key={`${p.field}-${i}`}>
              <b>{problemPlace(p.field, labels)}</b>: {p.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

function Estimate({
  cells,
  cost,
  basis,
  pending,
  noItems,
  error,
}: {
  cells: number | null;
  cost: number | null;
  basis: string;
  pending: boolean;
  noItems: boolean;
  error: string | null;
}) {
  if (error) return <span className="field-error">Could not estimate: {error}</span>;
  if (cells === null)
    return (
      <span className="field-hint" data-testid="estimate-hint">
        {pending
          ? 'Estimating…'
          : noItems
            ? 'Choose the items: the cell count and the cost estimate follow.'
            : 'The estimate shows once the problems below are fixed.'}
      </span>
    );
  return (
    <span className={s.estimate} data-testid="experiment-estimate">
      <b data-testid="estimate-cells">{cells.toLocaleString('en-US')} cells</b>
      <span title={basis}>
        {cost === null ? 'cost not known' : `about ${formatCost(cost)}`}
        {basis && <span className={s.basis}> · {basis}</span>}
      </span>
    </span>
  );
}

/** The draft's basics: its name, task, repetitions and cost cap. */
function DraftBasics({
  name,
  namePlaceholder,
  taskId,
  repetitions,
  costCapUsd,
  onName,
  onTask,
  onRepetitions,
  onCostCap,
}: {
  name: string;
  namePlaceholder: string;
  taskId: string;
  repetitions: string;
  costCapUsd: string;
  onName: (v: string) => void;
  onTask: (v: string) => void;
  onRepetitions: (v: string) => void;
  onCostCap: (v: string) => void;
}) {
  return (
    <div className={s.topRow}>
      <div className="field">
        <label htmlFor="experiment-name">Name</label>
        <input
          id="experiment-name"
          value={name}
          placeholder={namePlaceholder}
          onChange={(e) => onName(e.target.value)}
          data-testid="field-experiment-name"
        />
      </div>
      <div className="field">
        <label htmlFor="experiment-task">Task</label>
        <select
          id="experiment-task"
          value={taskId}
          onChange={(e) => onTask(e.target.value)}
          data-testid="field-experiment-task"
        >
          {TASK_INFO.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="experiment-repetitions">Repetitions</label>
        <input
          id="experiment-repetitions"
          type="number"
          min={1}
          value={repetitions}
          onChange={(e) => onRepetitions(e.target.value)}
          data-testid="field-repetitions"
        />
        <span className="field-hint">runs per item and configuration</span>
      </div>
      <div className="field">
        <label htmlFor="experiment-cap">Cost cap ($)</label>
        <input
          id="experiment-cap"
          type="number"
          step="0.1"
          min={0}
          placeholder="none"
          value={costCapUsd}
          onChange={(e) => onCostCap(e.target.value)}
          data-testid="field-cost-cap"
        />
        <span className="field-hint">for the whole experiment</span>
      </div>
    </div>
  );
}
