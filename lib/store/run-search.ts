/**
 * The run page's search, kept outside React: a query the search box sets becomes the page-view store's hits at once,
 * and while a query stands the hits follow the run store (a live tree growing in place, a new tree per step of time
 * travel, history pages bringing model responses in) at most every SEARCH_REFRESH_MS, since an index walk costs
 * ~10-20 ms at 10k nodes and a tree from a snapshot shares no node objects with the last one (its index is built
 * cold). Stepping through the hits selects the node (the canvas brings it into view).
 * Not responsible for matching (lib/search), for debouncing what is typed (the box), nor for drawing hits (the
 * canvas, the overview, the box).
 */
import { buildSearchIndex, normaliseQuery, searchIndex, type TreeSearchIndex } from '../search/index';
import type { PageViewStore } from './page-view';
import type { RunStore } from './run-store';
import { realTimerClock, type TimerClock } from './timer-clock';

export const SEARCH_REFRESH_MS = 300;

export interface RunSearch {
  /** Searches for `query` now ('' clears); while it stands, the hits follow the run. */
  setQuery(query: string): void;
  /** Steps to the next (1) or previous (-1) hit, wrapping, and selects its node. */
  step(direction: 1 | -1): void;
  /** Stops following the run (the page unmounts); a later setQuery starts again. */
  stop(): void;
}

/** What an index was built from: a new tree, a tree changed in place (version) or more history (eventCount). */
interface IndexedFrom {
  tree: unknown;
  version: number;
  eventCount: number;
}

export function createRunSearch(
  runStore: RunStore,
  pageView: PageViewStore,
  { refreshMs = SEARCH_REFRESH_MS, clock = realTimerClock }: { refreshMs?: number; clock?: TimerClock } = {},
): RunSearch {
  let query = '';
  let index: TreeSearchIndex | null = null;
  let indexedFrom: IndexedFrom | null = null;
  let lastRefresh = -Infinity;
  let timer: unknown = null;
  let unsubscribe: (() => void) | null = null;

  const stale = () => {
    const s = runStore.getState();
    return (
      !indexedFrom ||
      indexedFrom.tree !== s.tree ||
      indexedFrom.version !== s.version ||
      indexedFrom.eventCount !== s.eventCount
    );
  };

  function refresh() {
    timer = null;
    lastRefresh = clock.now();
    if (stale()) {
      const s = runStore.getState();
      index = buildSearchIndex(s.tree, s.events);
      indexedFrom = { tree: s.tree, version: s.version, eventCount: s.eventCount };
    }
    pageView.getState().setSearchResults(query, index, index ? searchIndex(index, query) : []);
  }

  function follow() {
    if (unsubscribe) return;
    unsubscribe = runStore.subscribe(() => {
      if (timer !== null || !stale()) return;
      timer = clock.setTimeout(refresh, Math.max(0, lastRefresh + refreshMs - clock.now()));
    });
  }

  function stop() {
    unsubscribe?.();
    unsubscribe = null;
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  }

  return {
    setQuery(next) {
      query = next;
      if (normaliseQuery(next) === '') {
        stop();
        index = null;
        indexedFrom = null;
        pageView.getState().setSearchResults('', null, []);
        return;
      }
      if (timer !== null) clock.clearTimeout(timer);
      refresh();
      follow();
    },
    step(direction) {
      const { search } = pageView.getState();
      const n = search.hits.length;
      if (n === 0) return;
      const next = search.active < 0 ? (direction === 1 ? 0 : n - 1) : (search.active + direction + n) % n;
      pageView.getState().setSearchActive(next);
      runStore.getState().select(search.hits[next]!);
    },
    stop,
  };
}
