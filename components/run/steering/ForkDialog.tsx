'use client';
// "Fork from here": a new run whose tree starts as the path to this node, with the node's thought editable and
// its own strategy, beam width and cost cap, on the parent's model unless the person picks another here (the
// simulated one, or one of the operator's listed servers; visibly: the foot names the model the fork will use). The
// new run links back to this one and opens with its own copy of the node selected (a fork renumbers node ids).
// Escape or a click outside closes it.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import {
  costCapError,
  forkModelNote,
  listedServerValue,
  parentModel,
  STRATEGIES,
  type ListedServer,
} from '@/lib/forms/index';
import type { ExplorationStrategy } from '@/lib/contract/vocabulary';
import { useTRPC } from '@/lib/trpc/index';
import { ModelNameInput } from '../../shared/ModelNameInput';
import { useRunStore } from '../page/RunStoreContext';
import { useDialogKeys } from '../../shared/useDialogKeys';

export function ForkDialog({ runId, nodeId, onClose }: { runId: string; nodeId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const run = useQuery(trpc.run.byId.queryOptions({ id: runId }));
  // the dialog's fields start from the parent's model, so it waits for the run rather than guessing one
  if (!run.data) return null;
  return (
    <ForkForm
      runId={runId}
      nodeId={nodeId}
      onClose={onClose}
      parent={parentModel(run.data.modelSettings, run.data.modelLabel)}
    />
  );
}

function ForkForm({
  runId,
  nodeId,
  onClose,
  parent,
}: {
  runId: string;
  nodeId: string;
  onClose: () => void;
  parent: ReturnType<typeof parentModel>;
}) {
  useDialogKeys(onClose);
  const trpc = useTRPC();
  const router = useRouter();
  const node = useRunStore((s) => s.tree.nodes[nodeId]);
  const config = useRunStore((s) => s.tree.config);
  const [thought, setThought] = useState(node?.branch?.thought ?? '');
  // the fork's own search settings, as typed
  const [settings, setSettings] = useState<ForkSettings>(() => ({
    strategy: config.explorationStrategy,
    beamWidth: String(config.beamWidth),
    branchFactor: String(config.branchFactor),
    maxCost: config.maxCostUsd != null ? String(config.maxCostUsd) : '',
    seed: String(parent.kind === 'simulated' ? parent.seed : 1),
    latency: String(parent.kind === 'simulated' ? parent.latencyMs : 150),
  }));
  const { strategy, beamWidth, branchFactor, maxCost, seed, latency } = settings;
  // 'parent': the parent's model as it is (sent as no model: the server uses the parent's spec); 'simulated': the
  // offline model with the seed and latency below (a simulated parent's own values to start with)
  // or 'server:<id>': one of the operator's listed servers, with the model name below
  const [modelKind, setModelKind] = useState<string>(parent.kind === 'simulated' ? 'simulated' : 'parent');
  const [serverModel, setServerModel] = useState('');
  const servers = useQuery(trpc.backend.list.queryOptions()).data?.servers ?? [];
  const listed = servers.find((x) => listedServerValue(x.id) === modelKind);
  const fork = useMutation(
    trpc.run.fork.mutationOptions({
      onSuccess: ({ id, nodeId: copy }) => router.push(`/runs/${id}?node=${encodeURIComponent(copy)}`),
    }),
  );
  if (!node) return null;
  const isRoot = node.parentId === null;
  const simulated = modelKind === 'simulated';
  const costError = costCapError(maxCost);
  const listedModel = listed && listed.models.length > 0 && !serverModel ? (listed.models[0] ?? '') : serverModel;
  const modelNote = forkModelNote(parent, {
    listed: listed ? { label: listed.label, model: listedModel } : null,
    simulated,
    seed,
    latency,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (costError) return;
    fork.mutate({
      runId,
      nodeId,
      thought: isRoot || thought === node?.branch?.thought ? null : thought,
      config: {
        explorationStrategy: strategy,
        beamWidth: Number(beamWidth),
        branchFactor: Number(branchFactor),
        maxCostUsd: maxCost.trim() === '' ? null : Number(maxCost),
      },
      ...(simulated && { model: { provider: 'simulated', seed: Number(seed), latencyMs: Number(latency) } }),
      ...(listed && {
        model: { provider: 'openai', baseUrlPreset: 'server', serverId: listed.id, model: listedModel.trim() },
      }),
    });
  }

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Fork from this node" onClick={onClose}>
      <form
        className="overlay-card fork-dialog"
        onClick={(e) => e.stopPropagation()}
        onSubmit={submit}
        data-testid="fork-dialog"
      >
        <div className="panel-head">
          <h2>Fork from {nodeId}</h2>
          <button type="button" className="btn btn-sm" onClick={onClose}>
            Cancel
          </button>
        </div>
        <div className="panel-body fork-body">
          <p className="field-hint">
            A new run starts with the path from the goal to this node, copied as it is here. Edit the thought to try
            another step in its place: it runs afresh.
          </p>
          {!isRoot && (
            <div className="field">
              <label htmlFor="fork-thought">Thought of {nodeId}</label>
              <textarea
                id="fork-thought"
                rows={4}
                value={thought}
                onChange={(e) => setThought(e.target.value)}
                autoFocus
              />
            </div>
          )}
          <ForkModelFields
            parent={parent}
            servers={servers}
            modelKind={modelKind}
            onModelKind={setModelKind}
            listed={listed}
            listedModel={listedModel}
            onServerModel={setServerModel}
          />
          <ForkSettingsGrid
            settings={settings}
            onChange={(patch) => setSettings((x) => ({ ...x, ...patch }))}
            simulated={simulated}
            costError={costError}
          />
          {fork.error && (
            <p className="field-error" role="alert">
              {fork.error.message}
            </p>
          )}
          <div className="fork-foot">
            <span className="field-hint" data-testid="fork-model-note">
              Model: {modelNote}
            </span>
            <button
              type="submit"
              className="btn btn-primary"
              disabled={fork.isPending || costError !== null}
              autoFocus={isRoot}
            >
              {fork.isPending ? 'Forking…' : 'Start the fork'}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}

/** Which model the fork runs on (the parent's, the simulator, a listed server) and a listed server's model name. */
interface ForkSettings {
  strategy: ExplorationStrategy;
  beamWidth: string;
  branchFactor: string;
  maxCost: string;
  seed: string;
  latency: string;
}

/** The fork's search settings (strategy, branch factor, beam width, cost cap) and the simulator's seed and latency. */
function ForkSettingsGrid({
  settings,
  onChange,
  simulated,
  costError,
}: {
  settings: ForkSettings;
  onChange: (patch: Partial<ForkSettings>) => void;
  simulated: boolean;
  costError: string | null;
}) {
  return (
    <div className="fork-grid">
      <div className="field">
        <label htmlFor="fork-strategy">Strategy</label>
        <select
          id="fork-strategy"
          value={settings.strategy}
          onChange={(e) => onChange({ strategy: e.target.value as ExplorationStrategy })}
        >
          {STRATEGIES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="fork-branch">Branch factor</label>
        <input
          id="fork-branch"
          type="number"
          value={settings.branchFactor}
          onChange={(e) => onChange({ branchFactor: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="fork-beam">Beam width</label>
        <input
          id="fork-beam"
          type="number"
          value={settings.beamWidth}
          onChange={(e) => onChange({ beamWidth: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="fork-cost">Cost cap ($)</label>
        <input
          id="fork-cost"
          type="number"
          step="0.1"
          value={settings.maxCost}
          placeholder="none"
          onChange={(e) => onChange({ maxCost: e.target.value })}
          aria-invalid={Boolean(costError)}
          data-testid="fork-cost"
        />
        {costError && (
          <span className="field-error" role="alert" data-testid="fork-cost-error">
            {costError}
          </span>
        )}
      </div>
      {simulated && (
        <>
          <div className="field">
            <label htmlFor="fork-seed">Seed</label>
            <input
              id="fork-seed"
              type="number"
              value={settings.seed}
              onChange={(e) => onChange({ seed: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor="fork-latency">Latency (ms)</label>
            <input
              id="fork-latency"
              type="number"
              value={settings.latency}
              onChange={(e) => onChange({ latency: e.target.value })}
            />
          </div>
        </>
      )}
    </div>
  );
}

function ForkModelFields({
  parent,
  servers,
  modelKind,
  onModelKind,
  listed,
  listedModel,
  onServerModel,
}: {
  parent: ReturnType<typeof parentModel>;
  servers: readonly ListedServer[];
  modelKind: string;
  onModelKind: (kind: string) => void;
  listed: ListedServer | undefined;
  listedModel: string;
  onServerModel: (model: string) => void;
}) {
  return (
    <>
      {(parent.kind === 'other' || servers.length > 0) && (
        <div className="field">
          <label htmlFor="fork-model">Model</label>
          <select
            id="fork-model"
            value={modelKind}
            onChange={(e) => onModelKind(e.target.value)}
            data-testid="fork-model"
          >
            {parent.kind === 'other' && <option value="parent">The parent’s: {parent.label}</option>}
            <option value="simulated">Simulated (offline){parent.kind === 'simulated' ? ': the parent’s' : ''}</option>
            {servers.map((server) => (
              <option key={server.id} value={listedServerValue(server.id)}>
                {server.label} (listed)
              </option>
            ))}
          </select>
        </div>
      )}
      {listed && (
        <div className="field">
          <label htmlFor="fork-server-model">Model name</label>
          <ModelNameInput
            id="fork-server-model"
            testId="fork-server-model"
            models={listed.models}
            value={listedModel}
            onChange={onServerModel}
          />
        </div>
      )}
    </>
  );
}
