// How a node reads on screen: its state's name (one place for cards, badges and the legend; a node the search pruned
// by its own rule reads as the engine's candidates pruned by score do), its first line and its score as a figure. Pure; the canvas's elements (canvas-elements.ts), its far level (scene.ts), the cards, the
// inspector and the event log all read it. Not responsible for colours (app/globals.css, lib/layout/overview-colours.ts).
import type { BranchScore } from '../contract/vocabulary';
import type { ThoughtNode } from '../engine/index';

export type DisplayStatus = 'pending' | 'running' | 'completed' | 'verified' | 'failed' | 'pruned' | 'dropped';

/**
 * Whether the search itself pruned the node by its own rule (node.pruned: an external search, an imported log), not
 * a person (steer.prune). The engine's own rule is its threshold (candidates pruned by score, never nodes), so such a
 * node reads as those do: not a dead end, drawn and folded with the parent's candidates pruned by score.
 */
export function isSearchPruned(node: ThoughtNode): boolean {
  return node.status === 'pruned' && node.prunedBy === null && node.pruneReason !== null;
}

export function displayStatus(node: ThoughtNode): DisplayStatus {
  if (node.status === 'completed' && node.verification?.passed) return 'verified';
  if (isSearchPruned(node)) return 'dropped';
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

/**
 * The words of a parent's fold of pruned branches (visibleTree's dropped-fold): `scored` candidates dropped below
 * the threshold, `searched` branches the search pruned by its own rule. The card, its pill and the far level read it.
 */
export function droppedFoldText(scored: number, searched: number): { title: string; detail: string } {
  if (searched === 0) return { title: `${scored} pruned by score`, detail: 'below the threshold' };
  if (scored === 0) return { title: `${searched} pruned by the search`, detail: 'by its own rule' };
  return { title: `${scored + searched} pruned`, detail: `${scored} by score · ${searched} by the search` };
}

/**
 * A root's own text beside the goal: the thought an external search gave its root (its first state, "4 9 10 13"),
 * or null when it gave none or gave the goal again. The engine's root has none: the goal is its text.
 */
export function rootThought(node: ThoughtNode, goal: string): string | null {
  const thought = node.parentId === null ? (node.branch?.thought.trim() ?? '') : '';
  return thought === '' || thought === goal.trim() ? null : thought;
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
