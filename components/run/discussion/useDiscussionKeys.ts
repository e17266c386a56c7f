'use client';
// The discussion's keys, for whoever may discuss the run: 1 to 9 put the label with that key on the selected node or
// take it off (as its chip does: useLabelWrite, so a refusal shows beside the chips), and `c` opens the box for a
// comment on the selected node (the inspector's), or on the run when nothing is selected (the Discussion tab's).
// Ignored while typing in a field, with a modifier held, or for a reader (the keys then do nothing here).
// Not responsible for the page's other keys (page/useRunKeyboard.ts lists these beside its own for `?`).
import { useEffect } from 'react';
import { useSession } from '@/components/session/useSession';
import { labelsOn, labelToggle } from '@/lib/store/index';
import { typing } from '../page/useRunKeyboard';
import { drawerPanelId, type RunDrawer } from '../page/useRunDrawer';
import { useRunStoreApi } from '../page/RunStoreContext';
import { commentBoxId } from './NodeDiscussion';
import { focusAndReveal } from './reveal';
import { useLabelChoices } from './useDiscussion';
import { useDiscussionRights } from './useDiscussionRights';
import { useLabelWrite } from './useDiscussionWrites';

export function useDiscussionKeys(runId: string, drawer: RunDrawer) {
  const { write: allowed } = useDiscussionRights();
  const { who } = useSession();
  const choices = useLabelChoices();
  const store = useRunStoreApi();
  const { mutate } = useLabelWrite(runId);
  const { show } = drawer;
  useEffect(() => {
    if (!allowed) return;
    function onKey(event: KeyboardEvent) {
      if (typing(event.target) || event.metaKey || event.ctrlKey || event.altKey || event.repeat) return;
      const state = store.getState();
      const nodeId = state.selectedNodeId;
      const choice = choices.find((c) => c.key === event.key);
      if (choice) {
        if (nodeId === null || !state.tree.nodes[nodeId]) return;
        event.preventDefault();
        const there = labelsOn(state.discussion, nodeId).get(choice.name);
        mutate({ do: labelToggle(who, there), nodeId, label: choice.name });
      } else if (event.key === 'c') {
        event.preventDefault();
        const onNode = nodeId !== null && state.tree.nodes[nodeId] !== undefined;
        show(onNode ? 'inspector' : 'discussion');
        // the panel shows in the next frame; then its box takes the focus and comes into view
        requestAnimationFrame(() => {
          const box = document.getElementById(commentBoxId(onNode ? nodeId : null));
          if (box) focusAndReveal(box);
          else
            document.getElementById(drawerPanelId(onNode ? 'inspector' : 'discussion'))?.focus({ preventScroll: true });
        });
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [allowed, who, choices, store, mutate, show]);
}
