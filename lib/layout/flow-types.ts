// The typed node union of the canvas (React Flow), shared by the canvas and the node components.
import type { Node } from '@xyflow/react';

export type ThoughtFlowNode = Node<{ nodeId: string }, 'thought'>;
export type FoldFlowNode = Node<{ foldId: string; parentId: string; nodeIds: string[]; hidden: number }, 'fold'>;
/** `count`: the candidates dropped below the threshold plus `nodeIds`, the children the search pruned itself. */
export type DroppedFoldFlowNode = Node<
  { foldId: string; parentId: string; count: number; nodeIds: string[] },
  'droppedFold'
>;
export type DroppedFlowNode = Node<{ parentId: string; index: number }, 'dropped'>;
export type RunFlowNode = ThoughtFlowNode | FoldFlowNode | DroppedFoldFlowNode | DroppedFlowNode | SummaryFlowNode;
export type SummaryFlowNode = Node<
  {
    parentId: string;
    nodeIds: string[];
    hidden: number;
    /** The best hidden node's score as its card writes it (scoreFigure: "0.71", or an imported log's "20.001/60"). */
    best: string | null;
    /** The hidden nodes' statuses, "completed:12,failed:3" (a string, so an unchanged mix compares equal). */
    mix: string;
  },
  'summary'
>;
