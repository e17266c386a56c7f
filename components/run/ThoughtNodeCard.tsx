'use client';
// One node on the canvas: its status, the thought's first line, the composite score as a bar, its depth.
// Memoized and reading only its own node from the store, so a growing tree re-renders only what changed.
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { useRunStore } from './RunStoreContext';
import { STATUS_LABELS, displayStatus, firstLine } from './node-status';
import type { ThoughtFlowNode } from './flow-types';

function ThoughtNodeCardImpl({ data }: NodeProps<ThoughtFlowNode>) {
  const node = useRunStore((s) => s.tree.nodes[data.nodeId]);
  const goal = useRunStore((s) => (node?.parentId === null ? s.tree.goal : null));
  const isBest = useRunStore((s) => s.tree.bestNodeId === data.nodeId);
  if (!node) return null;
  const status = displayStatus(node);
  const isRoot = node.parentId === null;
  const composite = node.score?.composite ?? null;
  return (
    <div
      className={`tnode s-${status}${isBest ? ' is-best' : ''}${isRoot ? ' is-root' : ''}`}
      data-testid="thought-node"
      data-node-id={node.id}
      data-status={status}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div className="tnode-top">
        <span className={`badge st-${status}`}>{isRoot ? 'goal' : STATUS_LABELS[status]}</span>
        <span className="mono">
          {node.id} · d{node.depth}
          {composite !== null ? ` · ${composite.toFixed(2)}` : ''}
        </span>
      </div>
      <div className="tnode-thought" title={isRoot ? (goal ?? '') : (node.branch?.thought ?? '')}>
        {isRoot ? goal : firstLine(node.branch?.thought ?? '')}
      </div>
      {composite !== null && (
        <div className="tnode-bar" aria-label={`composite score ${composite.toFixed(2)}`}>
          <span style={{ width: `${Math.round(composite * 100)}%` }} />
        </div>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

export const ThoughtNodeCard = memo(ThoughtNodeCardImpl);
