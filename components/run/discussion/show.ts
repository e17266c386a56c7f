'use client';
// Going to something written in the discussion: the step it was written at on screen, its node selected and framed,
// the comment highlighted (the inspector and the Discussion tab scroll to it). One function for the Discussion tab's
// links, the timeline's marks and a comment's step.
// Not responsible for the address bar (page/useRunUrl.ts follows the stores).
import type { PageViewState, RunViewState } from '@/lib/store/index';

export interface WritingPlace {
  nodeId: string | null;
  step: number;
  /** The comment to highlight; none for a label. */
  commentId?: string | null;
}

export function showWriting(state: RunViewState, view: PageViewState, place: WritingPlace): void {
  // selected, then highlighted: the address bar (useRunUrl) lets a highlight go when the selection is another node
  // than the comment's, so it must never see the comment highlighted before its node is selected
  if (place.nodeId !== null) state.select(place.nodeId);
  view.highlightComment(place.commentId ?? null);
  state.setView({ followLive: false });
  state.seek(place.step);
  if (place.nodeId !== null) view.requestFocus([place.nodeId]);
}
