'use client';
// The folded parts of the tree on the canvas: a parent's dead ends (failed and pruned branches) in one summary
// card, the candidates dropped below the threshold in another, and, once that one is opened, a ghost card per
// dropped candidate. A click on a summary opens it (the canvas handles clicks).
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useRunStore } from './RunStoreContext';
import type { DroppedFlowNode, DroppedFoldFlowNode, FoldFlowNode } from './flow-types';
import { firstLine } from './node-status';

function FoldCardImpl({ data }: NodeProps<FoldFlowNode>) {
  const nodes = useRunStore((s) => s.tree.nodes);
  useRunStore((s) => s.version);
  const dead = data.nodeIds.map((id) => nodes[id]).filter((n) => n !== undefined);
  const failed = dead.filter((n) => n.status === 'failed').length;
  const pruned = dead.length - failed;
  return (
    <div className="tnode tnode-fold" data-testid="fold-node" data-fold-id={data.foldId} title="Click to unfold">
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="tnode-top">
        <span className="badge st-failed">
          {dead.length} dead end{dead.length === 1 ? '' : 's'}
        </span>
        <span className="mono tnode-id">
          {failed ? `${failed} failed` : ''}
          {failed && pruned ? ' · ' : ''}
          {pruned ? `${pruned} pruned` : ''}
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
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

function DroppedFoldCardImpl({ data }: NodeProps<DroppedFoldFlowNode>) {
  return (
    <div
      className="tnode tnode-dropped tnode-compact"
      data-testid="dropped-fold"
      data-fold-id={data.foldId}
      title="Click to show them"
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="badge st-dropped">{data.count} pruned by score</span>
      <span className="fold-more">below the threshold · click to show</span>
    </div>
  );
}

function DroppedCardImpl({ data }: NodeProps<DroppedFlowNode>) {
  const candidate = useRunStore((s) => s.tree.nodes[data.parentId]?.dropped[data.index]);
  if (!candidate) return null;
  return (
    <div className="tnode tnode-dropped" data-testid="dropped-node" title={candidate.reason}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="tnode-top">
        <span className="badge st-dropped">pruned by score</span>
        <span className="mono tnode-id">{candidate.score.composite.toFixed(2)}</span>
      </div>
      <div className="tnode-thought">{firstLine(candidate.branch.thought)}</div>
      <div className="tnode-bar">
        <span style={{ width: `${Math.round(candidate.score.composite * 100)}%` }} />
      </div>
    </div>
  );
}

export const FoldCard = memo(FoldCardImpl);
export const DroppedFoldCard = memo(DroppedFoldCardImpl);
export const DroppedCard = memo(DroppedCardImpl);
