/**
 * What the run page's parts tell each other about the view, apart from the run itself: the search (query, hits,
 * which hit is active), where the canvas laid the tree out (so the overview can show the view's rectangle and frame
 * a subtree), requests to frame some nodes (from the overview, the search or a breakpoint stop), and why a link's
 * breakpoint list was ignored.
 * A store per run page (createPageViewStore), beside the run store; pure zustand, no React.
 * Not responsible for the run's events or tree (run-store.ts), nor for computing layouts or hits (lib/layout,
 * lib/search): it only carries their results between components.
 */
import { createStore } from 'zustand/vanilla';

export interface Point {
  x: number;
  y: number;
}

export interface SearchState {
  query: string;
  /** Node ids that match, in tree order (the order Enter steps through). */
  hits: readonly string[];
  hitSet: ReadonlySet<string>;
  /** Index into hits of the one stepped to last; -1 when none is. */
  active: number;
}

/** Where the canvas placed what it shows, in canvas (flow) coordinates: top-left corners of each item. */
export interface CanvasLayout {
  /** Visible item id -> its top-left corner. */
  positions: ReadonlyMap<string, Point>;
  /** Node id -> the visible item that stands for it (itself, or the fold or summary card hiding it). */
  itemOf: ReadonlyMap<string, string>;
  /** Size of a full card in flow units (every item has this box). */
  itemWidth: number;
  itemHeight: number;
}

export interface FocusRequest {
  /** Frame these nodes (and the items standing for them); one id frames that node. */
  nodeIds: readonly string[];
  /** Increases with every request, so asking for the same nodes twice moves the view twice. */
  n: number;
}

export interface PageViewState {
  search: SearchState;
  layout: CanvasLayout | null;
  focusRequest: FocusRequest | null;
  /** Why the link's breakpoint list (`bp=`) was ignored, for the breakpoints panel to say; null: nothing to say. */
  breakpointLinkNote: string | null;
  setBreakpointLinkNote(note: string | null): void;
  setSearch(patch: Partial<Pick<SearchState, 'query' | 'active'>> & { hits?: readonly string[] }): void;
  setLayout(layout: CanvasLayout | null): void;
  requestFocus(nodeIds: readonly string[]): void;
}

export type PageViewStore = ReturnType<typeof createPageViewStore>;

const EMPTY_SEARCH: SearchState = { query: '', hits: [], hitSet: new Set(), active: -1 };

export function createPageViewStore() {
  return createStore<PageViewState>()((set, get) => ({
    search: EMPTY_SEARCH,
    layout: null,
    focusRequest: null,
    breakpointLinkNote: null,
    setBreakpointLinkNote(note) {
      if (get().breakpointLinkNote !== note) set({ breakpointLinkNote: note });
    },
    setSearch(patch) {
      const current = get().search;
      const hits = patch.hits ?? current.hits;
      const next: SearchState = {
        query: patch.query ?? current.query,
        hits,
        hitSet: patch.hits ? new Set(patch.hits) : current.hitSet,
        active: Math.min(patch.active ?? current.active, hits.length - 1),
      };
      if (next.query === current.query && next.hits === current.hits && next.active === current.active) return;
      set({ search: next });
    },
    setLayout(layout) {
      if (get().layout !== layout) set({ layout });
    },
    requestFocus(nodeIds) {
      set({ focusRequest: { nodeIds: [...nodeIds], n: (get().focusRequest?.n ?? 0) + 1 } });
    },
  }));
}
