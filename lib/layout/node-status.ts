// How a node reads on screen: its state's name (one place for cards, badges and the legend), its first line and its
// score as a figure. Pure; the canvas's elements (canvas-elements.ts), its far level (scene.ts), the cards, the
// inspector and the event log all read it. Not responsible for colours (app/globals.css, lib/layout/overview-colours.ts).
import type { BranchScore } from '../contract/vocabulary';
import type { ThoughtNode } from '../engine/index';

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

/** A node's state in words: STATUS_LABELS, except that a prune names who pruned it (a person, or the search itself). */
export function statusLabel(node: ThoughtNode): string {
  if (node.status === 'pruned' && node.prunedBy) return `pruned by ${node.prunedBy}`;
  if (node.status === 'pruned' && node.pruneReason !== null) return 'pruned by the search';
  return STATUS_LABELS[displayStatus(node)];
}

export function firstLine(text: string, max = 140): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function formatScore(value: number): string {
  return value.toFixed(2);
}

/** A score as one figure: our 0..1 composite, or a foreign log's own value on its scale ("0.002/60"). */
export function scoreFigure(score: BranchScore): string {
  if (!score.logValue) return formatScore(score.composite);
  const { value, max } = score.logValue;
  return `${Math.round(value * 1000) / 1000}/${max}`;
}
