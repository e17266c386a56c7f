/**
 * A run's discussion made ready for the page: threads (a first comment and its replies, oldest first), what each node
 * has (comments, labels: the badge on its card, its pill and the overview), and the steps at which each was written
 * (the timeline's marks). The comments' text is people's: the page renders it as text, never as HTML.
 * Pure. Not responsible for fetching (components/run/discussion) nor for who may write (lib/contract/access.ts).
 */
import type { NodeLabel, RunComment } from '../contract/discussion';

export interface CommentThread {
  first: RunComment;
  replies: RunComment[];
}

/** What one node has been given: its live comments (deleted ones left out) and the names of its labels. */
export interface NodeDiscussion {
  comments: number;
  labels: readonly string[];
}

export interface DiscussionIndex {
  comments: readonly RunComment[];
  labels: readonly NodeLabel[];
  /** Threads oldest first (by their first comment), the run's own (nodeId null) among them. */
  threads: readonly CommentThread[];
  /** By node id: only nodes that have something. */
  byNode: ReadonlyMap<string, NodeDiscussion>;
  /** Every comment (deleted ones left out) and label, by the step it was written at, ascending. */
  marks: readonly DiscussionMark[];
}

export interface DiscussionMark {
  step: number;
  kind: 'comment' | 'label';
  nodeId: string | null;
  /** The comment's id, or the label's. */
  id: string;
}

export const NO_DISCUSSION: DiscussionIndex = {
  comments: [],
  labels: [],
  threads: [],
  byNode: new Map(),
  marks: [],
};

export function indexDiscussion(comments: readonly RunComment[], labels: readonly NodeLabel[]): DiscussionIndex {
  if (comments.length === 0 && labels.length === 0) return NO_DISCUSSION;
  const threads: CommentThread[] = [];
  const byFirst = new Map<string, CommentThread>();
  for (const comment of comments) {
    if (comment.replyTo === null) {
      const thread = { first: comment, replies: [] };
      byFirst.set(comment.id, thread);
      threads.push(thread);
    }
  }
  for (const comment of comments) {
    if (comment.replyTo !== null) byFirst.get(comment.replyTo)?.replies.push(comment);
  }
  const byNode = new Map<string, { comments: number; labels: string[] }>();
  const entry = (nodeId: string) => {
    let node = byNode.get(nodeId);
    if (!node) byNode.set(nodeId, (node = { comments: 0, labels: [] }));
    return node;
  };
  const marks: DiscussionMark[] = [];
  for (const comment of comments) {
    if (comment.deleted) continue;
    if (comment.nodeId !== null) entry(comment.nodeId).comments++;
    marks.push({ step: comment.step, kind: 'comment', nodeId: comment.nodeId, id: comment.id });
  }
  for (const label of labels) {
    entry(label.nodeId).labels.push(label.label);
    marks.push({ step: label.step, kind: 'label', nodeId: label.nodeId, id: label.id });
  }
  marks.sort((a, b) => a.step - b.step);
  return { comments, labels, threads, byNode, marks };
}

/** A node's badge text: "2" comments, a label's initial count ("2 · 1L"); null when it has nothing. */
export function discussionBadge(node: NodeDiscussion | undefined): { comments: number; labels: number } | null {
  if (!node || (node.comments === 0 && node.labels.length === 0)) return null;
  return { comments: node.comments, labels: node.labels.length };
}
