'use client';
// The inspector's MCTS section, for a node whose search reports Monte Carlo tree search statistics (an engine MCTS
// run, folded from its backups; an imported llm-reasoners log; an external search): Q (the mean value of its
// rollouts), N (visits), UCT when given (an engine run's: from the last selection that listed it), the step's
// reward when the search names one, and the selected edge (the child the search's selection goes to, as a link). All
// as of the step shown: time travel moves them. Renders nothing for a node without statistics.
// Not responsible for other named scores and metadata (their own section), for where the numbers come from, nor for
// an engine run's selections and value history (MctsTrail.tsx).
import type { ThoughtNode } from '@/lib/engine/index';
import { formatQ, MCTS_SECTION_KEYS } from '@/lib/layout/index';
import { fact } from './MctsParts';
import { NodeLink, Section } from './sections';
import styles from './Inspector.module.css';

export function MctsStats({ node }: { node: ThoughtNode }) {
  const { mcts } = node;
  if (!mcts) return null;
  const reward = node.scores[MCTS_SECTION_KEYS.score];
  const selected = node.metadata[MCTS_SECTION_KEYS.metadata];
  return (
    <Section
      title="MCTS"
      aside={mcts.n !== null ? `${mcts.n} visit${mcts.n === 1 ? '' : 's'}` : undefined}
      testId="inspector-mcts"
    >
      <dl className={styles.facts}>
        {fact(
          'Q',
          mcts.q !== null ? formatQ(mcts.q) : '—',
          'inspector-mcts-q',
          mcts.q !== null ? String(mcts.q) : 'not reported',
        )}
        {fact('N (visits)', mcts.n !== null ? String(mcts.n) : '—', 'inspector-mcts-n')}
        {mcts.uct !== null && fact('UCT', formatQ(mcts.uct), 'inspector-mcts-uct', String(mcts.uct))}
        {reward !== undefined && fact('reward', formatQ(reward), 'inspector-mcts-reward', String(reward))}
        {typeof selected === 'string' && (
          <div className={styles.fact}>
            <dt>selected edge</dt>
            <dd>
              <NodeLink nodeId={selected} testId="inspector-mcts-selected" />
            </dd>
          </div>
        )}
      </dl>
    </Section>
  );
}
