// The typed node union of the canvas (React Flow), shared by the canvas and the node components.
import type { Node } from '@xyflow/react';

export type ThoughtFlowNode = Node<{ nodeId: string }, 'thought'>;
export type RunFlowNode = ThoughtFlowNode;
