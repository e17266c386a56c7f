/**
 * How MCTS statistics (a node's Q, N and UCT, from node.annotated: an imported llm-reasoners log, an external
 * search) are written wherever they are shown: the canvas card's compact "Q 0.62 · N 7", the inspector's figures,
 * and whether a tree has any (the overview offers to colour by them only then). Pure.
 * Not responsible for where the numbers come from (lib/formats/llm-reasoners.ts, the ingest API) nor for drawing.
 */
import type { MctsStats } from '../contract/vocabulary';
import type { ThoughtTree } from '../engine/index';

/** A value as a card shows it: two decimals below 10, one below 100, none above (rewards can be large). */
export function formatQ(q: number): string {
  const size = Math.abs(q);
  return q.toFixed(size >= 100 ? 0 : size >= 10 ? 1 : 2);
}

/** "Q 0.62 · N 7" (what the search has said of the two); null when it has said neither. */
export function mctsFigure(mcts: MctsStats | null | undefined): string | null {
  if (!mcts) return null;
  const parts = [mcts.q !== null ? `Q ${formatQ(mcts.q)}` : '', mcts.n !== null ? `N ${mcts.n}` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** True when some node of the tree has MCTS statistics. Linear, stops at the first. */
export function hasMctsStats(tree: ThoughtTree): boolean {
  for (const id of tree.nodeOrder) if (tree.nodes[id]?.mcts) return true;
  return false;
}

/**
 * The named score and the metadata key the inspector's MCTS section shows itself (the step's reward, the selected
 * edge as a link): the general scores and metadata sections leave them out for a node with MCTS statistics.
 */
export const MCTS_SECTION_KEYS = { score: 'reward', metadata: 'selected_edge' } as const;
