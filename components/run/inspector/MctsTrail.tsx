'use client';
// The inspector's MCTS trail for a node of an engine Monte Carlo tree search (issue 31), as of the step on screen:
// its last selection (MctsLastSelection.tsx) and its value history (MctsValueHistory.tsx), both read from the log up
// to the tree on screen (tree.lastSeq), so time travel moves them. Nothing for a run that is not an engine MCTS run
// (an imported llm-reasoners tree has figures, MctsStats.tsx, but no selections or backups in its log).
// Not responsible for reading the log (lib/event-log/mcts.ts) nor for the node's current Q and N (MctsStats.tsx).
import { useMemo } from 'react';
import { mctsSettings, type ThoughtNode } from '@/lib/engine/index';
import { lastSelectionOf, valueHistoryOf } from '@/lib/event-log/index';
import { useRunStore } from '../page/RunStoreContext';
import { LastSelection } from './MctsLastSelection';
import { ValueHistory } from './MctsValueHistory';

function useMctsTrail(nodeId: string) {
  const isMcts = useRunStore((s) => s.tree.mcts !== null);
  const events = useRunStore((s) => s.events);
  const eventCount = useRunStore((s) => s.eventCount);
  const upTo = useRunStore((s) => s.tree.lastSeq);
  const rule = useRunStore((s) => mctsSettings(s.tree.config).mctsBackup);
  // the history is appended in place: what it holds up to the step on screen is what to read
  const readTo = Math.min(eventCount, upTo);
  const figures = useMemo(
    () =>
      isMcts
        ? {
            selection: lastSelectionOf(events, nodeId, readTo),
            history: valueHistoryOf(events, nodeId, readTo, rule),
          }
        : null,
    [isMcts, events, nodeId, readTo, rule],
  );
  return figures && { ...figures, loading: eventCount < upTo };
}

/** Both sections, for a node of an engine MCTS run. */
export function MctsTrail({ node }: { node: ThoughtNode }) {
  const figures = useMctsTrail(node.id);
  if (!figures) return null;
  return (
    <>
      {node.parentId !== null && <LastSelection selection={figures.selection} loading={figures.loading} />}
      <ValueHistory rows={figures.history} loading={figures.loading} />
    </>
  );
}
