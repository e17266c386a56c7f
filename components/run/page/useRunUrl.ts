'use client';
// The URL holds what is on screen: /runs/<id>?step=<seq>&node=<nodeId>, and for a run that has ended the breakpoints
// the person is querying its history with (&bp=<the list as compact JSON>). Opening such a link shows the same step
// with the same node selected once the history has arrived that far, and the same hits; `node=best` (an experiment's
// cell links there) selects the tree's best node (markedBestNode, the store's bestNodeId) once, when the tree is
// known: as soon as the run is seen ended (its winner), or for a running run its first best; afterwards the URL follows
// the screen (replaced, not pushed, so the back button leaves the run instead of undoing every click). A `bp` that is
// not a list the contract takes is ignored, and the breakpoints panel says why.
// `comment=<id>` (a comment's "Copy link") highlights that comment and, once the run's discussion has it, selects its
// node at the step it was written at (what the link itself says of step and node wins) and opens the Discussion tab
// (`showTab`); the address keeps `comment` while the highlight lasts, which is until another node is selected.
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { hasEnded } from '@/lib/contract/run-status';
import { decodeBreakpoints, type DrawerTab, encodeBreakpoints } from '@/lib/store/index';
import { usePageViewApi } from './PageViewContext';
import { useRunStoreApi } from './RunStoreContext';

export type UrlProblem = { kind: 'bad-step'; value: string } | { kind: 'beyond-end'; step: number; lastSeq: number };

export function useRunUrl(showTab?: (tab: DrawerTab) => void): UrlProblem | null {
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  // The link as Next routed it, not window.location: after a client navigation (a fork opening with its node) the
  // new page renders before the address bar changes, so window.location still holds the previous page's link.
  const params = useSearchParams();
  const [initial] = useState(() => ({
    step: params.get('step'),
    node: params.get('node'),
    bp: params.get('bp'),
    comment: params.get('comment'),
  }));
  const [problem, setProblem] = useState<UrlProblem | null>(() =>
    initial.step !== null && !/^\d+$/.test(initial.step) ? { kind: 'bad-step', value: initial.step } : null,
  );

  // Apply the link: select its node now, show its step as soon as the log reaches it.
  useEffect(() => {
    let step = initial.step !== null && /^\d+$/.test(initial.step) ? Number(initial.step) : null;
    // the linked comment, until the run's discussion has it
    let wantComment = initial.comment;
    if (wantComment) pageView.getState().highlightComment(wantComment);
    // `best` names no node: the tree's best is chosen below, once it is known
    let wantBest = initial.node === 'best';
    if (initial.node && !wantBest) store.getState().select(initial.node);
    if (initial.bp !== null) {
      const decoded = decodeBreakpoints(initial.bp);
      if (decoded.ok) store.getState().setLocalBreakpoints(decoded.list);
      else pageView.getState().setBreakpointLinkNote(`The link's breakpoints were ignored: ${decoded.problem}.`);
    }
    let applied = step === null;
    // while the link is being applied, the store's writes call this listener back from inside: the address is
    // written once the link is in full, never from a state that has not taken its step yet
    let applying = false;
    const sync = () => {
      if (applying) return;
      const s = store.getState();
      const linked = wantComment === null ? undefined : s.discussion.comments.find((c) => c.id === wantComment);
      if (linked) {
        wantComment = null;
        // the comment fills in what the link leaves out: its node, the step it was written at
        if (linked.nodeId !== null && !initial.node) {
          applying = true;
          try {
            s.select(linked.nodeId);
          } finally {
            applying = false;
          }
          pageView.getState().requestFocus([linked.nodeId]);
        }
        if (step === null) {
          step = linked.step;
          applied = false;
        }
        showTab?.('discussion');
      }
      if (wantBest && s.liveStatus !== null && (hasEnded(s.liveStatus) || s.bestNodeId !== null)) {
        wantBest = false;
        if (s.bestNodeId) {
          applying = true;
          try {
            s.select(s.bestNodeId);
          } finally {
            applying = false;
          }
        }
      }
      if (!applied && step !== null) {
        const ended = s.liveStatus === 'finished';
        // once the run is known to reach the step, ask the store for it: it shows the step when the history gets
        // there (a long run's history loads after its latest tree), and forgets it if the person seeks elsewhere
        // first; until then the address keeps the step (pendingSeq)
        if (s.lastSeq >= step) {
          applying = true;
          try {
            s.setView({ followLive: false });
            s.seek(step);
          } finally {
            applying = false;
          }
          applied = true;
        } else if (ended && s.lastSeq < step) {
          applied = true;
          setProblem({ kind: 'beyond-end', step, lastSeq: s.lastSeq });
        }
        if (!applied) return;
      }
      // read again: the seek above changed the state
      const now = store.getState();
      const url = new URL(window.location.href);
      const shown = now.viewSeq ?? now.pendingSeq;
      if (shown === null) url.searchParams.delete('step');
      else url.searchParams.set('step', String(shown));
      if (now.selectedNodeId) url.searchParams.set('node', now.selectedNodeId);
      else url.searchParams.delete('node');
      // a highlighted comment lasts while its node stays selected (a run's own comment: until another is picked)
      const view = pageView.getState();
      if (wantComment === null && view.highlightedComment !== null) {
        const highlighted = now.discussion.comments.find((c) => c.id === view.highlightedComment);
        if (highlighted?.nodeId && highlighted.nodeId !== now.selectedNodeId) {
          applying = true; // its own listener would write the address halfway
          try {
            view.highlightComment(null);
          } finally {
            applying = false;
          }
        }
      }
      const comment = wantComment ?? pageView.getState().highlightedComment;
      if (comment === null) url.searchParams.delete('comment');
      else url.searchParams.set('comment', comment);
      // an ended run's query travels with the link; a running run's list is its own (in its log), and a run not
      // known yet keeps what the link said
      if (now.liveStatus === 'finished' && now.localBreakpoints !== null) {
        url.searchParams.set('bp', encodeBreakpoints(now.localBreakpoints));
      } else if (now.liveStatus !== null) url.searchParams.delete('bp');
      if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
    };
    sync();
    const unsubscribe = store.subscribe(sync);
    const unsubscribeView = pageView.subscribe((v, previous) => {
      if (v.highlightedComment !== previous.highlightedComment) sync();
    });
    return () => {
      unsubscribe();
      unsubscribeView();
    };
  }, [store, pageView, initial, showTab]);

  return problem;
}
