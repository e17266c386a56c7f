/**
 * What the run page's parts tell each other about the view, apart from the run itself: the search (query, hits,
 * which hit is active), whether the canvas collapses the tree around its focus (the person's choice; null:
 * automatic), requests to frame some nodes (from the overview, the search or a breakpoint stop), and why a link's
 * breakpoint list was ignored.
 * A store per run page (createPageViewStore), beside the run store; pure zustand, no React.
 * Not responsible for the run's events or tree (run-store.ts), nor for computing layouts or hits (lib/layout,
 * lib/search). The canvas's layout is not kept here: it is derived from the run store, this store's collapse choice
 * and the canvas prefs (lib/layout/canvas-layout.ts), where it is read.
 */
import { createStore } from 'zustand/vanilla';

export interface SearchState {
  query: string;
  /** Node ids that match, in tree order (the order Enter steps through). */
  hits: readonly string[];
  hitSet: ReadonlySet<string>;
  /** Index into hits of the one stepped to last; -1 when none is. */
  active: number;
}

export interface FocusRequest {
  /** Frame these nodes (and the items standing for them); one id frames that node. */
  nodeIds: readonly string[];
  /** Increases with every request, so asking for the same nodes twice moves the view twice. */
  n: number;
}

export interface PageViewState {
  search: SearchState;
  /** Collapse the tree around its focus: the person's choice, or null for automatic (by the tree's size). */
  collapseChoice: boolean | null;
  focusRequest: FocusRequest | null;
  /** Why the link's breakpoint list (`bp=`) was ignored, for the breakpoints panel to say; null: nothing to say. */
  breakpointLinkNote: string | null;
  setBreakpointLinkNote(note: string | null): void;
  setSearch(patch: Partial<Pick<SearchState, 'query' | 'active'>> & { hits?: readonly string[] }): void;
  setCollapseChoice(choice: boolean | null): void;
  requestFocus(nodeIds: readonly string[]): void;
}

export type PageViewStore = ReturnType<typeof createPageViewStore>;

const EMPTY_SEARCH: SearchState = { query: '', hits: [], hitSet: new Set(), active: -1 };

export function createPageViewStore() {
  return createStore<PageViewState>()((set, get) => ({
    search: EMPTY_SEARCH,
    collapseChoice: null,
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
    setCollapseChoice(choice) {
      if (get().collapseChoice !== choice) set({ collapseChoice: choice });
    },
    requestFocus(nodeIds) {
      set({ focusRequest: { nodeIds: [...nodeIds], n: (get().focusRequest?.n ?? 0) + 1 } });
    },
  }));
}
