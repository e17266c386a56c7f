'use client';
// The event log panel under the canvas: every event in order (seq, time since the start, a tag coloured by kind,
// the node, a one-line summary, the person behind a steer.*), filtered by kind, type and node. A click selects the
// event's node. Collapsible. The list is windowed (fixed row height: only the visible rows are in the DOM), so it
// stays fast with tens of thousands of events, and it follows the newest event while scrolled to the bottom.
// Not responsible for what an event says (describe-event.ts) or which events match (filter.ts).
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ExplorationEvent, ExplorationEventType } from '@/lib/contract/events';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import {
  EVENT_KINDS,
  describeEvent,
  eventActor,
  eventKind,
  eventNodeIds,
  formatOffset,
  isBadEvent,
  typesOfKind,
  type EventKind,
} from '@/lib/event-log/index';
import {
  ALL_KINDS,
  createEventFilterCache,
  firstRowFrom,
  isAtBottom,
  isFilterActive,
  visibleRows,
  type EventFilter,
} from '@/lib/event-log/index';
import styles from './EventLog.module.css';

const ROW_HEIGHT = 24;

export function EventLog() {
  const events = useRunStore((s) => s.events);
  const count = useEventCount();
  const [open, setOpen] = useState(true);
  return (
    <section
      className={open ? styles.log : styles.logClosed}
      data-testid="event-log"
      data-open={open}
      aria-label="Event log"
    >
      {open ? (
        <OpenLog events={events} count={count} onClose={() => setOpen(false)} />
      ) : (
        <header className={styles.head}>
          <LogTitle total={count} shown={null} />
          <ToggleButton open={false} onClick={() => setOpen(true)} />
        </header>
      )}
    </section>
  );
}

/** Rows refresh at most this often: a live run flushes every frame, and a list need not follow at 60 Hz. */
const REFRESH_MS = 250;

/**
 * The history's length (the log grows in place: its length is what changes), followed at most every REFRESH_MS,
 * so a long live run re-renders the list (and moves its scroll) a few times a second, not on every flush.
 */
function useEventCount(): number {
  const store = useRunStoreApi();
  const [count, setCount] = useState(() => store.getState().eventCount);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const update = () => {
      timer = null;
      last = performance.now();
      setCount(store.getState().eventCount);
    };
    update();
    const unsubscribe = store.subscribe((s, previous) => {
      if (s.eventCount === previous.eventCount || timer) return;
      timer = setTimeout(update, Math.max(0, last + REFRESH_MS - performance.now()));
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store]);
  return count;
}

