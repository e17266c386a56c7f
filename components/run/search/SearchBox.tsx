'use client';
// The run page's search: a box over the canvas (Ctrl/Cmd+F or "/" focuses it, Escape clears it and gives the keys
// back to the canvas). Typing (debounced a little) finds the nodes that say the text; Enter / Shift+Enter select the
// next / previous hit (the canvas brings the selected node into view). Under the box: which field of the active
// hit matched and the words around it, as text.
// Not responsible for finding the hits or keeping them up to date (lib/store/run-search.ts puts them in the page-view
// store, where the canvas and the overview read them too), nor for drawing the highlights (the canvas, the overview).
import { useEffect, useId, useRef, useState } from 'react';
import { hitSnippet, normaliseQuery } from '@/lib/search/index';
import { createRunSearch } from '@/lib/store/index';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { typing } from '../page/useRunKeyboard';
import { useRunStoreApi } from '../page/RunStoreContext';
import styles from './SearchBox.module.css';

const DEBOUNCE_MS = 120;

/**
 * The box's state: the text typed and, after a pause, the query handed to the run search (lib/store/run-search.ts),
 * which puts the hits in the page-view store and keeps them following the run; the box reads them back from there,
 * as the canvas and the overview do.
 */
function useRunSearch() {
  const runStore = useRunStoreApi();
  const pageView = usePageViewApi();
  const [search] = useState(() => createRunSearch(runStore, pageView));
  const [text, setText] = useState('');
  const debounce = useRef<ReturnType<typeof setTimeout> | null>(null);
  const query = usePageView((s) => s.search.query);
  const hits = usePageView((s) => s.search.matches);
  const index = usePageView((s) => s.search.index);
  const active = usePageView((s) => s.search.active);

  // the run search follows the run store while a query stands: it stops with the page
  useEffect(
    () => () => {
      if (debounce.current) clearTimeout(debounce.current);
      search.stop();
    },
    [search],
  );

  function type(next: string) {
    setText(next);
    if (debounce.current) clearTimeout(debounce.current);
    debounce.current = null;
    if (normaliseQuery(next) === normaliseQuery(query)) return;
    // clearing is immediate; typing waits for a pause
    if (next.trim() === '') search.setQuery('');
    else debounce.current = setTimeout(() => search.setQuery(next), DEBOUNCE_MS);
  }

  /** Enter: a query still waiting for its pause is searched now, then the hits are stepped through. */
  function step(direction: 1 | -1) {
    if (debounce.current) {
      clearTimeout(debounce.current);
      debounce.current = null;
      search.setQuery(text);
    }
    search.step(direction);
  }

  function clear() {
    type('');
  }

  const searching = normaliseQuery(query) !== '';
  return { text, setText: type, searching, index, hits, active, step, clear };
}

export function SearchBox() {
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const snippetId = useId();
  const { text, setText, searching, index, hits, active, step, clear } = useRunSearch();

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
              step(e.shiftKey ? -1 : 1);
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
