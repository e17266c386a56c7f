/**
 * How MCTS statistics (a node's Q, N and UCT: folded by reduce from an engine MCTS run's backups, or from
 * node.annotated in an imported llm-reasoners log or an external search) are written wherever they are shown: the
 * canvas card's compact "Q 0.62 · N 7", the inspector's figures, whether a tree has any (the overview offers to
 * colour by them only then), and an engine MCTS run's settings as the inspector and the header show them. Pure.
 * Not responsible for where the numbers come from (reduce, lib/formats/llm-reasoners.ts, the ingest API) nor for drawing.
 */
import type { MctsStats } from '../contract/vocabulary';
import { mctsSettings, type ThoughtTree } from '../engine/index';

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

/**
 * True when the tree is an engine Monte Carlo tree search (from its run.started on, before any node has figures) or
 * some node of it has MCTS statistics. Linear, stops at the first.
 */
export function hasMctsStats(tree: ThoughtTree): boolean {
  if (tree.config.explorationStrategy === 'mcts') return true;
  for (const id of tree.nodeOrder) if (tree.nodes[id]?.mcts) return true;
  return false;
}

/** One of an MCTS run's settings as words: its config key, a label, the value, a short form, and what it means. */
export interface MctsSettingFact {
  key: 'mctsIterations' | 'mctsExploration' | 'mctsRolloutDepth' | 'mctsBackup' | 'mctsBestBy';
  label: string;
  value: string;
  /** For a one-line summary ("12/50 it.", "c 1.41"). */
  short: string;
  title: string;
}

/**
 * An engine MCTS run's settings as of the tree shown: iterations begun / the budget, c, the rollout depth, the
 * backup rule and what the result follows; the defaults where its config has none (mctsSettings). Null for every
 * other strategy.
 */
export function mctsSettingFacts(tree: ThoughtTree): MctsSettingFact[] | null {
  if (tree.config.explorationStrategy !== 'mcts') return null;
  const s = mctsSettings(tree.config);
  const c = s.mctsExploration;
  const begun = tree.mcts?.iterations ?? 0;
  const bestBy = s.mctsBestBy === 'q' ? 'Q' : 'visits';
  return [
    {
      key: 'mctsIterations',
      label: 'iterations',
      value: `${begun} / ${s.mctsIterations}`,
      short: `${begun}/${s.mctsIterations} it.`,
      title: 'iterations begun so far / the iteration budget',
    },
    {
      key: 'mctsExploration',
      label: 'exploration c',
      value: Math.abs(c - Math.SQRT2) < 1e-12 ? `${formatQ(c)} (√2)` : formatQ(c),
      short: `c ${formatQ(c)}`,
      title: `c = ${c} in UCT = Q + c · sqrt(ln N(parent) / N(child))`,
    },
    {
      key: 'mctsRolloutDepth',
      label: 'rollout depth',
      value: String(s.mctsRolloutDepth),
      short: `rollout ${s.mctsRolloutDepth}`,
      title:
        s.mctsRolloutDepth === 0
          ? 'no rollout: a leaf’s value is its own (a verified answer 1, a failure 0, else its score)'
          : `a greedy rollout of ${s.mctsRolloutDepth} more steps before the value is taken`,
    },
    {
      key: 'mctsBackup',
      label: 'backup',
      value: s.mctsBackup,
      short: s.mctsBackup,
      title: s.mctsBackup === 'mean' ? 'Q is the mean of the values backed up' : 'Q is the best value backed up',
    },
    {
      key: 'mctsBestBy',
      label: 'best by',
      value: bestBy,
      short: `best by ${bestBy}`,
      title: `without a verified answer, the result follows the ${s.mctsBestBy === 'q' ? 'highest Q' : 'most visited child'} from the root`,
    },
  ];
}

/**
 * An MCTS run's settings in one line, short ("12/50 it. · c 1.41 · rollout 0 · mean · best by visits") or long
 * (each with its label), else null.
 */
export function mctsSummary(tree: ThoughtTree, form: 'short' | 'long' = 'short'): string | null {
  const facts = mctsSettingFacts(tree);
  if (!facts) return null;
  return facts.map((f) => (form === 'short' ? f.short : `${f.label} ${f.value}`)).join(' · ');
}

/**
 * The named score and the metadata key the inspector's MCTS section shows itself (the step's reward, the selected
 * edge as a link): the general scores and metadata sections leave them out for a node with MCTS statistics.
 */
export const MCTS_SECTION_KEYS = { score: 'reward', metadata: 'selected_edge' } as const;
