'use client';
// The run page's right-hand drawer: four tabs (Inspector, Events, Breakpoints, Discussion) over one panel, collapsible to a thin rail that
// keeps the tabs in reach, and resizable by dragging its left edge (or with the arrow keys on that edge). Where the
// window is wide it docks beside the canvas; where it is narrow it overlays the canvas instead of squeezing it.
// The panels stay mounted while hidden, so the log keeps its filters and the inspector its open calls; the hidden
// log (in React's Activity) catches up with the step on screen when it is shown.
// The drawer never opens or switches tabs by itself (selecting a node does not): only the person moves it.
// Not responsible for what the panels show (inspector/, event-log/, breakpoints/, discussion/) nor for remembering its
// state (useRunDrawer).
import {
  Activity,
  useRef,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { discussionCount, DRAWER_MAX_WIDTH, DRAWER_MIN_WIDTH, type DrawerTab, widthFromDrag } from '@/lib/store/index';
import { useRunStore } from './RunStoreContext';
import { DRAWER_ID, DRAWER_TOGGLE_ID, drawerPanelId, type RunDrawer as DrawerState } from './useRunDrawer';
import styles from './RunDrawer.module.css';

const TABS: { tab: DrawerTab; label: string; title: string }[] = [
  { tab: 'inspector', label: 'Inspector', title: 'The selected node (i)' },
  { tab: 'events', label: 'Events', title: "The run's event log" },
  { tab: 'breakpoints', label: 'Breakpoints', title: 'Where the run stops by itself, and their hits' },
  { tab: 'discussion', label: 'Discussion', title: "Every comment and label on the run's nodes, and on the run" },
];
const tabId = (tab: DrawerTab) => `run-drawer-tab-${tab}`;
const KEY_STEP = 16;

export function RunDrawer({
  drawer,
  inspector,
  events,
  breakpoints,
  discussion,
}: {
  drawer: DrawerState;
  inspector: ReactNode;
  events: ReactNode;
  breakpoints: ReactNode;
  discussion: ReactNode;
}) {
  const slot = useRef<HTMLDivElement>(null);
  const { open, tab, docked } = drawer;

  const { onResizeStart, onResizeKey } = useDrawerResize(slot, drawer);

  return (
    <div
      ref={slot}
      className={styles.slot}
      data-open={open}
      data-docked={docked}
      data-chosen={drawer.chosen}
      style={drawer.width === null ? undefined : ({ '--drawer-width': `${drawer.width}px` } as CSSProperties)}
    >
      <div className={styles.drawer} id={DRAWER_ID} data-testid="run-drawer" data-open={open} data-tab={tab}>
        {open && (
          <div
            className={styles.resizer}
            role="separator"
            aria-orientation="vertical"
            aria-label="Resize the side panel"
            aria-controls={DRAWER_ID}
            aria-valuemin={DRAWER_MIN_WIDTH}
            aria-valuemax={DRAWER_MAX_WIDTH}
            aria-valuenow={drawer.width ?? undefined}
            tabIndex={0}
            title="Drag to resize; double-click for the default width"
            onPointerDown={onResizeStart}
            onDoubleClick={() => drawer.setWidth(null)}
            onKeyDown={onResizeKey}
            data-testid="drawer-resizer"
          />
        )}
        <div className={styles.bar}>
          <DrawerTabs drawer={drawer} />
          <button
            type="button"
            id={DRAWER_TOGGLE_ID}
            className={styles.toggle}
            onClick={drawer.toggle}
            aria-expanded={open}
            aria-controls={drawerPanelId(tab)}
            aria-label={open ? 'Collapse the side panel' : 'Expand the side panel'}
            title={`${open ? 'Collapse' : 'Expand'} the side panel (d)`}
            data-testid="drawer-toggle"
          >
            <svg viewBox="0 0 16 16" aria-hidden="true" className={open ? styles.chevronRight : styles.chevronLeft}>
              <path d="M6 3l5 5-5 5" />
            </svg>
          </button>
        </div>
        {TABS.map((t) => (
          <div
            key={t.tab}
            id={drawerPanelId(t.tab)}
            role="tabpanel"
            aria-labelledby={tabId(t.tab)}
            className={styles.panel}
            hidden={!open || t.tab !== tab}
            tabIndex={-1}
          >
            {t.tab === 'inspector' ? (
              inspector
            ) : t.tab === 'events' ? (
              // the log hidden keeps its filters but does not follow every step (each scrolls it, a forced layout):
              // it catches up when shown
              <Activity mode={open && t.tab === tab ? 'visible' : 'hidden'}>{events}</Activity>
            ) : t.tab === 'breakpoints' ? (
              breakpoints
            ) : (
              discussion
            )}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The tabs, with their counts (events, breakpoint hits, the selection while collapsed); arrows move between them. */
function DrawerTabs({ drawer }: { drawer: DrawerState }) {
  const eventCount = useRunStore((s) => s.eventCount);
  const selectedId = useRunStore((s) => s.selectedNodeId);
  const hitCount = useRunStore((s) => s.hits.marks.length);
  const discussed = useRunStore((s) => discussionCount(s.discussion));
  const { open, tab } = drawer;

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    // the tab list's own arrows (the page's arrows walk the tree): stop them reaching the page's keys
    const next: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let index = TABS.findIndex((t) => t.tab === tab);
    if (event.key in next) index = (index + (next[event.key] ?? 0) + TABS.length) % TABS.length;
    else if (event.key === 'Home') index = 0;
    else if (event.key === 'End') index = TABS.length - 1;
    else return;
    event.preventDefault();
    event.stopPropagation();
    const target = TABS[index];
    if (!target) return;
    drawer.show(target.tab);
    document.getElementById(tabId(target.tab))?.focus();
  }

  return (
    <div
      className={styles.tabs}
      role="tablist"
      aria-label="Side panel"
      aria-orientation={open ? 'horizontal' : 'vertical'}
      onKeyDown={onTabKey}
    >
      {TABS.map((t) => {
        const selected = t.tab === tab;
        return (
          <button
            key={t.tab}
            type="button"
            role="tab"
            id={tabId(t.tab)}
            className={styles.tab}
            aria-selected={open && selected}
            aria-controls={drawerPanelId(t.tab)}
            tabIndex={selected ? 0 : -1}
            onClick={() => drawer.show(t.tab)}
            title={t.title}
            aria-label={t.label}
            data-testid={`drawer-tab-${t.tab}`}
          >
            {t.tab === 'inspector' ? (
              <InspectorIcon />
            ) : t.tab === 'events' ? (
              <EventsIcon />
            ) : t.tab === 'breakpoints' ? (
              <BreakpointsIcon />
            ) : (
              <DiscussionIcon />
            )}
            <span className={styles.tabLabel}>{t.label}</span>
            {t.tab === 'events' && <span className="count-pill">{eventCount.toLocaleString('en-US')}</span>}
            {t.tab === 'breakpoints' && hitCount > 0 && (
              <span className="count-pill" title={`${hitCount} breakpoint hits`}>
                {hitCount.toLocaleString('en-US')}
              </span>
            )}
            {t.tab === 'discussion' && discussed > 0 && (
              <span className="count-pill" title={`${discussed} comments and labels`} data-testid="discussion-count">
                {discussed.toLocaleString('en-US')}
              </span>
            )}
            {t.tab === 'inspector' && !open && selectedId && (
              <span className="count-pill" title={`${selectedId} is selected`}>
                {selectedId}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

/** Resizing by the drawer's left edge: dragged (only a CSS variable moves until release) or with the arrow keys. */
function useDrawerResize(slot: RefObject<HTMLDivElement | null>, drawer: DrawerState) {
  function currentWidth(): number {
    return slot.current?.querySelector<HTMLElement>(`.${styles.drawer}`)?.getBoundingClientRect().width ?? 0;
  }

  function onResizeStart(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    const el = slot.current;
    if (!el) return;
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const right = el.getBoundingClientRect().right;
    let width = currentWidth();
    el.dataset.resizing = 'true';
    // while dragging, only the CSS variable moves (no React render per pointer move); the width is kept on release
    const move = (e: globalThis.PointerEvent) => {
      width = widthFromDrag(right, e.clientX);
      el.style.setProperty('--drawer-width', `${width}px`);
    };
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      delete el.dataset.resizing;
      drawer.setWidth(width);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  }

  function onResizeKey(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    const deltas: Record<string, number> = { ArrowLeft: step, ArrowRight: -step };
    if (event.key in deltas) drawer.setWidth(currentWidth() + (deltas[event.key] ?? 0));
    else if (event.key === 'Home') drawer.setWidth(DRAWER_MAX_WIDTH);
    else if (event.key === 'End') drawer.setWidth(DRAWER_MIN_WIDTH);
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  return { onResizeStart, onResizeKey };
}

function InspectorIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={styles.icon}>
      <rect x="2" y="2.5" width="12" height="11" rx="1.5" />
      <path d="M9.5 2.5v11M11.5 6h0M11.5 8.5h0" />
    </svg>
  );
}

function BreakpointsIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={styles.icon}>
      <circle cx="8" cy="8" r="4.5" />
      <path d="M8 1.5v2M8 12.5v2" />
    </svg>
  );
}

function DiscussionIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={styles.icon}>
      <path d="M2.5 3.5h11v7.5h-6l-3 2.5V11h-2z" />
    </svg>
  );
}

function EventsIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={styles.icon}>
      <path d="M5.5 4h8M5.5 8h8M5.5 12h8M2.5 4h0M2.5 8h0M2.5 12h0" />
    </svg>
  );
}
