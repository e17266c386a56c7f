'use client';
// The run page's search: a box over the canvas (Ctrl/Cmd+F or "/" focuses it, Escape clears it and gives the keys
// back to the canvas). Typing (debounced a little) finds the nodes that say the text; Enter / Shift+Enter select the
// next / previous hit (the canvas brings the selected node into view). Under the box: which field of the active
// hit matched and the words around it, as text. Hits go to the page-view store for the canvas and the overview.
// Not responsible for matching (lib/search/tree-search.ts) or for drawing the highlights (the canvas, the overview).
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { buildSearchIndex, hitSnippet, normaliseQuery, searchIndex } from '@/lib/search/index';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { typing } from '../page/useRunKeyboard';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import styles from './SearchBox.module.css';

const DEBOUNCE_MS = 120;
/**
 * Hits follow a changing tree at most this often: an index walk costs ~10-20 ms at 10k nodes, and a tree from a
 * snapshot (time travel) shares no node objects with the last one, so its index is built cold.
 */
const LIVE_REFRESH_MS = 300;

/** `value`, changing at most once per `ms` (the latest value wins once the time has passed). */
function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const timer = setTimeout(
      () => {
        last.current = Date.now();
        setShown(value);
      },
      Math.max(0, last.current + ms - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The search's state: the text typed, the query it settles into after a pause, the index and hits over the
 * (throttled) tree and log, and stepping through the hits. The hits are published to the page-view store, which the
 * canvas's cards, the far level and the overview read.
 */
function useRunSearch() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  // Enter pressed before the debounce ran: step once this query's hits are in
  const stepWhenReady = useRef<{ query: string; direction: 1 | -1 } | null>(null);
  // Throttled: a live tree is updated in place (version says when it or the log changed), and scrubbing through
  // time hands over a new tree per step; hits follow both, at most every LIVE_REFRESH_MS.
  const tree = useThrottled(
    useRunStore((s) => s.tree),
    LIVE_REFRESH_MS,
  );
  const version = useThrottled(
    useRunStore((s) => s.version),
    LIVE_REFRESH_MS,
  );
  // history pages arrive without changing the tree: the index is rebuilt as they bring model responses in
  const eventCount = useThrottled(
    useRunStore((s) => s.eventCount),
    LIVE_REFRESH_MS,
  );
  const runStore = useRunStoreApi();
  const select = useRunStore((s) => s.select);
  const pageView = usePageViewApi();
  const active = usePageView((s) => s.search.active);

  useEffect(() => {
    if (normaliseQuery(text) === normaliseQuery(query)) return;
    // clearing is immediate; typing waits for a pause
    const timer = setTimeout(() => setQuery(text), text.trim() === '' ? 0 : DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, query]);

  const searching = normaliseQuery(query) !== '';
  const index = useMemo(
    () => (searching ? buildSearchIndex(tree, runStore.getState().events) : null),
    // version and eventCount (throttled) stand for the tree changing in place and for the log growing
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [searching, tree, version, eventCount, runStore],
  );
  const hits = useMemo(() => (index ? searchIndex(index, query) : []), [index, query]);

  // publish to the page-view store (the canvas and the overview read it); the same hits are not sent twice
  useEffect(() => {
    const ids = hits.map((h) => h.nodeId);
    const current = pageView.getState().search;
    if (current.query === query && sameIds(current.hits, ids)) return;
    const activeId = current.active >= 0 ? current.hits[current.active] : undefined;
    // the hit stepped to stays active while the tree grows, as long as it still matches the same query
    const keep = current.query === query && activeId !== undefined ? ids.indexOf(activeId) : -1;
    pageView.getState().setSearch({ query, hits: ids, active: keep });
    const wanted = stepWhenReady.current;
    if (wanted && wanted.query === query) {
      stepWhenReady.current = null;
      step(wanted.direction);
    }
    // step reads the store when called; it is not a dependency
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hits, query, pageView]);

  function step(direction: 1 | -1) {
    const { search } = pageView.getState();
    if (search.hits.length === 0) return;
    const n = search.hits.length;
    const next = search.active < 0 ? (direction === 1 ? 0 : n - 1) : (search.active + direction + n) % n;
    if (search.active !== next) pageView.getState().setSearch({ active: next });
    const id = search.hits[next];
    if (id) select(id);
  }

  function clear() {
    setText('');
    setQuery('');
    pageView.getState().setSearch({ query: '', hits: [], active: -1 });
  }

  /** Enter before the pause: search now, and step once the hits are in. */
  function searchNowThenStep(direction: 1 | -1) {
    stepWhenReady.current = { query: text, direction };
    setQuery(text);
  }

  return { text, setText, query, searching, index, hits, active, step, searchNowThenStep, clear };
}

export function SearchBox() {
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const snippetId = useId();
  const { text, setText, query, searching, index, hits, active, step, searchNowThenStep, clear } = useRunSearch();

  // Ctrl/Cmd+F and "/" focus the box
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const find = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'f';
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !typing(event.target);
      if (!find && !slash) return;
      event.preventDefault();
      inputRef.current?.focus();
      inputRef.current?.select();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  function backToCanvas() {
    inputRef.current?.blur();
    // React Flow's root is not focusable by itself; -1 makes it focusable by script only, not a tab stop
    const canvas = rootRef.current?.closest('.run-canvas')?.querySelector<HTMLElement>('.react-flow');
    if (canvas) {
      if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = -1;
      canvas.focus({ preventScroll: true });
    }
  }

  const pending = normaliseQuery(text) !== normaliseQuery(query);
  const activeHit = active >= 0 ? hits[active] : undefined;
  const snippet = index && activeHit ? hitSnippet(index, activeHit) : null;
  const count = !searching
    ? ''
    : hits.length === 0
      ? 'no match'
      : activeHit
        ? `${active + 1} of ${hits.length}`
        : `${hits.length} match${hits.length === 1 ? '' : 'es'}`;
  const loading = index !== null && index.missingCalls > 0;

  return (
    <div className={styles.box} ref={rootRef} data-testid="run-search">
      <div className={styles.row}>
        <svg className={styles.icon} width="14" height="14" viewBox="0 0 24 24" aria-hidden="true">
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m20 20-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          ref={inputRef}
          className={`input ${styles.input}`}
          type="search"
          value={text}
          placeholder="Search nodes  ( / )"
          aria-label="Search this run’s nodes"
          aria-describedby={snippet ? snippetId : undefined}
          spellCheck={false}
          autoComplete="off"
          data-testid="run-search-input"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              const direction = e.shiftKey ? -1 : 1;
              if (pending) searchNowThenStep(direction);
              else step(direction);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              clear();
              backToCanvas();
            }
          }}
        />
        <span
          className={styles.count}
          data-testid="run-search-count"
          data-empty={searching && hits.length === 0}
          data-idle={!searching}
          aria-live="polite"
        >
          {count}
        </span>
        <button
          type="button"
          className={styles.stepButton}
          aria-label="Previous match (Shift+Enter)"
          title="Previous match (Shift+Enter)"
          disabled={hits.length === 0}
          onClick={() => step(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          className={styles.stepButton}
          aria-label="Next match (Enter)"
          title="Next match (Enter)"
          disabled={hits.length === 0}
          onClick={() => step(1)}
        >
          ↓
        </button>
      </div>
      {snippet && (
        <p className={styles.snippet} id={snippetId} data-testid="run-search-snippet">
          <span className={styles.field}>
            {activeHit?.nodeId} · {snippet.label}
          </span>
          <span className={styles.context}>
            {snippet.before}
            <mark className={styles.mark}>{snippet.match}</mark>
            {snippet.after}
          </span>
        </p>
      )}
      {searching && loading && (
        <p className={styles.note} data-testid="run-search-loading">
          History still loading: {index.missingCalls} model response{index.missingCalls === 1 ? '' : 's'} not searched
          yet.
        </p>
      )}
    </div>
  );
}
