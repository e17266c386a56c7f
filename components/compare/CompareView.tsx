'use client';
// Two runs side by side (a fork and its parent, or two strategies on one puzzle): each live-streamed into its own
// store and drawn with the same layout rules, the nodes they share (same path of thoughts) marked on both; below,
// the diff (where their best paths diverge, the best paths side by side, the nodes only one has: lib/compare/diff.ts)
// and a table of their stats and costs (lib/compare/facts.ts).
import { ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { hasEnded } from '@/lib/contract/run-status';
import { diffRuns, type PathStep, RUN_FACTS, type RunDiff, sharedText } from '@/lib/compare/index';
import { createPageViewStore, createRunStore, type RunStore } from '@/lib/store/index';
import type { ThoughtTree } from '@/lib/engine/index';
import { useStore } from 'zustand';
import { RunAccessProvider } from '../run/page/RunAccess';
import { RunCanvas } from '../run/canvas/RunCanvas';
import { PageViewProvider } from '../run/page/PageViewContext';
import { RunStoreProvider, useRunStore } from '../run/page/RunStoreContext';
import { SharedNodesContext } from '../run/canvas/SharedNodes';
import { useRunCommands } from '../run/steering/useRunCommands';
import { useRunEvents } from '../run/page/useRunEvents';
import styles from './CompareView.module.css';

function Side({ store, label, shared }: { store: RunStore; label: string; shared: ReadonlySet<string> }) {
  const runId = store.getState().runId;
  // each canvas keeps its own page view (layout, search hits, focus requests), as on a run page
  const [pageView] = useState(createPageViewStore);
  return (
    <RunStoreProvider store={store}>
      <PageViewProvider store={pageView}>
        <ReactFlowProvider>
          <SideBody runId={runId} label={label} shared={shared} />
        </ReactFlowProvider>
      </PageViewProvider>
    </RunStoreProvider>
  );
}

function SideBody({ runId, label, shared }: { runId: string; label: string; shared: ReadonlySet<string> }) {
  useRunEvents(runId);
  const commands = useRunCommands(runId);
  // no record is read here: the log's own status says whether anything more will come
  const ended = useRunStore((s) => hasEnded(s.liveStatus));
  return (
    <section className={styles.side} data-testid={`compare-${label}`}>
      <header className={styles.sideHead}>
        <b>{label}</b> <Link href={`/runs/${runId}`}>{runId.slice(0, 8)}</Link>
      </header>
      <div className={styles.canvas}>
        <SharedNodesContext.Provider value={shared}>
          {/* the canvas menu's commands, for whoever may use them on this run */}
          <RunAccessProvider runId={runId}>
            <RunCanvas commands={commands} onFork={() => {}} runEnded={ended} />
          </RunAccessProvider>
        </SharedNodesContext.Provider>
      </div>
    </section>
  );
}

export function CompareView({ a, b }: { a: string; b: string }) {
  const [storeA] = useState(() => createRunStore(a));
  const [storeB] = useState(() => createRunStore(b));
  const versionA = useStore(storeA, (s) => s.version);
  const versionB = useStore(storeB, (s) => s.version);
  const treeA = storeA.getState().tree;
  const treeB = storeB.getState().tree;
  const diff = useMemo(() => {
    void versionA;
    void versionB;
    return diffRuns(treeA, treeB);
  }, [treeA, treeB, versionA, versionB]);
  const shared = diff.shared;

  return (
    <div className={styles.page}>
      <div className={styles.sides}>
        <Side store={storeA} label="A" shared={shared.a} />
        <Side store={storeB} label="B" shared={shared.b} />
      </div>
      <div className={styles.below}>
        <DiffPanel diff={diff} treeA={treeA} treeB={treeB} />
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
              <td>{sharedText(diff.sharedA)}</td>
              <td>{sharedText(diff.sharedB)}</td>
            </tr>
            {RUN_FACTS.map((fact) => (
              <tr key={fact.label}>
                <td>{fact.label}</td>
                <td>{fact.value(treeA)}</td>
                <td>{fact.value(treeB)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** How many nodes of a side the "only in" lists show; the count says how many more there are. */
const ONLY_SHOWN = 40;

function stepText(step: PathStep): string {
  const score = step.score === null ? '' : ` · ${step.score.toFixed(2)}`;
  const verdict = step.verified === null ? '' : step.verified ? ' · ✓ checked' : ' · ✗ checked';
  // a step that is not completed says so (a failed step may still have passed its own check)
  const status = step.depth === 0 || step.status === 'completed' ? '' : ` · ${step.status}`;
  return `${score}${verdict}${status}`;
}

function Divergence({ label, step, other }: { label: string; step: PathStep | null; other: string }) {
  if (!step) {
    return (
      <p data-testid={`diverge-${label}`}>
        <b>{label}</b>: its best path is all in {other} too.
      </p>
    );
  }
  return (
    <p data-testid={`diverge-${label}`}>
      <b>{label}</b> leaves {other} at depth {step.depth} with <span className="mono">{step.nodeId}</span>:{' '}
      <q>{step.thought}</q>
    </p>
  );
}

function BestPath({ label, steps }: { label: string; steps: PathStep[] }) {
  return (
    <div>
      <h3>Best path of {label}</h3>
      {steps.length === 0 ? (
        <p className={styles.muted}>No node yet.</p>
      ) : (
        <ol className={styles.path} data-testid={`best-path-${label}`}>
          {steps.map((step) => (
            <li key={step.nodeId} className={step.shared ? styles.shared : styles.own}>
              <span className="mono">{step.nodeId}</span> {step.thought}
              <span className={styles.muted}>{stepText(step)}</span>
              {!step.shared && <span className={styles.onlyMark}>only in {label}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function OnlyIn({ label, ids, tree }: { label: string; ids: string[]; tree: ThoughtTree }) {
  return (
    <div data-testid={`only-${label}`}>
      <h3>
        Only in {label} <span className={styles.muted}>({ids.length})</span>
      </h3>
      <ul className={styles.only}>
        {ids.slice(0, ONLY_SHOWN).map((id) => {
          const node = tree.nodes[id];
          return (
            <li key={id}>
              <span className="mono">{id}</span> {node?.branch?.thought ?? tree.goal}{' '}
              <span className={styles.muted}>{node?.status}</span>
            </li>
          );
        })}
        {ids.length > ONLY_SHOWN && <li className={styles.muted}>and {ids.length - ONLY_SHOWN} more</li>}
      </ul>
    </div>
  );
}

function DiffPanel({ diff, treeA, treeB }: { diff: RunDiff; treeA: ThoughtTree; treeB: ThoughtTree }) {
  return (
    <section className={styles.diff} aria-label="Where the runs differ" data-testid="compare-diff">
      <div className={styles.divergence}>
        <h3>Where they diverge</h3>
        <Divergence label="A" step={diff.divergence.a} other="B" />
        <Divergence label="B" step={diff.divergence.b} other="A" />
      </div>
      <div className={styles.pair}>
        <BestPath label="A" steps={diff.bestPathA} />
        <BestPath label="B" steps={diff.bestPathB} />
      </div>
      <div className={styles.pair}>
        <OnlyIn label="A" ids={diff.onlyA} tree={treeA} />
        <OnlyIn label="B" ids={diff.onlyB} tree={treeB} />
      </div>
    </section>
  );
}
