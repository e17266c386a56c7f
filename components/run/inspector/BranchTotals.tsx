'use client';
import type { ThoughtNode } from '@/lib/engine/index';
import { rollupsFor } from '@/lib/layout/index';
import { useShownTree } from '../page/RunStoreContext';
import { formatDuration, formatSpend, formatTokens } from '@/lib/contract/format';
import { Section } from './sections';
import styles from './Inspector.module.css';

/** "38%", "<1%" for a sliver that is not nothing; null when there is no whole to share. */
function share(part: number, whole: number): string | null {
  if (!(whole > 0)) return null;
  const pct = (part / whole) * 100;
  if (pct > 0 && pct < 1) return '<1%';
  return `${Math.round(pct)}%`;
}

export function BranchTotals({ node }: { node: ThoughtNode }) {
  // the rollups walk the whole tree: as the whole-tree views, they follow a seek when React has time
  const { tree } = useShownTree();
  const rollups = rollupsFor(tree);
  const rollup = rollups.get(node.id);
  const runCost = tree.usage.cost;
  const runModelMs = tree.rootId ? (rollups.get(tree.rootId)?.elapsedMs ?? 0) : 0;
  // a leaf's branch is the node itself: its Usage section says it all
  if (!rollup || rollup.nodes < 2) return null;
  const priced = rollup.modelCalls > rollup.unpricedCalls;
  const costShare = priced ? share(rollup.cost, runCost) : null;
  const timeShare = share(rollup.elapsedMs, runModelMs);
  const fact = (label: string, value: string, testId?: string, note?: string | null) => (
    <div className={styles.fact}>
      <dt>{label}</dt>
      <dd>
        <span className={styles.num} data-testid={testId}>
          {value}
        </span>
        {note && <span className={styles.muted}> · {note}</span>}
      </dd>
    </div>
  );
  return (
    <Section title="This branch" aside={`${rollup.nodes} nodes`} testId="inspector-branch">
      <dl className={styles.facts}>
        {rollup.modelCalls === 0
          ? fact('cost', 'no model calls yet', 'inspector-branch-cost')
          : fact('cost', formatSpend(rollup), 'inspector-branch-cost', costShare && `${costShare} of the run`)}
        {fact('tokens in', formatTokens(rollup.inputTokens))}
        {fact('tokens out', formatTokens(rollup.outputTokens))}
        {fact(
          'model calls',
          formatTokens(rollup.modelCalls),
          undefined,
          // no time to show when the calls took none (an offline simulation, an imported log without times)
          rollup.elapsedMs > 0
            ? `${formatDuration(rollup.elapsedMs)} summed${timeShare ? `, ${timeShare} of the model time` : ''}`
            : null,
        )}
        {fact('verified answers', String(rollup.verifiedAnswers), 'inspector-branch-verified')}
        {fact('dead ends', String(rollup.deadEnds))}
      </dl>
    </Section>
  );
}
