'use client';
// A node's model calls on one time axis (issue 30): a row per call, by start, with its purpose, when it started after
// the node's first call, and how long it took; the bar shows where it sat beside the others (calls run together show
// as overlapping bars). A retried call is drawn as its attempts with the waits between them, and a note says what
// each attempt answered; a failed call is marked in words and colour. The table's text is what a reader (or a test)
// reads; the bars are decoration. Text from models and servers (an error) is rendered as text only.
// Not responsible for the geometry (lib/event-log callWaterfall) or the calls' own details (sections.tsx ModelCalls).
import { useMemo } from 'react';
import { formatDuration } from '@/lib/contract/format';
import {
  attemptsText,
  callWaterfall,
  formatClock,
  type ModelCallEvent,
  type WaterfallRow,
} from '@/lib/event-log/index';
import styles from './CallWaterfall.module.css';

const pct = (fraction: number) => `${(Math.max(0, Math.min(1, fraction)) * 100).toFixed(3)}%`;

export function CallWaterfall({ calls }: { calls: readonly ModelCallEvent[] }) {
  // the calls array is stable until a call is added (ModelCalls selects it shallowly)
  const waterfall = useMemo(() => callWaterfall(calls), [calls]);
  if (!waterfall) return null;
  const { rows, spanMs, peakInFlight } = waterfall;
  const estimated = rows.some((r) => r.estimated);
  return (
    <table className={styles.waterfall} data-testid="inspector-waterfall" data-peak={peakInFlight}>
      <caption className={styles.caption}>
        When each call ran: {peakInFlight > 1 ? `up to ${peakInFlight} at once` : 'one at a time'}
        {estimated && <span title="This log did not record when its calls started"> · starts estimated</span>}
      </caption>
      <thead>
        <tr>
          <th scope="col" className={styles.purposeHead}>
            call
          </th>
          <th scope="col" className={styles.axisHead}>
            <span className={styles.axis}>
              <span className="visually-hidden">time line from </span>
              <span>0</span>
              <span className="visually-hidden"> to </span>
              <span>{formatDuration(spanMs)}</span>
            </span>
          </th>
          <th scope="col" className={styles.figureHead}>
            start
          </th>
          <th scope="col" className={styles.figureHead}>
            took
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <CallRow key={row.seq} row={row} />
        ))}
      </tbody>
    </table>
  );
}

function CallRow({ row }: { row: WaterfallRow }) {
  const failed = row.error !== null;
  const note = rowNote(row);
  const title = `#${row.seq} ${row.purpose}: started ${formatClock(row.startedAt)}${row.estimated ? ' (estimated)' : ''}, took ${formatDuration(row.durationMs)}`;
  return (
    <>
      <tr
        className={styles.row}
        data-testid="waterfall-row"
        data-seq={row.seq}
        data-purpose={row.purpose}
        data-failed={failed}
        data-retries={row.retries}
        title={title}
      >
        <th scope="row" className={styles.purpose}>
          {row.purpose}
          {failed && (
            // a mark that fits the column; its word for a reader (the note below says what went wrong)
            <span className={styles.failedMark}>
              <span aria-hidden="true"> ✗</span>
              <span className="visually-hidden"> failed</span>
            </span>
          )}
        </th>
        <td className={styles.track} aria-hidden="true">
          <span className={styles.lane}>
            <span
              className={row.segments.length > 0 ? styles.span : styles.bar}
              data-purpose={row.purpose}
              data-failed={failed}
              style={{ left: pct(row.left), width: pct(row.width) }}
            />
            {row.segments.map((segment, i) => (
              <span
                key={i}
                className={segment.kind === 'wait' ? styles.wait : styles.bar}
                data-purpose={row.purpose}
                data-failed={segment.error !== null}
                style={{ left: pct(segment.left), width: pct(segment.width) }}
              />
            ))}
          </span>
        </td>
        <td className={styles.figure}>+{formatDuration(row.offsetMs)}</td>
        <td className={styles.figure}>{formatDuration(row.durationMs)}</td>
      </tr>
      {note && (
        <tr className={styles.noteRow} data-testid="waterfall-note" data-seq={row.seq}>
          <td />
          <td colSpan={3} className={failed ? styles.noteFailed : styles.note} title={note}>
            {note}
          </td>
        </tr>
      )}
    </>
  );
}

/** A failed or retried call in words: what each attempt answered, the waits, the backend's last error. */
function rowNote(row: WaterfallRow): string | null {
  const waited = row.segments.filter((s) => s.kind === 'wait').reduce((sum, s) => sum + s.durationMs, 0);
  const retried =
    row.retries > 0
      ? `${row.retries} ${row.retries === 1 ? 'retry' : 'retries'} (${attemptsText(row)})${waited > 0 ? `, waited ${formatDuration(waited)}` : ''}`
      : null;
  if (row.error !== null) return retried ? `failed after ${retried}: ${row.error}` : `failed: ${row.error}`;
  return retried;
}
