'use client';
// "Fork from here": a new run whose tree starts as the path to this node, with the node's thought editable and
// its own strategy, beam width and model seed. The new run links back to this one.
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ExplorationStrategy } from '@/lib/engine/types';
import { useTRPC } from '@/lib/trpc/client';
import { useRunStore } from './RunStoreContext';

export function ForkDialog({ runId, nodeId, onClose }: { runId: string; nodeId: string; onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const node = useRunStore((s) => s.tree.nodes[nodeId]);
  const config = useRunStore((s) => s.tree.config);
  const [thought, setThought] = useState(node?.branch?.thought ?? '');
  const [strategy, setStrategy] = useState<ExplorationStrategy>(config.explorationStrategy);
  const [beamWidth, setBeamWidth] = useState(String(config.beamWidth));
  const [branchFactor, setBranchFactor] = useState(String(config.branchFactor));
  const [seed, setSeed] = useState('3');
  const [latency, setLatency] = useState('150');
  const fork = useMutation(trpc.run.fork.mutationOptions({ onSuccess: ({ id }) => router.push(`/runs/${id}`) }));
  if (!node) return null;
  const isRoot = node.parentId === null;

  function submit(event: FormEvent) {
    event.preventDefault();
    fork.mutate({
      runId,
      nodeId,
      thought: isRoot || thought === node?.branch?.thought ? null : thought,
      config: { explorationStrategy: strategy, beamWidth: Number(beamWidth), branchFactor: Number(branchFactor) },
      model: { provider: 'simulated', seed: Number(seed), latencyMs: Number(latency) },
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
              <textarea id="fork-thought" rows={4} value={thought} onChange={(e) => setThought(e.target.value)} />
            </div>
          )}
          <div className="fork-grid">
            <div className="field">
              <label htmlFor="fork-strategy">Strategy</label>
              <select
                id="fork-strategy"
                value={strategy}
                onChange={(e) => setStrategy(e.target.value as ExplorationStrategy)}
              >
                <option value="beam">beam</option>
                <option value="best-first">best-first</option>
                <option value="dfs">dfs</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="fork-branch">Branch factor</label>
              <input
                id="fork-branch"
                type="number"
                value={branchFactor}
                onChange={(e) => setBranchFactor(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor="fork-beam">Beam width</label>
              <input id="fork-beam" type="number" value={beamWidth} onChange={(e) => setBeamWidth(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="fork-seed">Seed</label>
              <input id="fork-seed" type="number" value={seed} onChange={(e) => setSeed(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="fork-latency">Latency (ms)</label>
              <input id="fork-latency" type="number" value={latency} onChange={(e) => setLatency(e.target.value)} />
            </div>
          </div>
          {fork.error && (
            <p className="field-error" role="alert">
              {fork.error.message}
            </p>
          )}
          <div className="fork-foot">
            <span className="field-hint">Model: simulated (offline)</span>
            <button type="submit" className="btn btn-primary" disabled={fork.isPending}>
              {fork.isPending ? 'Forking…' : 'Start the fork'}
            </button>
          </div>
        </div>
      </form>
    </div>
  );
}
