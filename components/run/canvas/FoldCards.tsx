'use client';
// The folded parts of the tree on the canvas: a parent's dead ends (failed branches and those a person pruned) in one
// summary card, what was pruned by rule (the candidates dropped below the threshold, the branches the search pruned
// itself) in another, once that one is opened the search's pruned branches and a ghost card per dropped candidate, and, with auto-collapse, the children away from the focus in one "+N more, best 0.71" card.
// A click on a summary opens it in place (the canvas handles clicks). Between the card's readable zoom and the
// far level each is a pill with a few large words, like the node cards (lib/layout/lod.ts).
import { useStore, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import {
  droppedFoldText,
  type DroppedFlowNode,
  type DroppedFoldFlowNode,
  firstLine,
  type FoldFlowNode,
  levelOf,
  rollupsFor,
  scoreFigure,
  type SummaryFlowNode,
  sumRollups,
} from '@/lib/layout/index';
import { formatSpend } from '@/lib/contract/format';
import { NodeHandles } from './orientation';
import { useRunStore, useShownTree } from '../page/RunStoreContext';

const usePill = () => useStore((s) => levelOf(s.transform[2]) !== 'card');

function FoldCardImpl({ data }: NodeProps<FoldFlowNode>) {
  // the folded nodes alone (node objects change exactly when the node does): no re-render for other events
  const dead = useRunStore(
    useShallow((s) => data.nodeIds.map((id) => s.tree.nodes[id]).filter((n) => n !== undefined)),
  );
  const pill = usePill();
  const failed = dead.filter((n) => n.status === 'failed').length;
  const pruned = dead.length - failed;
  const counts = `${failed ? `${failed} failed` : ''}${failed && pruned ? ' · ' : ''}${pruned ? `${pruned} pruned` : ''}`;
  const title = `${dead.length} dead end${dead.length === 1 ? '' : 's'}`;
  if (pill) {
    return (
      <div
        className="tnode tpill tnode-fold"
        data-testid="fold-node"
        data-fold-id={data.foldId}
        title={`${title}: ${counts}. Click to unfold`}
      >
        <NodeHandles />
        <span className="tpill-words">{title}</span>
        <span className="tpill-sr">
          {title} · {counts}
        </span>
      </div>
    );
  }
  return (
    <div className="tnode tnode-fold" data-testid="fold-node" data-fold-id={data.foldId} title="Click to unfold">
      <NodeHandles />
      <div className="tnode-top">
        <span className="badge st-failed">{title}</span>
        <span className="mono tnode-id">
          {counts}
          {data.hidden > dead.length ? ` · ${data.hidden} nodes` : ''}
        </span>
      </div>
      <ul className="fold-lines">
        {dead.slice(0, 3).map((n) => (
          <li key={n.id}>
            <span className="mono">{n.id}</span> {firstLine(n.branch?.thought ?? '', 60)}
          </li>
        ))}
        {dead.length > 3 && <li className="fold-more">+{dead.length - 3} more · click to unfold</li>}
      </ul>
    </div>
  );
}

/** A bar with one segment per status, as wide as its share of the hidden nodes. */
function StatusMix({ mix }: { mix: string }) {
  const parts = mix ? mix.split(',').map((p) => p.split(':') as [string, string]) : [];
  return (
    <div className="tsum-mix" aria-label={parts.map(([s, n]) => `${n} ${s}`).join(', ')}>
      {parts.map(([status, n]) => (
        <span key={status} className={`mix-${status}`} style={{ flexGrow: Number(n) }} />
      ))}
    </div>
  );
}

/** What the branches behind a summary cost, in words ("$0.0041 · 1 verified"); one string so the card re-renders
 * only when the words change. Read by the card level alone: a pill does not show it, and the rollups it reads walk
 * the whole tree on every version of a live one. */
function useHiddenTotals(nodeIds: readonly string[]): string {
  // the rollups walk the whole tree: they follow a seek with the canvas (useShownTree), not in its urgent render
  const { tree } = useShownTree();
  const rollups = rollupsFor(tree);
  const totals = sumRollups(nodeIds.map((id) => rollups.get(id)));
  // branches that never called the model cost nothing: "no calls" says so, where "$0" would read as a price
  const cost = totals.modelCalls === 0 ? 'no calls' : formatSpend(totals);
  return totals.verifiedAnswers > 0 ? `${cost} · ${totals.verifiedAnswers} verified` : cost;
}

/** The summary card's line under its badge, at the card level. */
function SummaryMore({ nodeIds }: { nodeIds: readonly string[] }) {
  const totals = useHiddenTotals(nodeIds);
  return (
    <div className="fold-more">
      {nodeIds.length} branch{nodeIds.length === 1 ? '' : 'es'} away from the focus · {totals} · click to show
    </div>
  );
}

function SummaryCardImpl({ data }: NodeProps<SummaryFlowNode>) {
  const pill = usePill();
  const best = data.best;
  const text = `+${data.hidden} more${best ? `, best ${best}` : ''}`;
  return (
    <div
      className={`tnode tnode-summary${pill ? ' tpill' : ''}`}
      data-testid="summary-node"
      data-parent-id={data.parentId}
      data-hidden={data.hidden}
      title="Click to show them here"
    >
      <NodeHandles />
      {pill ? (
        <>
          <span className="tpill-words">
            +{data.hidden}
            {best && <span className="tpill-minor"> best {best}</span>}
          </span>
          <span className="tpill-sr">{text}</span>
        </>
      ) : (
        <>
          <div className="tnode-top">
            <span className="badge st-pending">{text}</span>
          </div>
          <SummaryMore nodeIds={data.nodeIds} />
        </>
      )}
      <StatusMix mix={data.mix} />
    </div>
  );
}

function DroppedFoldCardImpl({ data }: NodeProps<DroppedFoldFlowNode>) {
  const pill = usePill();
  // the candidates below the threshold and the branches the search pruned itself: both pruned by rule
  const text = droppedFoldText(data.count - data.nodeIds.length, data.nodeIds.length);
  return (
    <div
      className={`tnode tnode-dropped tnode-compact${pill ? ' tpill' : ''}`}
      data-testid="dropped-fold"
      data-fold-id={data.foldId}
      title="Click to show them"
    >
      <NodeHandles />
      {pill ? (
        <span className="tpill-words">{text.title}</span>
      ) : (
        <>
          <span className="badge st-dropped">{text.title}</span>
          <span className="fold-more">{text.detail} · click to show</span>
        </>
      )}
      {pill && (
        <span className="tpill-sr">
          {text.title} · {text.detail}
        </span>
      )}
    </div>
  );
}

function DroppedCardImpl({ data }: NodeProps<DroppedFlowNode>) {
  const candidate = useRunStore((s) => s.tree.nodes[data.parentId]?.dropped[data.index]);
  const pill = usePill();
  if (!candidate) return null;
  const bar = (
    <div className="tnode-bar">
      <span style={{ width: `${Math.round(candidate.score.composite * 100)}%` }} />
    </div>
  );
  if (pill) {
    return (
      <div className="tnode tpill tnode-dropped" data-testid="dropped-node" title={candidate.branch.thought}>
        <NodeHandles />
        <span className="tpill-words">{firstLine(candidate.branch.thought, 40)}</span>
        <div className="tpill-foot">{bar}</div>
        <span className="tpill-sr">pruned by score · {scoreFigure(candidate.score)}</span>
      </div>
    );
  }
  return (
    <div className="tnode tnode-dropped" data-testid="dropped-node" title={candidate.reason}>
      <NodeHandles />
      <div className="tnode-top">
        <span className="badge st-dropped">pruned by score</span>
        <span className="mono tnode-id">{scoreFigure(candidate.score)}</span>
      </div>
      <div className="tnode-thought">{firstLine(candidate.branch.thought)}</div>
      {bar}
    </div>
  );
}

export const FoldCard = memo(FoldCardImpl);
export const SummaryCard = memo(SummaryCardImpl);
export const DroppedFoldCard = memo(DroppedFoldCardImpl);
export const DroppedCard = memo(DroppedCardImpl);
