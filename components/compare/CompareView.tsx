'use client';
// Two runs side by side (a fork and its parent, or two strategies on one puzzle): each live-streamed into its own
// store and drawn with the same layout rules, the nodes they share (same path of thoughts) marked on both, and a
// table of their stats and costs.
import { ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { sharedPrefix } from '@/lib/layout/shared-prefix';
import { createRunStore, type RunStore } from '@/lib/store/run-store';
import { useStore } from 'zustand';
import { RunCanvas } from '../run/RunCanvas';
import { RunStoreProvider } from '../run/RunStoreContext';
import { SharedNodesContext } from '../run/SharedNodes';
import { useRunCommands } from '../run/useRunCommands';
import { useRunEvents } from '../run/useRunEvents';
import styles from './CompareView.module.css';

function Side({ store, label, shared }: { store: RunStore; label: string; shared: ReadonlySet<string> }) {
  const runId = store.getState().runId;
  return (
    <RunStoreProvider store={store}>
      <ReactFlowProvider>
        <SideBody runId={runId} label={label} shared={shared} />
      </ReactFlowProvider>
    </RunStoreProvider>
  );
}

function SideBody({ runId, label, shared }: { runId: string; label: string; shared: ReadonlySet<string> }) {
  useRunEvents(runId);
  const commands = useRunCommands(runId);
  return (
    <section className={styles.side} data-testid={`compare-${label}`}>
      <header className={styles.sideHead}>
        <b>{label}</b> <Link href={`/runs/${runId}`}>{runId.slice(0, 8)}</Link>
      </header>
      <div className={styles.canvas}>
        <SharedNodesContext.Provider value={shared}>
          <RunCanvas commands={commands} onFork={() => {}} />
        </SharedNodesContext.Provider>
      </div>
    </section>
  );
}

function fmtMs(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function CompareView({ a, b }: { a: string; b: string }) {
  const [storeA] = useState(() => createRunStore(a));
  const [storeB] = useState(() => createRunStore(b));
  const versionA = useStore(storeA, (s) => s.version);
  const versionB = useStore(storeB, (s) => s.version);
  const treeA = storeA.getState().tree;
  const treeB = storeB.getState().tree;
  const shared = useMemo(() => {
    void versionA;
    void versionB;
    return sharedPrefix(treeA, treeB);
  }, [treeA, treeB, versionA, versionB]);

  const rows: [string, (t: typeof treeA) => string][] = [
    ['status', (t) => `${t.status}${t.finishReason ? ` (${t.finishReason})` : ''}`],
    [
      'strategy',
      (t) =>
        `${t.config.explorationStrategy} · depth ${t.config.maxDepth} · b${t.config.branchFactor} · w${t.config.beamWidth}`,
    ],
    ['nodes explored / created', (t) => `${t.stats.exploredNodes} / ${t.stats.totalNodes}`],
    ['depth reached', (t) => String(t.stats.maxDepthReached)],
    ['backtracks', (t) => String(t.stats.backtrackCount)],
    ['model calls (executor / all)', (t) => `${t.stats.llmCalls} / ${t.stats.modelCalls}`],
    ['tokens', (t) => t.stats.tokenUsage.totalTokens.toLocaleString('en-US')],
    ['cost', (t) => `$${t.stats.cost.toFixed(4)}`],
    ['duration', (t) => fmtMs(t.startedAt && t.finishedAt ? t.finishedAt - t.startedAt : null)],
    ['verified answer', (t) => (t.verified === null ? '—' : t.verified ? '✓ yes' : 'no')],
    ['output', (t) => t.output ?? '—'],
  ];

  return (
    <div className={styles.page}>
      <div className={styles.sides}>
        <Side store={storeA} label="A" shared={shared.a} />
        <Side store={storeB} label="B" shared={shared.b} />
      </div>
      <table className={styles.table} data-testid="compare-table">
        <thead>
          <tr>
            <th />
            <th>A</th>
            <th>B</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>shared with the other</td>
            <td>{shared.a.size === 1 ? '1 node (the goal)' : `${shared.a.size} nodes`}</td>
            <td>{shared.b.size === 1 ? '1 node (the goal)' : `${shared.b.size} nodes`}</td>
          </tr>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>{value(treeA)}</td>
              <td>{value(treeB)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
