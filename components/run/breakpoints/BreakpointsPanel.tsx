'use client';
// The side drawer's Breakpoints tab: the run's breakpoints, each with a switch, its condition in words, how often it
// hit and a remove button; previous / next hit; and the add form. A running run's list is its own (every change is
// sent); an ended run's is this page's query over its history ("a breakpoint doubles as a query"). A person who may
// only read a running run sees its list without the controls, and why.
// Not responsible for the list's data (useBreakpoints.ts), the hits (the run store) nor the add form's checks.
import { addBlock, addBreakpoint } from '@/lib/store/index';
import { usePageView } from '../page/PageViewContext';
import { useRunStore } from '../page/RunStoreContext';
import { AddBreakpointForm } from './AddBreakpointForm';
import { BreakpointList } from './BreakpointList';
import type { BreakpointsView } from './useBreakpoints';
import { useHitJump } from './useBreakpoints';
import styles from './Breakpoints.module.css';

export function BreakpointsPanel({ view }: { view: BreakpointsView }) {
  const { list, readOnly, change, mode } = view;
  const counts = useRunStore((s) => s.hits.counts);
  const pending = useRunStore((s) => s.hitsPending);
  const selected = useRunStore((s) => s.selectedNodeId);
  const hits = useHitJump();
  const linkNote = usePageView((s) => s.breakpointLinkNote);
  const editable = readOnly === null;

  return (
    <div className={styles.panel} data-testid="breakpoints-panel" data-mode={mode}>
      <p className={styles.note}>
        {mode === 'live'
          ? 'The run stops by itself when one of these happens, at the end of that step.'
          : 'This run has ended: its breakpoints find the steps where it would have stopped. Changes stay on this page.'}
      </p>
      {linkNote && (
        <p className={styles.readOnly} role="note" data-testid="breakpoints-link-note">
          {linkNote}
        </p>
      )}
      {readOnly && mode === 'live' && (
        <p className={styles.readOnly} role="note" data-testid="breakpoints-read-only">
          {readOnly.charAt(0).toUpperCase() + readOnly.slice(1)}.
        </p>
      )}
      <div className={styles.nav}>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => hits.jump(-1)}
          disabled={!hits.can(-1)}
          title="Previous hit (Shift F8)"
          data-testid="hit-prev-panel"
        >
          ◀ Previous hit
        </button>
        <span className={styles.navCount} data-testid="hit-count">
          {pending ? 'loading history…' : `${hits.count.toLocaleString('en-US')} ${hits.count === 1 ? 'hit' : 'hits'}`}
        </span>
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => hits.jump(1)}
          disabled={!hits.can(1)}
          title="Next hit (F8)"
          data-testid="hit-next-panel"
        >
          Next hit ▶
        </button>
      </div>
      <BreakpointList
        list={list}
        counts={counts}
        onChange={editable ? (next) => void change(next) : null}
        onHit={hits.nextOf}
      />
      {view.error && (
        <p className="field-error" role="alert" data-testid="breakpoints-error">
          {view.error}
        </p>
      )}
      {editable && (
        <AddBreakpointForm
          disabled={addBlock(list)}
          defaultNodeId={selected}
          onAdd={(condition) => void change(addBreakpoint(list, condition))}
        />
      )}
    </div>
  );
}
