// How a node's state is named and coloured on screen: one place for cards, badges and the legend.
import type { ThoughtNode } from '@/lib/engine/index';

export type DisplayStatus = 'pending' | 'running' | 'completed' | 'verified' | 'failed' | 'pruned' | 'dropped';

export function displayStatus(node: ThoughtNode): DisplayStatus {
  if (node.status === 'completed' && node.verification?.passed) return 'verified';
  return node.status;
}

export const STATUS_LABELS: Record<DisplayStatus, string> = {
  pending: 'pending',
  running: 'running',
  completed: 'completed',
  verified: 'verified',
  failed: 'failed',
  pruned: 'pruned by a person',
  dropped: 'pruned by score',
};

export function firstLine(text: string, max = 140): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
