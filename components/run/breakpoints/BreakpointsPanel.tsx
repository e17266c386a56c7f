'use client';
// The side drawer's Breakpoints tab: the run's breakpoints, each with a switch, its condition in words, how often it
// hit and a remove button; previous / next hit; and the add form. A running run's list is its own (every change is
// sent); an ended run's is this page's query over its history ("a breakpoint doubles as a query"). A person who may
// only read a running run sees its list without the controls, and why.
// Not responsible for the list's data (useBreakpoints.ts), the hits (the run store) nor the add form's checks.
import { type Breakpoint, describeCondition } from '@/lib/contract/breakpoints';
import { addBlock, addBreakpoint, removeBreakpoint, setEnabled } from '@/lib/store/index';
import { useRunStore } from '../RunStoreContext';
import { AddBreakpointForm } from './AddBreakpointForm';
import type { BreakpointsView } from './useBreakpoints';
import { useHitJump } from './useBreakpoints';
import styles from './Breakpoints.module.css';

export function BreakpointsPanel({ view }: { view: BreakpointsView }) {
  const { list, readOnly, change, mode } = view;
  const counts = useRunStore((s) => s.hits.counts);
  const pending = useRunStore((s) => s.hitsPending);
  const selected = useRunStore((s) => s.selectedNodeId);
  const hits = useHitJump();
  const editable = readOnly === null;

  return (
    <div className={styles.panel} data-testid="breakpoints-panel" data-mode={mode}>
      <p className={styles.note}>
        {mode === 'live'
          ? 'The run stops by itself when one of these happens, at the end of that step.'
          : 'This run has ended: its breakpoints find the steps where it would have stopped. Changes stay on this page.'}
      </p>
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
      {list.length === 0 ? (
        <p className={styles.empty}>No breakpoints{editable ? ': add one below.' : '.'}</p>
      ) : (
        <ul className={styles.list} aria-label="Breakpoints">
          {list.map((b) => (
            <BreakpointRow
              key={b.id}
              breakpoint={b}
              hits={counts.get(b.id) ?? 0}
              editable={editable}
              onToggle={(enabled) => void change(setEnabled(list, b.id, enabled))}
              onRemove={() => void change(removeBreakpoint(list, b.id))}
            />
          ))}
        </ul>
      )}
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

function BreakpointRow({
  breakpoint,
  hits,
  editable,
  onToggle,
  onRemove,
}: {
  breakpoint: Breakpoint;
  hits: number;
  editable: boolean;
  onToggle: (enabled: boolean) => void;
  onRemove: () => void;
}) {
  const words = describeCondition(breakpoint.condition);
  return (
    <li className={styles.row} data-testid="breakpoint-row" data-id={breakpoint.id} data-enabled={breakpoint.enabled}>
      <label className={styles.switch} title={breakpoint.enabled ? 'On: click to switch off' : 'Off: click to switch on'}>
        <input
          type="checkbox"
          role="switch"
          checked={breakpoint.enabled}
          disabled={!editable}
          onChange={(e) => onToggle(e.target.checked)}
          aria-label={`${breakpoint.enabled ? 'Switch off' : 'Switch on'}: ${words}`}
          data-testid="breakpoint-switch"
        />
        <span className={styles.track} aria-hidden="true" />
      </label>
      <span className={styles.words} title={`${breakpoint.id}: ${words}`}>
        {words}
      </span>
      <span className="count-pill" title={`${hits} ${hits === 1 ? 'hit' : 'hits'}`} data-testid="breakpoint-hits">
        {hits.toLocaleString('en-US')}
      </span>
      {editable && (
        <button
          type="button"
          className={`btn btn-sm btn-icon ${styles.remove}`}
          onClick={onRemove}
          aria-label={`Remove: ${words}`}
          title="Remove"
          data-testid="breakpoint-remove"
        >
          ×
        </button>
      )}
    </li>
  );
}