function LogTitle({ total, shown }: { total: number; shown: number | null }) {
  // a long run's history arrives after its tree: say so rather than show a short log as the whole
  const loading = useRunStore((s) => s.eventCount < s.lastSeq);
  return (
    <h2 className={styles.title}>
      {/* the heading and its count stand apart from the loading note: a narrow drawer hides the first (its tab says
          it), never the second */}
      <span className={styles.heading} data-testid="event-log-heading">
        Event log
        <span className="count-pill" data-testid="event-log-count">
          {shown === null
            ? total.toLocaleString('en-US')
            : `${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}
        </span>
      </span>
      {loading && (
        <span className={styles.loading} data-testid="event-log-loading">
          loading history…
        </span>
      )}
    </h2>
  );
}

function ToggleButton({ open, onClick }: { open: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className={styles.toggle}
      onClick={onClick}
      aria-expanded={open}
      aria-label={open ? 'Collapse the event log' : 'Expand the event log'}
      title={open ? 'Collapse' : 'Expand'}
      data-testid="event-log-toggle"
    >
      <svg viewBox="0 0 16 16" aria-hidden="true" className={open ? styles.chevronDown : styles.chevronUp}>
        <path d="M4 6l4 4 4-4" />
      </svg>
    </button>
  );
}

const TYPE_GROUPS = EVENT_KINDS.map(({ kind, label }) => ({
  kind,
  label,
  types: typesOfKind(kind),
}));

function OpenLog({
  events,
  count,
  onClose,
}: {
  events: readonly ExplorationEvent[];
  count: number;
  onClose: () => void;
}) {
  const selectedId = useRunStore((s) => s.selectedNodeId);
  const loadingHistory = useRunStore((s) => s.eventCount < s.lastSeq);
  const [kinds, setKinds] = useState<ReadonlySet<EventKind>>(ALL_KINDS);
  const [type, setType] = useState<ExplorationEventType | null>(null);
  const [nodeQuery, setNodeQuery] = useState('');
  const [onlySelected, setOnlySelected] = useState(false);
  const filter = useMemo<EventFilter>(
    () => ({ kinds, type, nodeQuery, onlyNodeId: onlySelected ? selectedId : null }),
    [kinds, type, nodeQuery, onlySelected, selectedId],
  );
  const [filterCached] = useState(createEventFilterCache);
  // the filter tests only the events added since the last count; unfiltered, it is the log itself
  const shown = useMemo(() => {
    const matched = filterCached(events, filter);
    return { events: matched, count: matched === events ? count : matched.length };
  }, [filterCached, events, filter, count]);
  const active = isFilterActive(filter) || (onlySelected && selectedId === null);

  const toggleKind = (kind: EventKind) => {
    const next = new Set(kinds);
    if (next.has(kind)) next.delete(kind);
    else next.add(kind);
    setKinds(next);
  };
  const chooseType = (value: string) => {
    const next = value ? (value as ExplorationEventType) : null;
    setType(next);
    if (next && !kinds.has(eventKind(next))) setKinds(new Set([...kinds, eventKind(next)]));
  };
  const clear = () => {
    setKinds(ALL_KINDS);
    setType(null);
    setNodeQuery('');
    setOnlySelected(false);
  };

  return (
    <>
      <header className={styles.head}>
        <LogTitle total={count} shown={active ? shown.count : null} />
        <div className={styles.tools}>
          <input
            className={`input ${styles.nodeBox}`}
            type="search"
            value={nodeQuery}
            onChange={(e) => setNodeQuery(e.target.value)}
            placeholder="node ids: n4 n7"
            aria-label="Show the events of these nodes"
            spellCheck={false}
            data-testid="event-filter-node"
          />
          <label className={styles.only} title="Show only the events of the node selected on the canvas">
            <input
              type="checkbox"
              checked={onlySelected}
              onChange={(e) => setOnlySelected(e.target.checked)}
              data-testid="event-filter-selected"
            />
            selected node only
          </label>
          <select
            className={`input ${styles.typeSelect}`}
            value={type ?? ''}
            onChange={(e) => chooseType(e.target.value)}
            aria-label="Show one event type"
            data-testid="event-filter-type"
          >
            <option value="">all types</option>
            {TYPE_GROUPS.map((group) => (
              <optgroup key={group.kind} label={group.label}>
                {group.types.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <ToggleButton open onClick={onClose} />
        </div>
      </header>
      <div className={styles.chips} role="group" aria-label="Event kinds shown">
        {EVENT_KINDS.map(({ kind, label }) => (
          <button
            key={kind}
            type="button"
            className={styles.chip}
            data-kind={kind}
            aria-pressed={kinds.has(kind)}
            onClick={() => toggleKind(kind)}
            data-testid="event-filter-kind"
          >
            {label}
          </button>
        ))}
        {active && (
          <button type="button" className={styles.clear} onClick={clear} data-testid="event-filter-clear">
            clear filters
          </button>
        )}
      </div>
      <EventRows
        events={shown.events}
        count={shown.count}
        selectedId={selectedId}
        emptyText={
          count === 0
            ? loadingHistory
              ? 'Loading history…'
              : 'No events yet.'
            : onlySelected && selectedId === null
              ? 'Select a node to see its events.'
              : 'No event matches the filters.'
        }
      />
    </>
  );
}

function EventRows({
  events,
  count,
  selectedId,
  emptyText,
}: {
  events: readonly ExplorationEvent[];
  /** Rows to show: the log grows in place, so its length at this render. */
  count: number;
  selectedId: string | null;
  emptyText: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(0);
  const [following, setFollowing] = useState(true);
  const [clickedSeq, setClickedSeq] = useState<number | null>(null);
  const runStart = useRunStore((s) => s.tree.startedAt);
  const rootId = useRunStore((s) => s.tree.rootId);
  const selectNode = useRunStore((s) => s.select);
  const total = count * ROW_HEIGHT;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // While following, the window is computed from the bottom, and the DOM is scrolled there before paint.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && following) el.scrollTop = total; // the browser clamps it; reading scrollHeight would force layout
  }, [following, total, height]);

  // Time travel: the row of the step on screen is scrolled into the middle of the list. Keyed by that row, not the
  // step: a link's step is shown before the history has its row (the log then follows it as its rows arrive), and a
  // new live event moves no row that exists
  const viewSeq = useRunStore((s) => s.viewSeq);
  const stepRow = viewSeq === null || count === 0 ? null : Math.min(firstRowFrom(events, count, viewSeq), count - 1);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || stepRow === null) return;
    // the size from state; before the first resize report (a log first shown) from the box, once
    const target = Math.max(0, stepRow * ROW_HEIGHT - (height || el.clientHeight) / 2);
    setFollowing(false);
    el.scrollTop = target;
    setScrollTop(target);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new step's row (or filter) scrolls, not a resize
  }, [stepRow, events]);

  const top = following ? Math.max(0, total - height) : scrollTop;
  const { start, end } = visibleRows(top, height, ROW_HEIGHT, count);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    // sizes from state, not clientHeight/scrollHeight: reading those in a scroll handler forces a layout
    setScrollTop(el.scrollTop);
    setFollowing(isAtBottom(el.scrollTop, height, total, ROW_HEIGHT / 2));
  };

  const onPick = useCallback(
    (event: ExplorationEvent) => {
      setClickedSeq(event.seq);
      const target = eventNodeIds(event)[0] ?? rootId; // run-level events: the root shows the run
      if (target) selectNode(target);
    },
    [rootId, selectNode],
  );

  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const event = events[i] as ExplorationEvent;
    rows.push(
      <EventRow
        key={event.seq}
        event={event}
        index={i}
        runStart={runStart}
        clicked={event.seq === clickedSeq}
        related={selectedId !== null && eventNodeIds(event).includes(selectedId)}
        future={viewSeq !== null && event.seq > viewSeq}
        current={viewSeq !== null && event.seq === viewSeq}
        onPick={onPick}
      />,
    );
  }

  return (
    <div className={styles.listWrap}>
      <div className={styles.list} ref={ref} onScroll={onScroll} data-testid="event-list">
        {count === 0 ? (
          <p className={styles.empty}>{emptyText}</p>
        ) : (
          <div className={styles.spacer} style={{ height: total }}>
            {rows}
          </div>
        )}
      </div>
      {!following && count > 0 && (
        <button
          type="button"
          className={styles.newest}
          onClick={() => setFollowing(true)}
          data-testid="event-log-newest"
        >
          ↓ newest
        </button>
      )}
    </div>
  );
}

const EventRow = memo(function EventRow({
  event,
  index,
  runStart,
  clicked,
  related,
  future,
  current,
  onPick,
}: {
  event: ExplorationEvent;
  index: number;
  runStart: number | null;
  clicked: boolean;
  related: boolean;
  /** After the step on screen (time travel): shown dimmed, it has not happened yet there. */
  future: boolean;
  current: boolean;
  onPick: (event: ExplorationEvent) => void;
}) {
  const nodeIds = eventNodeIds(event);
  const actor = eventActor(event);
  const summary = describeEvent(event);
  return (
    <button
      type="button"
      className={styles.row}
      style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
      onClick={() => onPick(event)}
      data-testid="event-row"
      data-seq={event.seq}
      data-type={event.type}
      data-node-id={nodeIds[0] ?? ''}
      data-clicked={clicked || undefined}
      data-related={related || undefined}
      data-future={future || undefined}
      data-current={current || undefined}
      data-bad={isBadEvent(event) || undefined}
      title={summary}
    >
      <span className={styles.seq}>{event.seq}</span>
      <span className={styles.time}>{runStart !== null ? formatOffset(event.ts - runStart) : ''}</span>
      <span className={styles.tag} data-kind={eventKind(event.type)}>
        {event.type}
      </span>
      <span className={styles.node}>{nodeIds.join(' → ')}</span>
      <span className={styles.summary}>{summary}</span>
      {actor !== null && <span className={styles.actor}>by {actor}</span>}
    </button>
  );
});
