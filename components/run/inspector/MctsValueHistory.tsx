'use client';
// The inspector's "Value history" for a node of an engine Monte Carlo tree search (issue 31): every backup through
// the node up to the step on screen, oldest first (the latest few, then all on request): the iteration, the value and
// where it came from, the node it was read from, and the node's Q and N after it. Numbers as text.
// Not responsible for reading the backups or folding Q (lib/event-log/mcts.ts, with the engine's backUp).
import { useState } from 'react';
import { MCTS_SOURCE_LABELS, type MctsBackupRow } from '@/lib/event-log/index';
import { Section } from './sections';
import { IdButton, LoadingNote, num } from './MctsParts';
import styles from './Inspector.module.css';
import trail from './MctsTrail.module.css';

/** Rows shown before "show all". */
const RECENT_ROWS = 12;

export function ValueHistory({ rows, loading }: { rows: MctsBackupRow[]; loading: boolean }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(-RECENT_ROWS);
  const hidden = rows.length - shown.length;
  return (
    <Section
      title="Value history"
      aside={`${rows.length} backup${rows.length === 1 ? '' : 's'}`}
      testId="inspector-mcts-history"
    >
      {rows.length === 0 ? (
        <p className={styles.muted}>No value has been backed up through this node yet at this step.</p>
      ) : (
        <>
          {hidden > 0 && (
            <button type="button" className={trail.more} onClick={() => setAll(true)}>
              {hidden} earlier: show all {rows.length}
            </button>
          )}
          <table className={trail.table}>
            <thead>
              <tr>
                <th scope="col" title="iteration">
                  it.
                </th>
                <th scope="col">value</th>
                <th scope="col">from</th>
                <th scope="col">Q after</th>
                <th scope="col">N after</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.seq} data-testid="inspector-mcts-backup" data-seq={row.seq} data-n={row.n}>
                  <td title={`#${row.seq}`}>{row.iteration}</td>
                  <td title={MCTS_SOURCE_LABELS[row.source]}>
                    {num(row.value)} <span className={trail.source}>{MCTS_SOURCE_LABELS[row.source]}</span>
                  </td>
                  <td>
                    <IdButton nodeId={row.fromId} />
                  </td>
                  <td>{num(row.q)}</td>
                  <td>{row.n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <LoadingNote loading={loading} />
    </Section>
  );
}
