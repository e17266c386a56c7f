'use client';
// A breakpoint list as rows: a switch each, the condition in words, how often it hit (where hits are counted) and a
// remove button; a count is a button to that breakpoint's next hit where onHit is given. Read-only without onChange (a
// reader of a running run: the switches show, disabled). Used by the run page's panel and by the new-run form.
// Not responsible for where a changed list goes (the caller) nor for finding hits.
import { type Breakpoint, describeCondition } from '@/lib/contract/breakpoints';
import { removeBreakpoint, setEnabled } from '@/lib/store/index';
import styles from './Breakpoints.module.css';

export function BreakpointList({
  list,
  counts,
  onChange,
  onHit,
}: {
  list: readonly Breakpoint[];
  /** Goes to this breakpoint's next hit (the run page); absent: counts are only read. */
  onHit?: (breakpointId: string) => void;
  /** Hits per breakpoint id; null: not counted here (a run not started yet). */
  counts: ReadonlyMap<string, number> | null;
  onChange: ((list: readonly Breakpoint[]) => void) | null;
}) {
  if (list.length === 0) {
    return <p className={styles.empty}>No breakpoints{onChange ? ': add one below.' : '.'}</p>;
  }
  return (
    <ul className={styles.list} aria-label="Breakpoints" data-testid="breakpoint-list">
      {list.map((b) => (
        <BreakpointRow
          key={b.id}
          breakpoint={b}
          hits={counts ? (counts.get(b.id) ?? 0) : null}
          editable={onChange !== null}
          onToggle={(enabled) => onChange?.(setEnabled(list, b.id, enabled))}
          onRemove={() => onChange?.(removeBreakpoint(list, b.id))}
          onHit={onHit ? () => onHit(b.id) : null}
        />
      ))}
    </ul>
  );
}

function BreakpointRow({
  breakpoint,
  hits,
  editable,
  onToggle,
  onRemove,
  onHit,
}: {
  breakpoint: Breakpoint;
  hits: number | null;
  editable: boolean;
  onToggle: (enabled: boolean) => void;
  onRemove: () => void;
  onHit: (() => void) | null;
}) {
  const words = describeCondition(breakpoint.condition);
  return (
    <li className={styles.row} data-testid="breakpoint-row" data-id={breakpoint.id} data-enabled={breakpoint.enabled}>
      <label
        className={styles.switch}
        title={breakpoint.enabled ? 'On: click to switch off' : 'Off: click to switch on'}
      >
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
      {hits !== null &&
        (onHit && hits > 0 ? (
          <button
            type="button"
            className={`count-pill ${styles.hitsButton}`}
            onClick={onHit}
            title={`${hits} ${hits === 1 ? 'hit' : 'hits'}: go to the next`}
            aria-label={`${hits} ${hits === 1 ? 'hit' : 'hits'}: go to the next`}
            data-testid="breakpoint-hits"
          >
            {hits.toLocaleString('en-US')}
          </button>
        ) : (
          <span className="count-pill" title={`${hits} ${hits === 1 ? 'hit' : 'hits'}`} data-testid="breakpoint-hits">
            {hits.toLocaleString('en-US')}
          </span>
        ))}
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
