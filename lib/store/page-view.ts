/**
 * What the run page's parts tell each other about the view, apart from the run itself: the search (query, hits,
 * which hit is active), whether the canvas collapses the tree around its focus (the person's choice; null:
 * automatic), requests to frame some nodes (from the overview, the search or a breakpoint stop), why a link's
 * breakpoint list was ignored, the comment a link (`?comment=`) or a click in the Discussion tab points at, and the step the canvas last drew (it follows the run store deferred: the player waits
 * for it, so every step it shows is drawn).
 * A store per run page (createPageViewStore), beside the run store; pure zustand, no React.
 * Not responsible for the run's events or tree (run-store.ts), nor for computing layouts or hits (lib/layout,
 * lib/search). The canvas's layout is not kept here: it is derived from the run store, this store's collapse choice
 * and the canvas prefs (lib/layout/canvas-layout.ts), where it is read.
 */
import { createStore } from 'zustand/vanilla';
import type { SearchHit, TreeSearchIndex } from '../search/index';

export interface SearchState {
  /** The query the hits are for (set by the run search, run-search.ts, never by a component). */
  query: string;
  /** Node ids that match, in tree order (the order Enter steps through). */
  hits: readonly string[];
  hitSet: ReadonlySet<string>;
  /** What matched in each hit (field, call), in the order of hits. */
  matches: readonly SearchHit[];
  /** The index the hits were found in (the box reads a hit's words and what is still loading); null: no search. */
  index: TreeSearchIndex | null;
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
  /** The comment shown highlighted (a `?comment=` link, or picked in the Discussion tab); null: none. */
  highlightedComment: string | null;
  highlightComment(id: string | null): void;
  /**
   * New hits for `query`: the hit stepped to stays active while the tree grows, as long as it still matches the
   * same query. The same hits for the same query change nothing.
   */
  setSearchResults(query: string, index: TreeSearchIndex | null, matches: readonly SearchHit[]): void;
  setSearchActive(active: number): void;
  setCollapseChoice(choice: boolean | null): void;
  requestFocus(nodeIds: readonly string[]): void;
  /** The step (seq) the canvas last drew; null when no canvas is drawing. Set by the canvas after its commit. */
  drawnSeq: number | null;
  setDrawnSeq(seq: number | null): void;
}

export type PageViewStore = ReturnType<typeof createPageViewStore>;

const EMPTY_SEARCH: SearchState = { query: '', hits: [], hitSet: new Set(), matches: [], index: null, active: -1 };

/** The same nodes matched at the same places: a new index of a grown tree that changes nothing the page shows. */
function sameMatches(a: readonly SearchHit[], b: readonly SearchHit[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    return x.nodeId === y.nodeId && x.field === y.field && x.seq === y.seq && x.at === y.at && x.length === y.length;
  });
}

export function createPageViewStore() {
  return createStore<PageViewState>()((set, get) => ({
    search: EMPTY_SEARCH,
    collapseChoice: null,
    focusRequest: null,
    breakpointLinkNote: null,
    highlightedComment: null,
    drawnSeq: null,
    setDrawnSeq(seq) {
      if (get().drawnSeq !== seq) set({ drawnSeq: seq });
    },
    setBreakpointLinkNote(note) {
      if (get().breakpointLinkNote !== note) set({ breakpointLinkNote: note });
    },
    highlightComment(id) {
      if (get().highlightedComment !== id) set({ highlightedComment: id });
    },
    setSearchResults(query, index, matches) {
      const current = get().search;
      // a live tree gives a new index every refresh: the page hears of it only when what it shows changed (the
      // hits, where they matched, how many responses are still loading)
      if (
        current.query === query &&
        sameMatches(current.matches, matches) &&
        (current.index?.missingCalls ?? 0) === (index?.missingCalls ?? 0)
      )
        return;
      const hits = matches.map((m) => m.nodeId);
      const activeId = current.active >= 0 ? current.hits[current.active] : undefined;
      const active = current.query === query && activeId !== undefined ? hits.indexOf(activeId) : -1;
      set({ search: { query, hits, hitSet: new Set(hits), matches, index, active } });
    },
    setSearchActive(active) {
      const current = get().search;
      const next = Math.max(-1, Math.min(active, current.hits.length - 1));
      if (next !== current.active) set({ search: { ...current, active: next } });
    },
    setCollapseChoice(choice) {
      if (get().collapseChoice !== choice) set({ collapseChoice: choice });
    },
    requestFocus(nodeIds) {
      set({ focusRequest: { nodeIds: [...nodeIds], n: (get().focusRequest?.n ?? 0) + 1 } });
    },
  }));
}
